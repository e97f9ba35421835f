// HermesGUP decision rule; the rule and every choice are documented in hermes_gup.h.
#include "sim/policies/hermes_gup.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <string>

#include "base/diagnostics.h"
#include "base/enum_text.h"

namespace hermes::protocols {

std::string_view to_string(GupReason reason) {
  constexpr std::array<std::string_view, 5> kTexts{"first-in-window", "zero-std", "non-finite-loss",
                                                   "above-threshold", "at-or-below-threshold"};
  static_assert(kTexts.size() == enum_count(GupReason::kAtOrBelowThreshold));
  return enum_text(reason, kTexts);
}

namespace {

void check_params(const HermesGupParams& p) {
  // Every problem in one message, one per line (the scenario layer adds the JSON path).
  std::string errors;
  auto bad = [&](const char* field, const char* accepted, double got) {
    std::ostringstream os;
    os << "HermesGUP " << field << " must be " << accepted << ", got " << got;
    errors += os.str() + '\n';
  };
  if (!std::isfinite(p.alpha) || !(p.alpha < 0)) bad("alpha", "a finite number < 0", p.alpha);
  if (!(p.beta >= 0 && p.beta < 1)) bad("beta", "in [0, 1)", p.beta);
  if (p.lambda < 1) bad("lambda", "an integer >= 1", p.lambda);
  if (p.window < 2) bad("window", "an integer >= 2", p.window);
  if (!errors.empty()) throw InputError(errors);
}

}  // namespace

HermesGup::HermesGup(const HermesGupParams& params) : params_(params), threshold_(params.alpha) {
  check_params(params_);
}

GupDecision HermesGup::decide(double local_test_loss) {
  GupDecision d;
  d.threshold_used = threshold_;

  if (!std::isfinite(local_test_loss)) {
    d.reason = GupReason::kNonFiniteLoss;
  } else {
    window_.push_back(local_test_loss);
    if (window_.size() > static_cast<std::size_t>(params_.window)) window_.pop_front();
    d.window_size = window_.size();
    if (window_.size() == 1) {
      d.reason = GupReason::kFirstInWindow;
    } else {
      const double n = static_cast<double>(window_.size());
      double sum = 0;
      for (double x : window_) sum += x;
      const double mean = sum / n;
      double sq = 0;
      for (double x : window_) sq += (x - mean) * (x - mean);
      const double stddev = std::sqrt(sq / n);
      d.mean = mean;
      const auto [lo, hi] = std::minmax_element(window_.begin(), window_.end());
      if (*lo == *hi) {
        d.stddev = 0.0;
        d.reason = GupReason::kZeroStd;
      } else {
        d.stddev = stddev;
        d.z = (local_test_loss - mean) / stddev;
        d.major = *d.z <= threshold_;
        d.reason = d.major ? GupReason::kAtOrBelowThreshold : GupReason::kAboveThreshold;
      }
    }
  }

  if (d.major) {
    window_.clear();
    streak_ = 0;
  } else {
    ++streak_;
    if (streak_ >= params_.lambda) threshold_ = std::min(0.0, threshold_ * (1.0 - params_.beta));
  }
  d.threshold_after = threshold_;
  d.minor_streak = streak_;
  return d;
}

}  // namespace hermes::protocols
