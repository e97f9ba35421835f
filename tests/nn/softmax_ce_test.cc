// Fused softmax + cross-entropy: hand values, extreme logits, gradient check.
#include "models/nn/softmax_ce.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "tests/nn/grad_check.h"

namespace hermes::nn {
namespace {

TEST(SoftmaxCe, UniformLogitsGiveLogClassesAndThirds) {
  const std::vector<float> z = {0, 0, 0};
  const std::uint8_t label = 1;
  std::vector<float> g(3);
  const SoftmaxCeResult r = softmax_cross_entropy(z.data(), &label, 3, 1, g.data(), 1.0f);
  EXPECT_NEAR(r.loss_sum, std::log(3.0), 1e-6);
  EXPECT_NEAR(g[0], 1.0 / 3, 1e-6);
  EXPECT_NEAR(g[1], -2.0 / 3, 1e-6);
  EXPECT_NEAR(g[2], 1.0 / 3, 1e-6);
  EXPECT_EQ(r.correct, 0);  // ties go to the first class
}

TEST(SoftmaxCe, HandComputedTwoSampleBatch) {
  // Sample 0: z = (1, 2), label 1; sample 1: z = (3, 0), label 1. grad_scale 1/2.
  const std::vector<double> z = {1, 2, 3, 0};
  const std::uint8_t labels[2] = {1, 1};
  std::vector<double> g(4);
  const SoftmaxCeResult r = softmax_cross_entropy(z.data(), labels, 2, 2, g.data(), 0.5);
  const double l0 = std::log(std::exp(1.0) + std::exp(2.0)) - 2.0;
  const double l1 = std::log(std::exp(3.0) + 1.0) - 0.0;
  EXPECT_NEAR(r.loss_sum, l0 + l1, 1e-12);
  EXPECT_EQ(r.correct, 1);
  const double p0 = std::exp(1.0) / (std::exp(1.0) + std::exp(2.0));
  EXPECT_NEAR(g[0], 0.5 * p0, 1e-12);
  EXPECT_NEAR(g[1], 0.5 * (1 - p0 - 1), 1e-12);
}

TEST(SoftmaxCe, StableForLogitsOfPlusMinus1000) {
  // Two classes, three samples: (1000,-1000), (0,-1000), (-1000,1000).
  const std::vector<float> z = {1000, -1000, 0, -1000, -1000, 1000};
  const std::uint8_t labels[3] = {1, 0, 0};
  std::vector<float> g(6);
  SoftmaxCeResult r = softmax_cross_entropy(z.data(), labels, 2, 3, g.data(), 1.0f);
  // losses: (1000,-1000) label 1 -> 2000; (0,-1000) label 0 -> log(1+e^-1000) = 0;
  //         (-1000,1000) label 0 -> 2000.
  EXPECT_TRUE(std::isfinite(r.loss_sum));
  EXPECT_NEAR(r.loss_sum, 4000.0, 1e-3);
  EXPECT_EQ(r.correct, 1);
  EXPECT_EQ(g, (std::vector<float>{1, -1, 0, 0, -1, 1}));
  // Three classes, all logits -1000 -> loss log 3; all +1000 -> log 3.
  const std::vector<float> same = {-1000, -1000, -1000, 1000, 1000, 1000};
  r = softmax_cross_entropy(same.data(), labels, 3, 2, g.data(), 1.0f);
  EXPECT_NEAR(r.loss_sum, 2 * std::log(3.0), 1e-6);
}

TEST(SoftmaxCe, RejectsLabelOutOfRange) {
  const std::vector<float> z = {0, 0};
  const std::uint8_t label = 2;
  EXPECT_THROW(softmax_cross_entropy(z.data(), &label, 2, 1, static_cast<float*>(nullptr), 1.0f),
               std::out_of_range);
}

TEST(SoftmaxCe, GradientCheck) {
  RandomStream rng(11, 0);
  const int classes = 5, n = 4;
  std::vector<double> z = testing::random_vector(classes * n, rng, -3, 3);
  const std::uint8_t labels[n] = {0, 4, 2, 2};
  std::vector<double> g(z.size());
  softmax_cross_entropy(z.data(), labels, classes, n, g.data(), 1.0 / n);
  auto loss = [&] {
    return softmax_cross_entropy(z.data(), labels, classes, n, static_cast<double*>(nullptr), 0.0)
               .loss_sum /
           n;
  };
  for (std::size_t i = 0; i < z.size(); ++i) {
    const double num = testing::numeric_derivative(loss, z[i]);
    EXPECT_TRUE(testing::close(g[i], num)) << i << ": " << g[i] << " vs " << num;
  }
}

}  // namespace
}  // namespace hermes::nn
