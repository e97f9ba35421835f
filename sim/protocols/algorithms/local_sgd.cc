// Local SGD / FedAvg on the PS / worker skeleton (docs/local_sgd.md has the sources' algorithms
// and this mapping). A round:
//   1. the PS draws its participants: max(1, floor(C K)) of the K workers it counts on that are
//      free, from the run's own random stream "local-sgd-participation" (all of them, without a
//      draw, with C = 1);
//   2. each participant pulls the global model and takes H mini-batch steps from it: one
//      iteration of the skeleton's update_unit "steps" with steps_per_update H, which the run's
//      own copy of its RunSpec sets whatever the scenario's says (the next H mini-batches of the
//      worker's chunk; fewer when the chunk's pass ends first, and the next iteration draws a
//      new chunk);
//   3. each pushes its change (a model's bytes); the PS sums the changes as they arrive and, once
//      every participant's is in, applies their mean d by the outer step (local_sgd_rule.h:
//      w <- w + d by default, DiLoCo's Nesterov step otherwise), evaluates the new model (every
//      evaluate_every updates) and opens the next round.
// The mean is plain, not weighted by samples: FedAvg weighs client k by its data set's size n_k,
// and hermes-sim's workers all draw from the same training set (random chunking) or from equal
// slices of it (fixed chunking), so the n_k are equal; Lin et al.'s local SGD averages plainly.
// So with C = 1, eta = 1 and mu = 0 a round is BSP's round of update_unit "steps" with
// steps_per_update H, operation for operation (tests/protocols/local_sgd_test.cc).
// Workers not drawn wait for a later round (their chunk's pass stays where it was).
//
// Under churn (docs/churn.md) a round waits only for its participants that are still counted on:
// a participant that departs (on_departed) is dropped from the round and its late update, if one
// comes, is discarded; the round closes with the changes that are in (none: a new round opens).
// A worker that comes back is counted on again and may be drawn from the next round on (if no
// round is open because nobody was left, one opens for it). After a PS outage the round in
// progress is gone with the PS: the restarted PS has restored its checkpoint, the global model
// and the outer step's momentum (save_ps_state), and opens a new round with a new draw.
#include "sim/protocols/algorithms/local_sgd.h"

#include <algorithm>
#include <stdexcept>

#include "models/nn/param_ops.h"
#include "sim/protocols/algorithms/factories.h"
#include "sim/protocols/skeleton/barrier_round.h"

namespace hermes::protocols {

namespace {

// The run as the skeleton sees it: H mini-batches per iteration. A base of LocalSgd before
// ProtocolRun, so that it exists when ProtocolRun (which keeps a reference) is made; it checks
// the parameters first, so that bad ones are refused before anything is built.
struct StepsSpec {
  StepsSpec(const scenario::RunSpec& run, const LocalSgdParams& params) : steps(run) {
    check_local_sgd_params(params);
    steps.update_unit = scenario::UpdateUnit::kSteps;
    steps.steps_per_update = params.local_steps;
  }
  scenario::RunSpec steps;
};

class LocalSgd final : private StepsSpec, public ProtocolRun {
 public:
  LocalSgd(const scenario::Scenario& s, const scenario::RunSpec& r, const data::TrainTestSplit& d,
           const LocalSgdParams& params)
      : StepsSpec(r, params),
        ProtocolRun(s, steps, d),
        params_(params),
        outer_(params.outer_lr, params.outer_momentum, global_model().num_params()),
        draws_(RandomStream::named(s.seed, "local-sgd-participation")) {}

  void set_sink(std::vector<LocalSgdRoundRecord>* sink) { sink_ = sink; }

 private:
  void start() override {
    sum_.assign(global_model().num_params(), 0.0f);
    round_.start(worker_count(), [this](std::size_t w) { return available(w); });
    open_round();
  }

  bool rounds_are_barriers() const override { return true; }

  void save_ps_state() override {
    saved_momentum_.assign(outer_.momentum().begin(), outer_.momentum().end());
  }
  void restore_ps_state() override { outer_.set_momentum(saved_momentum_); }

  void restart() override { start(); }

  // Draws the round's participants among the free members and sends each the global model; each
  // begins its H steps on arrival.
  void open_round() {
    std::vector<std::size_t> free;
    for (std::size_t w = 0; w < worker_count(); ++w) {
      if (round_.member(w) && round_.free(w)) free.push_back(w);
    }
    const auto picked =
        draw_participants(free, participant_count(params_.participation, free.size()), draws_);
    std::vector<bool> expected(worker_count(), false);
    for (const std::size_t w : picked) expected[w] = true;
    // Nobody drawn: opened again when a worker comes back or is free.
    round_.open_next(std::move(expected));
    if (!round_.is_open()) return;
    record_open(free.size(), picked);
    for (const std::size_t w : picked) {
      round_.assign(w);
      send_model(w, [this, w] { begin_iteration(w); });
    }
  }

  void on_computed(std::size_t w) override {
    auto delta = update(w);
    push_update(w, *delta, [this, w, delta, id = round_.working_on(w)] {
      if (round_.working_on(w) == id) round_.release(w);
      if (!round_.counts(w, id)) {
        // Late for its round (w was dropped from it when it departed): not used.
        discard_update(w);
        if (round_.idle() && round_.member(w)) open_round();
        return;
      }
      nn::axpy(1.0f, *delta, sum_);  // summed at arrival, in arrival order (as BSP)
      record_arrival(w, *delta);
      if (round_.arrive(w)) close_round();
    });
  }

  void close_round() {
    round_.close();
    if (round_.in() == 0) {  // every participant departed
      open_round();
      return;
    }
    const std::size_t k = round_.in();
    // The mean is BSP's k multiply-adds per parameter; the outer step adds about three (the
    // momentum's, and the step's two).
    const double flops = aggregation_flops(k) + (outer_.plain() ? 0.0 : aggregation_flops(3));
    ps_job(flops, 0, [this, k] {
      outer_.apply(sum_, k, global_model().params());
      std::fill(sum_.begin(), sum_.end(), 0.0f);
      record_applied();
      count_applied(static_cast<std::int64_t>(k));
      count_barrier();
      if (evaluation_due(static_cast<std::int64_t>(k))) {
        evaluate_global(-1, [this] { open_round(); });
      } else {
        open_round();
      }
    });
  }

  void on_departed(std::size_t w) override {
    if (round_.depart(w)) close_round();
  }

  void on_rejoined(std::size_t w) override {
    if (round_.rejoin(w)) open_round();  // nobody was left: a round opens for it
  }

  // Test records (record_local_sgd_rounds).
  void record_open(std::size_t available_count, const std::vector<std::size_t>& picked) {
    if (sink_ == nullptr) return;
    LocalSgdRoundRecord rec;
    rec.round = round_.id();
    rec.available = available_count;
    for (const std::size_t w : picked) rec.participants.push_back(static_cast<int>(w));
    const auto g = global_model().params();
    rec.before.assign(g.begin(), g.end());
    sink_->push_back(std::move(rec));
  }
  void record_arrival(std::size_t w, std::span<const float> delta) {
    if (sink_ == nullptr || sink_->empty()) return;
    LocalSgdRoundRecord& rec = sink_->back();
    rec.averaged.push_back(static_cast<int>(w));
    std::vector<float> model = rec.before;  // the global model does not move during a round
    nn::axpy(1.0f, delta, model);
    rec.models.push_back(std::move(model));
  }
  void record_applied() {
    if (sink_ == nullptr || sink_->empty()) return;
    LocalSgdRoundRecord& rec = sink_->back();
    rec.applied = true;
    const auto g = global_model().params();
    rec.after.assign(g.begin(), g.end());
    rec.momentum_after.assign(outer_.momentum().begin(), outer_.momentum().end());
  }

  LocalSgdParams params_;
  OuterStep outer_;                    // the PS's outer step and its momentum
  std::vector<float> saved_momentum_;  // as of the PS's latest checkpoint
  RandomStream draws_;                 // the participants' draws
  std::vector<float> sum_;             // the round's changes, summed
  BarrierRound round_;  // its participants, whom the PS still waits for, who trains for which
  std::vector<LocalSgdRoundRecord>* sink_ = nullptr;
};

}  // namespace

LocalSgdParams local_sgd_params(const scenario::RunSpec& run) {
  LocalSgdParams p;
  p.local_steps = static_cast<int>(run.own_value("local_steps"));
  p.participation = run.own_value("participation");
  p.outer_lr = run.own_value("outer_lr");
  p.outer_momentum = run.own_value("outer_momentum");
  return p;
}

std::unique_ptr<ProtocolRun> make_local_sgd(const scenario::Scenario& s, const scenario::RunSpec& r,
                                            const data::TrainTestSplit& d) {
  return make_local_sgd(s, r, d, local_sgd_params(r));
}

std::unique_ptr<ProtocolRun> make_local_sgd(const scenario::Scenario& s, const scenario::RunSpec& r,
                                            const data::TrainTestSplit& d,
                                            const LocalSgdParams& params) {
  return std::make_unique<LocalSgd>(s, r, d, params);
}

RunResult run_local_sgd(const scenario::Scenario& s, const scenario::RunSpec& r,
                        const data::TrainTestSplit& d, const ProgressFn& progress,
                        parallel::ThreadPool* pool, RunObserver* observer) {
  return run_to_end(make_local_sgd(s, r, d), progress, pool, observer);
}

void record_local_sgd_rounds(ProtocolRun& run, std::vector<LocalSgdRoundRecord>* sink) {
  auto* local = dynamic_cast<LocalSgd*>(&run);
  if (local == nullptr) {
    throw std::invalid_argument("record_local_sgd_rounds: the run is not a local SGD run");
  }
  local->set_sink(sink);
}

}  // namespace hermes::protocols
