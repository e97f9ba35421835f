// Asynchronous Parallel and Stale Synchronous Parallel.
//   ASP: no barrier; the PS applies each update on arrival and answers the worker's pull with the
//        latest global model; the global model is evaluated after every applied update.
//   SSP(s): the same, but worker w may start its next iteration only while c_w - min_j c_j <= s
//        (c = completed iterations); a worker ahead by more blocks until the slowest advances.
//        s = 0 behaves like a barrier without averaging; s -> infinity is ASP.
// "Applies" means w += weight x delta, the server step of async_update (RunSpec): weight 1
// ("add"), 1/n ("average") or server_lr / lr ("server-lr"). An update is a whole chunk's change,
// or with update_unit "steps" that of steps_per_update mini-batches (SSP's clock then counts
// those); the global model is evaluated after every evaluate_every-th applied update.
// The pull is answered as soon as the update is applied; the evaluation is a separate PS job
// queued behind it, so a worker never waits for the test-set evaluation (it would in a real PS
// only if evaluation held the model lock; the reference evaluates in its own loop).
// Under churn (docs/churn.md) an update lost with its worker is simply not applied; SSP leaves a
// departed worker's clock out of the bound (SspClocks::remove) until it comes back at the
// slowest live clock; a worker that comes back pulls the global model and goes on. After a PS
// outage the clocks start over at 0 for the workers available (the others are added when they
// come back), and those pull the restored model.
#include <optional>

#include "models/nn/param_ops.h"
#include "sim/policies/ssp_clock.h"
#include "sim/protocols/algorithms/factories.h"

namespace hermes::protocols {

namespace {

class StaleSynchronous final : public ProtocolRun {
 public:
  StaleSynchronous(const scenario::Scenario& s, const scenario::RunSpec& r,
                   const data::TrainTestSplit& d, std::optional<std::int64_t> staleness)
      : ProtocolRun(s, r, d) {
    if (staleness) clocks_.emplace(static_cast<int>(worker_count()), *staleness);
  }

 private:
  void start() override {
    for (std::size_t w = 0; w < worker_count(); ++w) {
      send_model(w, [this, w] { try_begin(w); });
    }
  }

  void try_begin(std::size_t w) {
    if (clocks_ && !clocks_->try_start(static_cast<int>(w))) return;  // woken by advance()
    begin_iteration(w);
  }

  void on_computed(std::size_t w) override {
    if (clocks_) {
      for (int v : clocks_->advance(static_cast<int>(w)))
        begin_iteration(static_cast<std::size_t>(v));
    }
    auto delta = update(w);
    // The answer is for the process that pushed: w may go and come back while the PS applies
    // the update, a change of process that no failed activity reports (ProtocolRun::answer_push).
    push_update(w, *delta, [this, w, delta, inc = incarnation(w)] {
      // Apply and evaluation are queued together, so the evaluation sees exactly this update
      // (the PS runs its jobs one at a time, in order). The model goes back at once, or after
      // the evaluation as the released code's master does (transfers.model_after_evaluation).
      // With evaluate_every k only every k-th update is followed by an evaluation; the others
      // are answered at once.
      const bool evaluate = evaluation_due(1);
      const bool after = scenario().transfers.model_after_evaluation && evaluate;
      ps_job(aggregation_flops(1), 0, [this, w, delta, after, inc] {
        nn::axpy(async_update_weight(), *delta, global_model().params());
        count_applied(1);
        if (!after) answer_push(w, inc, [this, w] { try_begin(w); });
      });
      if (!evaluate) return;
      evaluate_global(static_cast<int>(w), [this, w, after, inc] {
        if (after) answer_push(w, inc, [this, w] { try_begin(w); });
      });
    });
  }

  void restart() override {
    if (clocks_) {
      clocks_.emplace(static_cast<int>(worker_count()), clocks_->staleness());
      for (std::size_t w = 0; w < worker_count(); ++w) {
        if (!available(w)) clocks_->remove(static_cast<int>(w));
      }
    }
    start();
  }

  void on_departed(std::size_t w) override {
    if (!clocks_) return;
    for (int v : clocks_->remove(static_cast<int>(w))) begin_iteration(static_cast<std::size_t>(v));
  }

  void on_rejoined(std::size_t w) override {
    if (clocks_) clocks_->add(static_cast<int>(w));
    send_model(w, [this, w] { try_begin(w); });
  }

  std::optional<SspClocks> clocks_;
};

}  // namespace

RunResult run_asp(const scenario::Scenario& s, const scenario::RunSpec& r,
                  const data::TrainTestSplit& d, const ProgressFn& progress,
                  parallel::ThreadPool* pool, RunObserver* observer) {
  return run_to_end(std::make_unique<StaleSynchronous>(s, r, d, std::nullopt), progress, pool,
                    observer);
}

RunResult run_ssp(const scenario::Scenario& s, const scenario::RunSpec& r,
                  const data::TrainTestSplit& d, const ProgressFn& progress,
                  parallel::ThreadPool* pool, RunObserver* observer) {
  return run_to_end(std::make_unique<StaleSynchronous>(s, r, d, r.staleness), progress, pool,
                    observer);
}

}  // namespace hermes::protocols
