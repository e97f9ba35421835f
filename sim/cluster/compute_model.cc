#include "sim/cluster/compute_model.h"

#include <cmath>
#include <stdexcept>

#include "base/portable_math.h"

namespace hermes::cluster {

double full_speed_seconds(const ComputeSpec& spec, double flops, std::int64_t steps) {
  if (!(spec.gflops > 0) || !(spec.step_overhead_us >= 0)) {
    throw std::invalid_argument("full_speed_seconds: gflops must be > 0 and overhead >= 0");
  }
  if (!(flops >= 0) || !std::isfinite(flops) || steps < 0) {
    throw std::invalid_argument("full_speed_seconds: flops and steps must be finite and >= 0");
  }
  return static_cast<double>(steps) * spec.step_overhead_us * 1e-6 + flops / (spec.gflops * 1e9);
}

double full_speed_seconds(const ComputeSpec& spec, const TrainingJob& job) {
  const double training = full_speed_seconds(spec, job.flops, job.steps);
  if (job.inference_calls == 0 && job.inference_flops == 0) return training;
  if (!(job.inference_flops >= 0) || !std::isfinite(job.inference_flops) ||
      job.inference_calls < 0) {
    throw std::invalid_argument(
        "full_speed_seconds: inference flops and calls must be finite and >= 0");
  }
  if (!(spec.inference_gflops >= 0) || !(spec.eval_overhead_us >= 0)) {
    throw std::invalid_argument(
        "full_speed_seconds: inference_gflops and eval_overhead_us must be >= 0");
  }
  return training + static_cast<double>(job.inference_calls) * spec.eval_overhead_us * 1e-6 +
         job.inference_flops / (inference_rate_gflops(spec) * 1e9);
}

ComputeJitter::ComputeJitter(double cv) : cv_(cv) {
  if (!(cv >= 0) || !std::isfinite(cv)) {
    throw std::invalid_argument("ComputeJitter: cv must be finite and >= 0");
  }
  const double sigma2 = portable::log1p(cv * cv);  // not libm's: host-independent bits
  sigma_ = std::sqrt(sigma2);
  mu_ = -0.5 * sigma2;
}

double ComputeJitter::draw(RandomStream& rng) const {
  // cv == 0 must not consume randomness nor be perturbed by exp(0 * z) rounding.
  if (cv_ == 0) return 1.0;
  return rng.lognormal(mu_, sigma_);
}

}  // namespace hermes::cluster
