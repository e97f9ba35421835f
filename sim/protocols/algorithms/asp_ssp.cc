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
// Staleness-aware asynchrony (docs/staleness.md): the PS counts its global updates (StalenessClock)
// and notes the count each worker's pulled model had; an update computed from it arrives with
// staleness tau = global updates applied since, and is applied with the server step times
// s(tau) (staleness_weight: constant, inverse, polynomial; FedAsync). With buffer_size K > 1
// (FedBuff) the PS adds each arrival's s(tau) x delta into a buffer and, at every K-th arrival,
// applies the server step times the buffer's mean: one global update (tau counts those), K
// updates applied (result.updates, evaluate_every). An arrival that does not fill the buffer is
// answered with the model as it is. The buffer is PS memory: a PS failure loses it (its updates
// counted as dropped, as any update not applied yet); at the run's end it is left unapplied.
// Defaults (constant, K 1) are ASP's and SSP's rule, bit for bit.
#include <algorithm>
#include <optional>
#include <span>
#include <vector>

#include "models/nn/param_ops.h"
#include "sim/policies/ssp_clock.h"
#include "sim/policies/staleness_weight.h"
#include "sim/protocols/algorithms/factories.h"

namespace hermes::protocols {

namespace {

class StaleSynchronous final : public ProtocolRun {
 public:
  StaleSynchronous(const scenario::Scenario& s, const scenario::RunSpec& r,
                   const data::TrainTestSplit& d, std::optional<std::int64_t> staleness)
      : ProtocolRun(s, r, d),
        weighting_(static_cast<StalenessWeight>(static_cast<int>(r.own_value("staleness_weight")))),
        exponent_(r.own_value("staleness_exponent")),
        buffer_size_(static_cast<std::int64_t>(r.own_value("buffer_size"))),
        clock_(worker_count()) {
    if (staleness) clocks_.emplace(static_cast<int>(worker_count()), *staleness);
    if (buffer_size_ > 1) buffer_.assign(global_model().num_params(), 0.0f);
  }

 private:
  void start() override {
    for (std::size_t w = 0; w < worker_count(); ++w) pull(w);
  }

  // The global model to w, noting the count of global updates in it: send_model copies the model
  // as it is now (what w computes its next update from).
  void pull(std::size_t w) {
    clock_.pull(w);
    send_model(w, [this, w] { try_begin(w); });
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
    // Its staleness is counted from the model it was computed from: w may have pulled another
    // by the time it arrives (it went and came back).
    push_update(w, *delta, [this, w, delta, inc = incarnation(w), pulled_at = clock_.pulled(w)] {
      // FedBuff: this arrival fills the buffer (or there is none: K 1), so the PS applies now.
      // Counted at the arrival, in the order of the PS's jobs, which run one at a time in order.
      const bool applies = ++buffered_ >= buffer_size_;
      if (applies) buffered_ = 0;
      // Apply and evaluation are queued together, so the evaluation sees exactly this update
      // (the PS runs its jobs one at a time, in order). The model goes back at once, or after
      // the evaluation as the released code's master does (transfers.model_after_evaluation).
      // With evaluate_every k only every k-th update is followed by an evaluation; the others
      // are answered at once.
      const bool evaluate = applies && evaluation_due(buffer_size_);
      const bool after = scenario().transfers.model_after_evaluation && evaluate;
      // A buffered arrival is one scale-add into the buffer, and the K-th one more to apply it.
      const std::size_t vectors = buffer_size_ > 1 && applies ? 2 : 1;
      ps_job(aggregation_flops(vectors), 0, [this, w, delta, after, inc, applies, pulled_at] {
        apply(*delta, clock_.staleness(pulled_at), applies);
        if (!after) answer(w, inc);
      });
      if (!evaluate) return;
      evaluate_global(static_cast<int>(w), [this, w, after, inc] {
        if (after) answer(w, inc);
      });
    });
  }

  // The answer to a push of w's incarnation `inc`: a pull, noted as one if it is sent.
  void answer(std::size_t w, std::uint32_t inc) {
    if (incarnation(w) == inc) clock_.pull(w);
    answer_push(w, inc, [this, w] { try_begin(w); });
  }

  // Applies (or buffers) an update of staleness tau; `applies`: the buffer is full with it.
  void apply(std::span<const float> delta, std::int64_t tau, bool applies) {
    const float scale = staleness_weight(weighting_, tau, exponent_);
    if (buffer_size_ == 1) {
      // ASP's and SSP's step; with the constant weight exactly the multiply of before.
      const float weight = weighting_ == StalenessWeight::kConstant ? async_update_weight()
                                                                    : async_update_weight() * scale;
      nn::axpy(weight, delta, global_model().params());
      clock_.applied();
      count_applied(1);
      return;
    }
    nn::axpy(scale, delta, buffer_);
    if (!applies) return;
    // FedBuff's server step: the mean of the buffer (Algorithm 1 divides its sum by K), times
    // the server step of async_update.
    nn::axpy(async_update_weight() / static_cast<float>(buffer_size_), buffer_,
             global_model().params());
    std::fill(buffer_.begin(), buffer_.end(), 0.0f);
    clock_.applied();
    count_applied(buffer_size_);
  }

  void restart() override {
    // The buffer was in the failed PS's memory (its arrivals counted as dropped by the skeleton).
    buffered_ = 0;
    std::fill(buffer_.begin(), buffer_.end(), 0.0f);
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
    pull(w);
  }

  std::optional<SspClocks> clocks_;
  const StalenessWeight weighting_;
  const double exponent_;
  const std::int64_t buffer_size_;  // FedBuff's K
  // Global updates applied by the PS (a buffer applied is one) and each worker's pull. Not set
  // back by a PS restored from a checkpoint: every worker pulls anew then, so a tau is still the
  // count of global updates since the pull.
  StalenessClock clock_;
  std::vector<float> buffer_;  // K > 1: the weighted arrivals not applied yet
  std::int64_t buffered_ = 0;  // arrivals counted into the buffer (at their arrival)
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
