// SelSync's decision rule; the rule, its sources and its choices are in selsync_rule.h.
#include "sim/policies/selsync_rule.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace hermes::protocols {

WindowedEwma::WindowedEwma(int window, double alpha)
    : window_(static_cast<std::size_t>(window)), keep_(1.0 - alpha) {
  if (window < 1) {
    throw std::invalid_argument("SelSync: the smoothing window must be >= 1, got " +
                                std::to_string(window));
  }
  if (!(alpha >= 0.0 && alpha < 1.0)) {
    throw std::invalid_argument("SelSync: the smoothing factor must be in [0, 1), got " +
                                std::to_string(alpha));
  }
}

void WindowedEwma::push(double x) {
  last_.push_back(x);
  if (last_.size() > window_) last_.pop_front();
  if (last_.size() < window_) return;
  // Newest first: weights 1, keep, keep^2, ... (the released code's (1 - alpha)^k up to the
  // common factor).
  double sum = 0;
  double weights = 0;
  double weight = 1;
  for (auto it = last_.rbegin(); it != last_.rend(); ++it) {
    sum += weight * *it;
    weights += weight;
    weight *= keep_;
  }
  value_ = sum / weights;
}

double relative_change(double before, double now) {
  if (before == 0.0) return now == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
  return std::abs(now - before) / before;
}

SelSyncRule::SelSyncRule(const SelSyncParams& params)
    : params_(params),
      norm_(params.window, params.smoothing),
      change_(params.window, params.smoothing) {
  if (!(params.delta >= 0.0)) {
    throw std::invalid_argument("SelSync: the threshold delta must be >= 0, got " +
                                std::to_string(params.delta));
  }
}

SelSyncStep SelSyncRule::observe(double gradient_norm) {
  ++steps_;
  SelSyncStep step;
  norm_.push(gradient_norm);
  step.smoothed_norm = norm_.value();
  if (step.smoothed_norm) {
    if (previous_norm_) {
      step.change = relative_change(*previous_norm_, *step.smoothed_norm);
      change_.push(*step.change);
      step.smoothed_change = change_.value();
    }
    previous_norm_ = step.smoothed_norm;
  }
  step.sync = !step.smoothed_change || *step.smoothed_change >= params_.delta;
  return step;
}

}  // namespace hermes::protocols
