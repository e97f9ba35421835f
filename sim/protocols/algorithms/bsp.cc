// Bulk Synchronous Parallel: every worker trains one iteration from the same global model, pushes
// its update and waits at the barrier; when all n updates are in, the PS averages them into the
// global model, evaluates it, and every worker pulls the new model.
//
// Under churn (docs/churn.md) a round waits for the workers the PS counts on: those present when
// it opened, less those that departed since (on_departed). The run's barrier_timeout_s, if set,
// closes a round that long after its first update arrived, with the updates that are in: a
// silent worker is dropped from the round, its late update discarded when it comes, and it gets
// the next round's model once it is free. (Timed from the first arrival, not from the opening, so
// that a round always aggregates something: a timeout shorter than every iteration would
// otherwise close every round empty.) A round closed with k updates averages those k. A worker that
// comes back joins at the next round; with nobody left to wait for, the next round opens when one
// does. After a PS outage (docs/churn.md) the round in progress is gone with the PS: the restarted
// PS opens a new round for the workers available.
#include <algorithm>

#include "models/nn/param_ops.h"
#include "sim/protocols/algorithms/factories.h"

namespace hermes::protocols {

namespace {

class Bsp final : public ProtocolRun {
 public:
  using ProtocolRun::ProtocolRun;

 private:
  struct Round {
    std::int64_t id = 0;
    bool open = false;
    std::vector<bool> expected;  // the PS waits for an update of these workers
    std::vector<bool> arrived;
    std::size_t waiting_for = 0;  // expected and not arrived
    std::size_t in = 0;           // updates summed
    engine::EventId timeout;
  };

  void start() override {
    round_sum_.assign(global_model().num_params(), 0.0f);
    member_.assign(worker_count(), false);
    for (std::size_t w = 0; w < worker_count(); ++w) member_[w] = available(w);
    working_on_.assign(worker_count(), -1);
    open_round();
  }

  bool rounds_are_barriers() const override { return true; }

  void restart() override {
    round_.open = false;  // its timeout died with the PS (schedule_in)
    start();
  }

  // Sends the global model to every member that is free; each begins its iteration on arrival.
  void open_round() {
    Round& r = round_;
    ++r.id;
    r.expected = member_;
    r.arrived.assign(worker_count(), false);
    r.waiting_for = static_cast<std::size_t>(std::count(member_.begin(), member_.end(), true));
    r.in = 0;
    r.open = r.waiting_for > 0;  // else: opened again when a worker comes back
    idle_ = !r.open;
    if (!r.open) return;
    for (std::size_t w = 0; w < worker_count(); ++w) {
      if (r.expected[w] && working_on_[w] < 0) give_model(w);
    }
  }

  void give_model(std::size_t w) {
    working_on_[w] = round_.id;
    send_model(w, [this, w] { begin_iteration(w); });
  }

  void on_computed(std::size_t w) override {
    auto delta = update(w);
    push_update(w, *delta, [this, w, delta, id = working_on_[w]] {
      working_on_[w] = -1;
      Round& r = round_;
      if (!r.open || r.id != id || !r.expected[w] || r.arrived[w]) {
        // Late for its round (timed out, or w departed meanwhile): its update is not used.
        discard_update(w);
        if (r.open && r.expected[w] && !r.arrived[w] && member_[w]) give_model(w);
        return;
      }
      // Summed at arrival; the mean is taken once all are in.
      nn::axpy(1.0f, *delta, round_sum_);
      r.arrived[w] = true;
      if (++r.in == 1 && spec().barrier_timeout_s > 0) {
        const engine::SimTime t = engine::from_seconds(spec().barrier_timeout_s);
        r.timeout = schedule_in(t, [this, id = r.id] {
          if (round_.open && round_.id == id) close_round();
        });
      }
      if (--r.waiting_for == 0) close_round();
    });
  }

  void close_round() {
    Round& r = round_;
    r.open = false;
    cancel(r.timeout);
    if (r.in == 0) {  // every worker it waited for was dropped or departed
      open_round();
      return;
    }
    const std::size_t k = r.in;
    ps_job(aggregation_flops(k), 0, [this, k] {
      nn::axpy(1.0f / static_cast<float>(k), round_sum_, global_model().params());
      std::fill(round_sum_.begin(), round_sum_.end(), 0.0f);
      count_applied(static_cast<std::int64_t>(k));
      count_barrier();
      if (evaluation_due(static_cast<std::int64_t>(k))) {
        evaluate_global(-1, [this] { open_round(); });
      } else {
        open_round();  // evaluate_every: not yet
      }
    });
  }

  void on_departed(std::size_t w) override {
    member_[w] = false;
    working_on_[w] = -1;
    Round& r = round_;
    if (!r.open || !r.expected[w] || r.arrived[w]) return;
    r.expected[w] = false;
    if (--r.waiting_for == 0) close_round();
  }

  void on_rejoined(std::size_t w) override {
    member_[w] = true;
    // Nobody to wait for: a round is neither open nor being aggregated.
    if (!round_.open && idle_) open_round();
  }

  std::vector<float> round_sum_;
  Round round_;
  std::vector<bool> member_;              // the workers the PS counts on
  std::vector<std::int64_t> working_on_;  // per worker: the round whose model it has; -1: free
  bool idle_ = false;
};

}  // namespace

RunResult run_bsp(const scenario::Scenario& s, const scenario::RunSpec& r,
                  const data::TrainTestSplit& d, const ProgressFn& progress,
                  parallel::ThreadPool* pool, RunObserver* observer) {
  return run_to_end(std::make_unique<Bsp>(s, r, d), progress, pool, observer);
}

}  // namespace hermes::protocols
