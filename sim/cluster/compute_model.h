// Compute-time model: how long a node takes to run a training job at full speed, and the seeded
// multiplicative jitter around it. The per-profile numbers (GFLOP/s, per-step overhead, jitter CV)
// are data in scenarios/profiles/azure.json; this file only holds the formulas.
#pragma once

#include <cstdint>

#include "base/random.h"
#include "sim/cluster/profile.h"

namespace hermes::cluster {

// One unit of work handed to a node: `steps` optimiser steps totalling `flops` FLOPs (including
// any evaluation pass that belongs to the same job), plus `inference_calls` large-batch inference
// calls totalling `inference_flops` FLOPs (the PS's test-set evaluation: one forward pass over the
// whole test set, which runs far nearer the GEMM rate than batch-16 training). The FLOPs are
// counted by whoever builds the job (the protocols count them from the model, models/nn); this
// module only turns them into time.
struct TrainingJob {
  double flops = 0;
  std::int64_t steps = 0;
  double inference_flops = 0;
  std::int64_t inference_calls = 0;
};

// steps * step_overhead + flops / (gflops * 1e9)
//   + inference_calls * eval_overhead + inference_flops / (inference rate * 1e9),
// in seconds, without jitter. The inference rate is spec.inference_gflops, or gflops when unset.
double full_speed_seconds(const ComputeSpec& spec, const TrainingJob& job);
double full_speed_seconds(const ComputeSpec& spec, double flops, std::int64_t steps);

// Log-normal multiplicative jitter with mean exactly 1 and coefficient of variation cv:
// sigma^2 = ln(1 + cv^2), mu = -sigma^2 / 2, so E[exp(N(mu, sigma))] = exp(mu + sigma^2/2) = 1 and
// Var/mean^2 = exp(sigma^2) - 1 = cv^2. Log-normal keeps durations positive and right-skewed, as
// measured step times are (a slow outlier is likelier than an equally fast one).
class ComputeJitter {
 public:
  explicit ComputeJitter(double cv);  // cv >= 0; 0 => every draw is exactly 1
  double draw(RandomStream& rng) const;
  double cv() const { return cv_; }
  double mu() const { return mu_; }
  double sigma() const { return sigma_; }

 private:
  double cv_;
  double mu_ = 0;
  double sigma_ = 0;
};

}  // namespace hermes::cluster
