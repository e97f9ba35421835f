// Hermes (Basani et al., HiPC 2024) on the PS/worker skeleton, as docs/paper.md ("Hermes")
// gives it.
//
// Worker: after each iteration, HermesGUP (hermes_gup.h) decides from the local test loss whether
// the progress is a major update. Major: push it, wait for the global model, continue from it.
// Minor: keep the local model and ask for the next chunk only. Every iteration reports its
// training time T_i; with dynamic allocation (on by default for Hermes) the PS resizes the chunks
// of outliers (dynamic_allocation.h, applied by the skeleton) so that every node's iteration
// approaches the first-round median.
//
// PS, on a major update from worker i (loss-weighted aggregation). L_prev is the global test loss
// of the current global model, L_i the test loss of the model "moved by the update alone"; the
// PS evaluates that candidate on the test set (a PS job), then:
//   reference variant (the released code): S_i is the sum of EVERY mini-batch gradient worker i
//     ever computed (never reset); G <- (G/L_prev + S_i/L_i) / (1/L_prev + 1/L_i), the first
//     update sets G = S_i; the global model is rebuilt from the initial weights: w = w0 - lr G,
//     and the candidate is w0 - lr S_i.
//   paper variant (a clean reading): the update is the worker's progress since its last sync,
//     D_i = w_local - w_sync; the candidate is w + D_i and the new global model is the
//     inverse-loss weighted average of w and w + D_i: w <- w + D_i (1/L_i) / (1/L_prev + 1/L_i).
// Without loss weighting both weights are 1. The new global model is evaluated (stop rule) and
// sent back to worker i only. Iterations = major updates aggregated.
//
// Under churn (docs/churn.md) the PS waits for no one, so a departure changes nothing at the PS;
// the departed worker's minor iterations since its last major update are lost with it. A worker
// that comes back is a fresh process: its GUP starts over (empty loss window, threshold back at
// alpha, no streak), its cumulative gradient sum S_i restarts at zero (the reference variant's
// S_i lived in the lost process; the PS's G keeps what earlier pushes brought), and it pulls the
// global model, which becomes its sync point. After a PS outage the PS's G is the one of its
// checkpoint (save_ps_state); the workers, whose processes did not fail, keep their GUP and S_i
// and pull the restored model.
#include <cmath>
#include <optional>

#include "models/nn/param_ops.h"
#include "models/nn/train.h"
#include "sim/policies/hermes_gup.h"
#include "sim/protocols/algorithms/factories.h"
#include "sim/protocols/algorithms/hermes_aggregation.h"

namespace hermes::protocols {

namespace {

class Hermes final : public ProtocolRun {
 public:
  Hermes(const scenario::Scenario& s, const scenario::RunSpec& r, const data::TrainTestSplit& d)
      : ProtocolRun(s, r, d),
        params_(r.hermes),
        aggregation_(params_.variant, global_model().params(),
                     static_cast<float>(s.training.learning_rate), params_.loss_weighting),
        candidate_(global_model()) {
    const std::size_t n = worker_count();
    gups_.assign(n, HermesGup(gup_params()));
    decisions_.resize(n);
    sync_.resize(n);
    if (reference()) grad_sums_.assign(n, std::vector<float>(global_model().num_params(), 0.0f));
  }

 private:
  HermesGupParams gup_params() const {
    return {params_.alpha, params_.beta, params_.lambda, params_.window};
  }
  bool reference() const { return params_.variant == scenario::HermesVariant::kReference; }

  void start() override {
    for (std::size_t w = 0; w < worker_count(); ++w) pull_then_begin(w);
  }

  // The global model goes to w, which syncs to it and begins an iteration; as the answer to a
  // push of incarnation `pushed_by` if given.
  void pull_then_begin(std::size_t w, std::optional<std::uint32_t> pushed_by = std::nullopt) {
    auto at_worker = [this, w] {
      // The sync point is read by progress() alone (the paper variant): the reference variant
      // keeps none, a model's worth per worker saved.
      if (!reference()) {
        const auto p = worker(w).model.params();
        sync_[w].assign(p.begin(), p.end());
      }
      begin_iteration(w);
    };
    if (pushed_by) {
      answer_push(w, *pushed_by, std::move(at_worker));
    } else {
      send_model(w, std::move(at_worker));
    }
  }

  // Hermes pushes S_i or its progress since the sync point, never update(w).
  bool uses_update() const override { return false; }

  std::span<float> gradient_sum(std::size_t w) override {
    return reference() ? std::span<float>(grad_sums_[w]) : std::span<float>();
  }

  void on_computed(std::size_t w) override {
    Worker& k = worker(w);
    if (params_.gup) {
      decisions_[w] = gups_[w].decide(k.last.local_test_loss);
    } else {
      decisions_[w] = GupDecision{};
      decisions_[w]->major = true;  // without GUP every iteration is pushed
    }
    if (!decisions_[w]->major) {
      begin_iteration(w);  // minor: keep the local model, ask for the next chunk only
      return;
    }
    auto sent = reference() ? buffers().copy_of(grad_sums_[w]) : progress(w);
    // The answer is for the process that pushed: w may go and come back while the PS aggregates,
    // a change of process that no failed activity reports (ProtocolRun::answer_push).
    push_update(w, *sent, [this, w, sent, inc = incarnation(w)] {
      // Loss weighting evaluates the candidate on the test set: a second evaluation per update.
      cluster::TrainingJob job{aggregation_flops(2), 0};
      if (params_.loss_weighting) {
        job.inference_flops = test_eval_flops();
        job.inference_calls = 1;
      }
      // The new model goes back at once, or after its global evaluation as the released code's
      // master does (transfers.model_after_evaluation).
      const bool after = scenario().transfers.model_after_evaluation;
      ps_job(SpanKind::kAggregate, job, [this, w, sent, after, inc] {
        aggregate(*sent);
        count_applied(1);
        if (!after) pull_then_begin(w, inc);
      });
      evaluate_global(static_cast<int>(w), [this, w, after, inc] {
        if (after) pull_then_begin(w, inc);
      });
    });
  }

  void save_ps_state() override { saved_aggregation_ = aggregation_; }
  void restore_ps_state() override { aggregation_ = saved_aggregation_.value(); }

  // The workers' processes outlived the PS: each keeps its GUP window and its S_i (which still
  // holds every gradient it computed, so its next push brings back what the rollback took from
  // G), and pulls the restored model, its new sync point.
  void restart() override {
    for (std::size_t w = 0; w < worker_count(); ++w) pull_then_begin(w);
  }

  void on_rejoined(std::size_t w) override {
    gups_[w] = HermesGup(gup_params());
    decisions_[w].reset();
    if (reference()) std::fill(grad_sums_[w].begin(), grad_sums_[w].end(), 0.0f);
    pull_then_begin(w);
  }

  // Paper variant: the worker's progress since its last sync.
  BufferPool::Buffer progress(std::size_t w) {
    auto d = buffers().copy_of(worker(w).model.params());
    nn::axpy(-1.0f, sync_[w], *d);
    return d;
  }

  void aggregate(const std::vector<float>& update) {
    aggregation_.apply(update, last_global_loss(), global_model().params(),
                       [this](std::span<const float> candidate) {
                         candidate_.set_params(candidate);
                         return evaluate_on_ps(candidate_).loss;
                       });
  }

  UpdateKind update_kind(std::size_t w) const override {
    return decisions_[w] && decisions_[w]->major ? UpdateKind::kMajor : UpdateKind::kMinor;
  }

  void annotate(std::size_t w, WorkerIterationRecord& rec) const override {
    if (!params_.gup || !decisions_[w]) return;
    rec.z_score = decisions_[w]->z;
    rec.threshold = decisions_[w]->threshold_used;
  }

  scenario::HermesParams params_;
  HermesAggregation aggregation_;  // the PS's loss-weighted aggregation (w0, G)
  std::optional<HermesAggregation> saved_aggregation_;  // as of the PS's latest checkpoint
  nn::Model candidate_;                                 // scratch model for L_i
  std::vector<HermesGup> gups_;
  std::vector<std::optional<GupDecision>> decisions_;
  std::vector<std::vector<float>> sync_;  // each worker's model at its last sync (paper variant)
  std::vector<std::vector<float>> grad_sums_;  // S_i (reference variant)
};

}  // namespace

RunResult run_hermes(const scenario::Scenario& s, const scenario::RunSpec& r,
                     const data::TrainTestSplit& d, const ProgressFn& progress,
                     parallel::ThreadPool* pool, RunObserver* observer) {
  return run_to_end(std::make_unique<Hermes>(s, r, d), progress, pool, observer);
}

}  // namespace hermes::protocols
