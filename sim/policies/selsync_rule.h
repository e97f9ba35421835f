// SelSync's per-step decision (docs/selsync.md): Tyagi and Swany, "Accelerating Distributed ML
// Training via Selective Synchronization", IEEE CLUSTER 2023, arXiv 2307.07950, and the authors'
// released code (GitHub sahiltyagi4/SelSync, selsync_py3/selsync/selsync_imgclassifier.py and
// helper/helper_fns.py). Each worker, after computing the gradient of its mini-batch:
//   1. smooths the gradient's norm: nbar_t = windowed EWMA of the last `window` norms;
//   2. takes its relative change Delta_t = |nbar_t - nbar_{t-1}| / nbar_{t-1};
//   3. smooths that: Dbar_t = windowed EWMA of the last `window` values of Delta;
//   4. asks for a synchronisation if Dbar_t >= delta, or while Dbar_t is not defined yet (the
//      warm-up: the released code syncs while its step count is below the window).
// The workers' asks are OR-ed (the released code all-reduces the flags with a sum and syncs if it
// is > 0): that is the protocol's business (sim/protocols/algorithms/selsync.cc), not this rule's.
// Pure: no simulator, no time, no I/O.
//
// The windowed EWMA is the released code's "custom_ewma" (EWMAMeter): over the last W values, the
// k-th newest (k = 1 .. W) weighs (1 - alpha)^k, normalised by the sum of the weights; it has no
// value until W values were seen. (Its common factor 1 - alpha cancels; here the k-th newest
// weighs (1 - alpha)^(k-1).) window 1 is no smoothing.
// Choices where the sources leave it open:
//   - The warm-up lasts until Dbar exists, i.e. the first 2 window - 1 steps sync (window norms
//     for nbar, one more nbar for Delta, window Delta for Dbar). The released code reads a 0 from
//     its meter before that (and divides by it: its first steps fail as published).
//   - nbar_{t-1} = 0: Delta = 0 if nbar_t = 0 too, else +infinity (a change from nothing is as
//     significant as it gets).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>

namespace hermes::protocols {

namespace selsync_defaults {
// delta: every launch script of the released code (scripts/selsync_*.sh, for ResNet101, VGG11,
// AlexNet and the Transformer) passes --delta-threshold 0.3 (docs/selsync.md: what the paper's
// text says of delta could not be read here; 0.3 is the value its code runs with).
inline constexpr double kDelta = 0.3;
// The EWMA's alpha: --smoothing 0.01 in every launch script (the code's default too).
inline constexpr double kSmoothing = 0.01;
// The EWMA's window: --windowsize 25 in every launch script (the code's default too).
inline constexpr int kWindow = 25;
}  // namespace selsync_defaults

struct SelSyncParams {
  double delta = selsync_defaults::kDelta;  // threshold on the smoothed relative change, >= 0
  double smoothing = selsync_defaults::kSmoothing;  // the windowed EWMA's alpha, in [0, 1)
  int window = selsync_defaults::kWindow;           // values the windowed EWMA spans, >= 1
};

// The released code's windowed EWMA (see above).
class WindowedEwma {
 public:
  // window >= 1, alpha in [0, 1); otherwise std::invalid_argument.
  WindowedEwma(int window, double alpha);
  void push(double x);
  // The weighted mean of the last `window` values; nullopt until that many were pushed.
  std::optional<double> value() const { return value_; }

 private:
  std::size_t window_;
  double keep_;              // 1 - alpha
  std::deque<double> last_;  // newest at the back
  std::optional<double> value_;
};

// One step's reading of the rule (for workers.csv and tests).
struct SelSyncStep {
  bool sync = true;                       // this worker asks for a synchronisation
  std::optional<double> smoothed_norm;    // nbar_t
  std::optional<double> change;           // Delta_t
  std::optional<double> smoothed_change;  // Dbar_t; nullopt: warm-up
};

// One worker's rule: feed it the norm of each step's gradient, in order.
class SelSyncRule {
 public:
  // Parameters outside their ranges (SelSyncParams): std::invalid_argument.
  explicit SelSyncRule(const SelSyncParams& params);
  SelSyncStep observe(double gradient_norm);
  const SelSyncParams& params() const { return params_; }
  std::int64_t steps() const { return steps_; }

 private:
  SelSyncParams params_;
  WindowedEwma norm_;
  WindowedEwma change_;
  std::optional<double> previous_norm_;  // nbar_{t-1}
  std::int64_t steps_ = 0;
};

// Delta = |now - before| / before, with the convention above for before = 0.
double relative_change(double before, double now);

}  // namespace hermes::protocols
