// SelSync on the PS / worker skeleton (docs/selsync.md has the paper's algorithm and this mapping).
// A step: every worker the PS counts on trains one iteration (one mini-batch, the paper's step:
// the skeleton's update_unit "steps" with steps_per_update 1, which the run's own copy of its
// RunSpec sets whatever the scenario's says) from its own model, which plain SGD moves
// by its own gradient; its rule (policies/selsync_rule.h) reads the norm of that gradient and
// votes. The votes are OR-ed once all are in (the released code all-reduces them with a sum):
//   - nobody voted to sync: a local step; every worker goes on from its own model;
//   - someone did: a sync step; every worker that voted in this step pushes its parameters, the
//     PS averages them (parameter aggregation, which the paper favours over gradient
//     aggregation), evaluates the average (every evaluate_every updates) and every worker pulls
//     it and goes on from it.
// So a sync step averages models that each took their own step first: w <- mean_i(w_i - lr g_i).
// (The released code averages the parameters and then applies each worker's own gradient, so its
// workers leave a sync step with different models; docs/selsync.md says why this one is chosen.)
// With delta 0 every step syncs: synchronous SGD, BSP with one mini-batch per round.
// The vote is a few bytes riding on the iteration-time report every worker sends at the end of
// its compute, and the PS's answer to a local step is as small: neither is timed.
//
// Under churn (docs/churn.md) a step waits for the workers the PS counts on, as BSP's rounds do:
// those present when it opened, less those that departed since (on_departed). A worker that
// departs before its vote is not waited for; one that departs after it is left out of the
// averaging (its vote still counts: the PS had it). A worker that comes back has a fresh process:
// its rule starts over (a warm-up of syncs of its own) and it pulls the global model at the next
// step. After a PS outage the step in progress is gone with the PS: the restarted PS opens a new
// one, and every available worker pulls the restored model (the workers' rules outlived the PS).
#include "sim/protocols/algorithms/selsync.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "models/nn/param_ops.h"
#include "sim/protocols/algorithms/factories.h"

namespace hermes::protocols {

namespace {

// The run as the skeleton sees it: one mini-batch per iteration. A base of SelSync before
// ProtocolRun, so that it exists when ProtocolRun (which keeps a reference) is made.
struct OneStepSpec {
  explicit OneStepSpec(const scenario::RunSpec& run) : one_step(run) {
    one_step.update_unit = scenario::UpdateUnit::kSteps;
    one_step.steps_per_update = 1;
  }
  scenario::RunSpec one_step;
};

class SelSync final : private OneStepSpec, public ProtocolRun {
 public:
  SelSync(const scenario::Scenario& s, const scenario::RunSpec& r, const data::TrainTestSplit& d,
          const SelSyncParams& params)
      : OneStepSpec(r), ProtocolRun(s, one_step, d), params_(params) {
    rules_.assign(worker_count(), SelSyncRule(params));  // throws on bad parameters
    grads_.assign(worker_count(), std::vector<float>(global_model().num_params(), 0.0f));
    votes_.assign(worker_count(), true);
    pending_.assign(worker_count(), -1);
  }

  void set_sink(std::vector<SelSyncStepRecord>* sink) { sink_ = sink; }

 private:
  enum class Phase { kCompute, kSync };
  struct Step {
    std::int64_t id = 0;
    bool open = false;
    Phase phase = Phase::kCompute;
    std::vector<bool> expected;   // kCompute: the PS waits for these workers' votes
    std::vector<bool> voted;      // kCompute: their votes are in
    std::vector<bool> syncing;    // kSync: the PS waits for these workers' parameters
    std::vector<bool> in;         // kSync: their parameters are in
    std::size_t waiting_for = 0;  // in the current phase
    bool any_vote = false;        // some worker voted to sync
    std::size_t summed = 0;       // parameters summed (kSync)
  };

  void start() override {
    sum_.assign(global_model().num_params(), 0.0f);
    member_.assign(worker_count(), false);
    needs_model_.assign(worker_count(), true);
    for (std::size_t w = 0; w < worker_count(); ++w) member_[w] = available(w);
    open_step();
  }

  bool rounds_are_barriers() const override { return true; }

  // The skeleton accumulates every mini-batch gradient of an iteration here: the gradient the
  // rule reads (not the model's change, which also holds the learning rate).
  std::span<float> gradient_sum(std::size_t w) override { return grads_[w]; }

  // workers.csv's update column: the worker's vote (major: it asked for a sync). Whether the step
  // synced is known only once every vote is in, after the record is written.
  UpdateKind update_kind(std::size_t w) const override {
    return votes_[w] ? UpdateKind::kMajor : UpdateKind::kMinor;
  }

  // Every member computes a step: from the global model if it must pull one (the first step,
  // after a sync, after coming back), else from its own.
  void open_step() {
    Step& s = step_;
    ++s.id;
    s.phase = Phase::kCompute;
    s.expected = member_;
    s.voted.assign(worker_count(), false);
    s.waiting_for = static_cast<std::size_t>(std::count(member_.begin(), member_.end(), true));
    s.any_vote = false;
    s.open = s.waiting_for > 0;
    idle_ = !s.open;  // opened again when a worker comes back
    if (!s.open) return;
    for (std::size_t w = 0; w < worker_count(); ++w) {
      if (!s.expected[w]) continue;
      if (needs_model_[w]) {
        needs_model_[w] = false;
        send_model(w, [this, w] { begin_iteration(w); });
      } else {
        begin_iteration(w);
      }
    }
  }

  // A sync step pushes the change from the global model, never update(w).
  bool uses_update() const override { return false; }

  void on_computed(std::size_t w) override {
    std::vector<float>& g = grads_[w];
    double squares = 0;
    for (const float x : g) squares += static_cast<double>(x) * static_cast<double>(x);
    std::fill(g.begin(), g.end(), 0.0f);
    const double norm = std::sqrt(squares);
    const SelSyncStep reading = rules_[w].observe(norm);
    votes_[w] = reading.sync;
    Step& s = step_;
    const bool counted = s.open && s.phase == Phase::kCompute && s.expected[w] && !s.voted[w];
    record(w, norm, reading, counted);
    // A vote of a worker the PS stopped waiting for (it left meanwhile) is not counted; it is
    // given work again when a step opens with it.
    if (!counted) return;
    s.voted[w] = true;
    s.any_vote = s.any_vote || reading.sync;
    if (--s.waiting_for == 0) decide();
  }

  void decide() {
    Step& s = step_;
    if (!s.any_vote) {
      close_records(false);
      open_step();  // a local step: each goes on from its own model
      return;
    }
    close_records(true);
    s.phase = Phase::kSync;
    s.syncing.assign(worker_count(), false);
    s.in.assign(worker_count(), false);
    s.waiting_for = 0;
    s.summed = 0;
    for (std::size_t w = 0; w < worker_count(); ++w) {
      if (!s.expected[w] || !s.voted[w]) continue;
      s.syncing[w] = true;
      ++s.waiting_for;
    }
    if (s.waiting_for == 0) {  // every voter departed meanwhile
      aggregate();
      return;
    }
    for (std::size_t w = 0; w < worker_count(); ++w) {
      if (!s.syncing[w]) continue;
      needs_model_[w] = true;  // it goes on from the average
      // Parameter aggregation: the worker's parameters travel (a model's bytes), as their change
      // from the model it last pulled, which is the global model now (the global changes only at
      // a sync step's aggregation, whose result each of its workers pulls, and a worker back from
      // an outage pulls the latest). As a change, a compression (docs/compression.md) sparsifies
      // or rounds the step's progress, not the weights; the PS adds it to the global model.
      auto delta = buffers().copy_of(worker(w).model.params());
      nn::axpy(-1.0f, global_model().params(), *delta);
      push_update(w, *delta, [this, w, delta, id = s.id] { arrive(w, *delta, id); });
    }
  }

  // Summed at arrival as the change from the global model (which no other update moves during a
  // sync step), so that the average is taken as BSP takes it: global + mean of the changes.
  void arrive(std::size_t w, const std::vector<float>& delta, std::int64_t id) {
    Step& s = step_;
    if (!s.open || s.id != id || s.phase != Phase::kSync || !s.syncing[w] || s.in[w]) {
      discard_update(w);  // late: w departed, or the PS restarted, since it pushed
      return;
    }
    nn::axpy(1.0f, delta, sum_);
    s.in[w] = true;
    ++s.summed;
    if (--s.waiting_for == 0) aggregate();
  }

  void aggregate() {
    Step& s = step_;
    s.open = false;
    if (s.summed == 0) {
      open_step();
      return;
    }
    const std::size_t k = s.summed;
    ps_job(aggregation_flops(k), 0, [this, k] {
      nn::axpy(1.0f / static_cast<float>(k), sum_, global_model().params());
      std::fill(sum_.begin(), sum_.end(), 0.0f);
      count_applied(static_cast<std::int64_t>(k));
      count_barrier();
      if (evaluation_due(static_cast<std::int64_t>(k))) {
        evaluate_global(-1, [this] { open_step(); });
      } else {
        open_step();
      }
    });
  }

  void on_departed(std::size_t w) override {
    member_[w] = false;
    needs_model_[w] = true;
    Step& s = step_;
    if (!s.open) return;
    if (s.phase == Phase::kCompute) {
      if (!s.expected[w]) return;
      s.expected[w] = false;
      if (s.voted[w]) return;  // its vote counts; decide() leaves it out of the averaging
      if (--s.waiting_for == 0) decide();
      return;
    }
    if (!s.syncing[w] || s.in[w]) return;
    s.syncing[w] = false;
    if (--s.waiting_for == 0) aggregate();
  }

  void on_rejoined(std::size_t w) override {
    member_[w] = true;
    needs_model_[w] = true;
    rules_[w] = SelSyncRule(params_);  // a fresh process: its smoothing starts over
    std::fill(grads_[w].begin(), grads_[w].end(), 0.0f);
    if (idle_) open_step();
  }

  void restart() override {
    step_.open = false;
    for (auto& g : grads_) std::fill(g.begin(), g.end(), 0.0f);  // of iterations lost with the PS
    start();
  }

  void record(std::size_t w, double norm, const SelSyncStep& reading, bool counted) {
    if (sink_ == nullptr) return;
    SelSyncStepRecord r;
    r.worker = static_cast<int>(w);
    r.step = rules_[w].steps();
    r.gradient_norm = norm;
    r.rule = reading;
    r.counted = counted;
    if (counted) pending_[w] = static_cast<std::int64_t>(sink_->size());
    sink_->push_back(r);
  }

  void close_records(bool synced) {
    if (sink_ == nullptr) return;
    for (std::size_t w = 0; w < worker_count(); ++w) {
      if (pending_[w] < 0 || !step_.voted[w]) continue;
      (*sink_)[static_cast<std::size_t>(pending_[w])].synced = synced;
      pending_[w] = -1;
    }
  }

  SelSyncParams params_;
  std::vector<SelSyncRule> rules_;         // each worker's rule (lives in its process)
  std::vector<std::vector<float>> grads_;  // each worker's gradient of its current step
  std::vector<bool> votes_;                // each worker's latest vote
  std::vector<float> sum_;                 // the changes summed in a sync step
  Step step_;
  std::vector<bool> member_;       // the workers the PS counts on
  std::vector<bool> needs_model_;  // its next step starts from the global model
  bool idle_ = false;
  std::vector<SelSyncStepRecord>* sink_ = nullptr;
  std::vector<std::int64_t> pending_;  // per worker: its record of the open step, or -1
};

}  // namespace

SelSyncParams selsync_params(const scenario::RunSpec& run) {
  SelSyncParams p;
  p.delta = run.own_value("delta");
  p.smoothing = run.own_value("smoothing");
  p.window = static_cast<int>(run.own_value("window_size"));
  return p;
}

std::unique_ptr<ProtocolRun> make_selsync(const scenario::Scenario& s, const scenario::RunSpec& r,
                                          const data::TrainTestSplit& d) {
  return make_selsync(s, r, d, selsync_params(r));
}

RunResult run_selsync(const scenario::Scenario& s, const scenario::RunSpec& r,
                      const data::TrainTestSplit& d, const ProgressFn& progress,
                      parallel::ThreadPool* pool, RunObserver* observer) {
  return run_to_end(make_selsync(s, r, d), progress, pool, observer);
}

std::unique_ptr<ProtocolRun> make_selsync(const scenario::Scenario& s, const scenario::RunSpec& r,
                                          const data::TrainTestSplit& d,
                                          const SelSyncParams& params) {
  return std::make_unique<SelSync>(s, r, d, params);
}

void record_selsync_steps(ProtocolRun& run, std::vector<SelSyncStepRecord>* sink) {
  auto* selsync = dynamic_cast<SelSync*>(&run);
  if (selsync == nullptr) {
    throw std::invalid_argument("record_selsync_steps: the run is not a SelSync run");
  }
  selsync->set_sink(sink);
}

}  // namespace hermes::protocols
