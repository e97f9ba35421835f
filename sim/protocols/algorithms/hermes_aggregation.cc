#include "sim/protocols/algorithms/hermes_aggregation.h"

#include <algorithm>
#include <cmath>

#include "models/nn/param_ops.h"

namespace hermes::protocols {

HermesAggregation::HermesAggregation(scenario::HermesVariant variant, std::span<const float> w0,
                                     float lr, bool loss_weighting)
    : variant_(variant),
      w0_(w0.begin(), w0.end()),
      lr_(lr),
      loss_weighting_(loss_weighting),
      candidate_(w0.size()) {}

HermesAggregation::Weights HermesAggregation::apply(std::span<const float> update,
                                                    std::optional<double> l_prev,
                                                    std::span<float> global,
                                                    const CandidateLoss& candidate_loss) {
  const bool reference = variant_ == scenario::HermesVariant::kReference;
  // The candidate: the model moved by this update alone (the paper variant averages with it).
  if (reference) {
    std::copy(w0_.begin(), w0_.end(), candidate_.begin());
    nn::axpy(-lr_, update, candidate_);
  } else {
    std::copy(global.begin(), global.end(), candidate_.begin());
    nn::axpy(1.0f, update, candidate_);
  }
  Weights w;
  if (loss_weighting_) {
    const double l_i = candidate_loss(candidate_);
    // A diverged candidate gets no weight; the stop rule sees the divergence if it persists.
    w.previous = 1.0 / l_prev.value_or(l_i);
    w.update = std::isfinite(l_i) && l_i > 0 ? 1.0 / l_i : 0.0;
  }
  if (reference) {
    if (aggregate_.empty()) {
      aggregate_.assign(update.begin(), update.end());
    } else {
      nn::weighted_average(aggregate_, w.previous, update, w.update, aggregate_);
    }
    std::copy(w0_.begin(), w0_.end(), global.begin());
    nn::axpy(-lr_, aggregate_, global);
  } else {
    nn::weighted_average(global, w.previous, candidate_, w.update, global);
  }
  return w;
}

}  // namespace hermes::protocols
