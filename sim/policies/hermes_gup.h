// HermesGUP, the worker-side generalized update policy (docs/paper.md, "Hermes",
// worker iteration steps 4-6). After every local iteration the worker
// decides from its local test loss L whether the update is major (push to the PS, pull the global
// model) or minor (keep training locally). A pure state machine: no time, network or model.
//
// The rule, step by step, for decide(L):
//   1. L is pushed into a window of the last w losses (the window includes L; the oldest value is
//      dropped beyond w).
//   2. With one element in the window: minor. Otherwise z = (L - mean) / std over the window,
//      with the POPULATION std (numpy's default ddof = 0). std == 0: minor.
//   3. Major iff z <= z_thres (the threshold in force before this decision).
//   4. Major: clear the window (L included) and reset the minor streak. z_thres is NOT reset.
//   5. Minor: streak += 1; then, if streak >= lambda, z_thres <- min(0, z_thres * (1 - beta)).
// Choices where the spec is silent or ambiguous:
//   - Decay start. "once streak >= lambda, on every further minor update z_thres decays" is read
//     as the code order "streak += 1; if streak >= lambda: decay": the minor update at which the
//     streak reaches lambda already decays (lambda = 5: the 5th, 6th, ... consecutive minor
//     updates each decay once). The threshold used by a decision is always the one before it.
//   - std == 0 means all values of the window are equal: it is detected exactly (max == min), not
//     from the computed std, because a window of equal values can give a std of ~1e-17 in floating
//     point (e.g. numpy on [0.1, 0.1, 0.1]) and so a spurious z of +-1.
//   - mean and std are computed in double, two-pass (mean first, then the mean squared deviation),
//     which does not cancel catastrophically like the sum-of-squares formula.
//   - A non-finite loss (NaN, +-inf: a diverged local model) is a minor update that is NOT pushed
//     into the window: the window keeps its finite losses, z is not computed, and the streak and
//     the decay advance as for any minor update. (The Python reference would push it and poison
//     the window: every later z would be NaN, i.e. minor forever.) Detecting divergence and
//     stopping is the caller's job.
//   - The threshold never rises above 0: alpha < 0 and 0 < 1 - beta <= 1 keep it negative, and the
//     min(0, .) of the rule is applied anyway.
#pragma once

#include <cstddef>
#include <deque>
#include <optional>
#include <string_view>

#include "sim/policies/gup_defaults.h"

namespace hermes::protocols {

// Defaults: the reference's, shared with the scenario schema (gup_defaults.h).
struct HermesGupParams {
  double alpha = gup_defaults::kAlpha;  // initial z_thres, finite and < 0
  double beta = gup_defaults::kBeta;    // threshold decay, in [0, 1)
  int lambda = gup_defaults::kLambda;   // minor streak before the decay starts, >= 1
  int window = gup_defaults::kWindow;   // number of losses kept, >= 2
};

enum class GupReason {
  kFirstInWindow,       // one element in the window: minor
  kZeroStd,             // all losses in the window equal: minor
  kNonFiniteLoss,       // NaN/inf loss, not pushed: minor
  kAboveThreshold,      // z > z_thres: minor
  kAtOrBelowThreshold,  // z <= z_thres: major
};
std::string_view to_string(GupReason reason);

struct GupDecision {
  bool major = false;
  GupReason reason = GupReason::kFirstInWindow;
  std::optional<double> z;       // set only when computed (>= 2 elements and std > 0)
  std::optional<double> mean;    // over the window including L, when >= 2 elements
  std::optional<double> stddev;  // population std, when >= 2 elements
  std::size_t window_size = 0;   // elements the decision looked at (L included; before a clear)
  double threshold_used = 0;     // z_thres compared against
  double threshold_after = 0;    // z_thres after the decision (decayed or not)
  int minor_streak = 0;          // after the decision: 0 after a major update
};

class HermesGup {
 public:
  // Throws hermes::InputError naming the field and the accepted range.
  explicit HermesGup(const HermesGupParams& params);
  HermesGup(double alpha, double beta, int lambda, int window)
      : HermesGup(HermesGupParams{alpha, beta, lambda, window}) {}

  GupDecision decide(double local_test_loss);

  double threshold() const { return threshold_; }
  int minor_streak() const { return streak_; }
  const std::deque<double>& window() const { return window_; }  // oldest first
  const HermesGupParams& params() const { return params_; }

 private:
  HermesGupParams params_;
  double threshold_;
  int streak_ = 0;
  std::deque<double> window_;
};

}  // namespace hermes::protocols
