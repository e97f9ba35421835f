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
#include "sim/protocols/skeleton/barrier_round.h"

namespace hermes::protocols {

namespace {

class Bsp final : public ProtocolRun {
 public:
  using ProtocolRun::ProtocolRun;

 private:
  void start() override {
    round_sum_.assign(global_model().num_params(), 0.0f);
    round_.start(worker_count(), [this](std::size_t w) { return available(w); });
    open_round();
  }

  bool rounds_are_barriers() const override { return true; }

  // Its timeout died with the PS (schedule_in).
  void restart() override { start(); }

  // Sends the global model to every member that is free; each begins its iteration on arrival.
  void open_round() {
    round_.open_next(round_.members());  // else: opened again when a worker comes back
    if (!round_.is_open()) return;
    for (std::size_t w = 0; w < worker_count(); ++w) {
      if (round_.expected(w) && round_.free(w)) give_model(w);
    }
  }

  void give_model(std::size_t w) {
    round_.assign(w);
    send_model(w, [this, w] { begin_iteration(w); });
  }

  void on_computed(std::size_t w) override {
    auto delta = update(w);
    push_update(w, *delta, [this, w, delta, id = round_.working_on(w)] {
      round_.release(w);
      if (!round_.counts(w, id)) {
        // Late for its round (timed out, or w departed meanwhile): its update is not used.
        discard_update(w);
        if (round_.counts(w, round_.id()) && round_.member(w)) give_model(w);
        return;
      }
      // Summed at arrival; the mean is taken once all are in.
      nn::axpy(1.0f, *delta, round_sum_);
      const bool last = round_.arrive(w);
      if (round_.in() == 1 && spec().barrier_timeout_s > 0) {
        const engine::SimTime t = engine::from_seconds(spec().barrier_timeout_s);
        timeout_ = schedule_in(t, [this, id = round_.id()] {
          if (round_.is_open() && round_.id() == id) close_round();
        });
      }
      if (last) close_round();
    });
  }

  void close_round() {
    round_.close();
    cancel(timeout_);
    if (round_.in() == 0) {  // every worker it waited for was dropped or departed
      open_round();
      return;
    }
    const std::size_t k = round_.in();
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
    if (round_.depart(w)) close_round();
  }

  void on_rejoined(std::size_t w) override {
    // Nobody to wait for: a round is neither open nor being aggregated.
    if (round_.rejoin(w)) open_round();
  }

  std::vector<float> round_sum_;
  BarrierRound round_;
  engine::EventId timeout_;
};

}  // namespace

RunResult run_bsp(const scenario::Scenario& s, const scenario::RunSpec& r,
                  const data::TrainTestSplit& d, const ProgressFn& progress,
                  parallel::ThreadPool* pool, RunObserver* observer) {
  return run_to_end(std::make_unique<Bsp>(s, r, d), progress, pool, observer);
}

}  // namespace hermes::protocols
