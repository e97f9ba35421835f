// Compute-time formula and the log-normal jitter.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "sim/cluster/compute_model.h"

namespace hermes::cluster {
namespace {

TEST(ComputeModel, FullSpeedTimeIsExact) {
  ComputeSpec spec;
  spec.gflops = 2.0;
  spec.step_overhead_us = 500;
  // 100 steps x 0.5 ms + 4e9 / 2e9 = 0.05 + 2 = 2.05 s.
  EXPECT_DOUBLE_EQ(full_speed_seconds(spec, 4e9, 100), 2.05);
  EXPECT_DOUBLE_EQ(full_speed_seconds(spec, TrainingJob{4e9, 100}), 2.05);
  EXPECT_DOUBLE_EQ(full_speed_seconds(spec, 0, 0), 0.0);
  EXPECT_THROW(full_speed_seconds(spec, -1, 1), std::invalid_argument);
  EXPECT_THROW(full_speed_seconds(spec, 1, -1), std::invalid_argument);
  spec.gflops = 0;
  EXPECT_THROW(full_speed_seconds(spec, 1, 1), std::invalid_argument);
}

// An inference call (the PS's test-set evaluation) runs at inference_gflops plus its own
// overhead; a profile without inference_gflops charges it at the training rate.
TEST(ComputeModel, InferenceRunsAtItsOwnRateAndOverhead) {
  ComputeSpec spec;
  spec.gflops = 2.0;
  spec.step_overhead_us = 500;
  const TrainingJob eval{0, 0, 3e9, 1};
  EXPECT_DOUBLE_EQ(full_speed_seconds(spec, eval), 1.5);  // unset: 3e9 / 2e9, no overhead
  spec.inference_gflops = 30.0;
  spec.eval_overhead_us = 20000;
  EXPECT_DOUBLE_EQ(full_speed_seconds(spec, eval), 0.02 + 0.1);
  // With training work in the same job, both parts add up.
  EXPECT_DOUBLE_EQ(full_speed_seconds(spec, TrainingJob{4e9, 100, 3e9, 1}), 2.05 + 0.12);
  EXPECT_THROW(full_speed_seconds(spec, TrainingJob{0, 0, -1, 1}), std::invalid_argument);
  EXPECT_THROW(full_speed_seconds(spec, TrainingJob{0, 0, 1, -1}), std::invalid_argument);
}

TEST(ComputeJitter, ParametersGiveMeanOneAndTheCv) {
  const ComputeJitter j(0.04);
  // sigma^2 = ln(1.0016), mu = -sigma^2 / 2.
  EXPECT_NEAR(j.sigma() * j.sigma(), std::log(1.0016), 1e-16);
  EXPECT_NEAR(j.mu(), -0.5 * std::log(1.0016), 1e-16);
  EXPECT_DOUBLE_EQ(std::exp(j.mu() + 0.5 * j.sigma() * j.sigma()), 1.0);
  EXPECT_NEAR(std::sqrt(std::exp(j.sigma() * j.sigma()) - 1.0), 0.04, 1e-15);
  EXPECT_THROW(ComputeJitter(-0.1), std::invalid_argument);
}

TEST(ComputeJitter, ZeroCvIsExactlyOne) {
  const ComputeJitter j(0.0);
  RandomStream rng(1, 2);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(j.draw(rng), 1.0);
  EXPECT_EQ(rng.draws(), 0u);
}

TEST(ComputeJitter, SampleMeanAndCvOver20kDraws) {
  const ComputeJitter j(0.05);
  RandomStream rng = RandomStream::named(42, "compute-jitter", 0);
  const int n = 20'000;
  double sum = 0, sum_sq = 0, lo = 10, hi = 0;
  for (int i = 0; i < n; ++i) {
    const double x = j.draw(rng);
    sum += x;
    sum_sq += x * x;
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  const double mean = sum / n;
  const double cv = std::sqrt(sum_sq / n - mean * mean) / mean;
  // Standard errors: mean 0.05 / sqrt(2e4) = 3.5e-4; CV ~ 0.05 / sqrt(4e4) = 2.5e-4.
  EXPECT_NEAR(mean, 1.0, 1.5e-3);
  EXPECT_NEAR(cv, 0.05, 1.5e-3);
  EXPECT_GT(lo, 0.0);
  EXPECT_LT(hi, 1.5);  // > 8 sigma above the mean: never with a sane generator
}

TEST(ComputeJitter, DeterministicPerSeedAndStream) {
  const ComputeJitter j(0.04);
  RandomStream a(7, 3), b(7, 3), c(8, 3);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const double x = j.draw(a);
    EXPECT_EQ(x, j.draw(b));
    differs = differs || x != j.draw(c);
  }
  EXPECT_TRUE(differs);
}

}  // namespace
}  // namespace hermes::cluster
