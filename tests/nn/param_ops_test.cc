#include "models/nn/param_ops.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace hermes::nn {
namespace {

TEST(ParamOps, Axpy) {
  const std::vector<float> x = {1, 2, 3};
  std::vector<float> y = {10, 20, 30};
  axpy(-0.5f, x, y);
  EXPECT_EQ(y, (std::vector<float>{9.5f, 19, 28.5f}));
  std::vector<float> short_y(2);
  EXPECT_THROW(axpy(1.0f, x, short_y), std::invalid_argument);
}

TEST(ParamOps, Scale) {
  std::vector<float> x = {1, -2, 4};
  scale(0.25f, x);
  EXPECT_EQ(x, (std::vector<float>{0.25f, -0.5f, 1}));
}

TEST(ParamOps, WeightedAverageOfThree) {
  const std::vector<float> a = {0, 4, 8}, b = {4, 4, 0}, c = {8, 0, 4};
  const std::span<const float> xs[3] = {a, b, c};
  const double w[3] = {1, 1, 2};
  std::vector<float> out(3);
  weighted_average(xs, w, out);
  // (a + b + 2c) / 4
  EXPECT_EQ(out, (std::vector<float>{5, 2, 4}));
}

TEST(ParamOps, WeightedAverageMayOverwriteAnInputAcrossBlocks) {
  // Hermes' G <- (G/L_prev + S/L_i) / (1/L_prev + 1/L_i), in place, longer than one block.
  const std::size_t n = 1300;
  std::vector<float> g(n), s(n);
  for (std::size_t i = 0; i < n; ++i) {
    g[i] = static_cast<float>(i);
    s[i] = static_cast<float>(2 * i);
  }
  const double l_prev = 0.5, l_i = 1.0;  // weights 2 and 1: G' = (2G + S) / 3 = 4i/3
  weighted_average(g, 1 / l_prev, s, 1 / l_i, g);
  for (std::size_t i = 0; i < n; ++i)
    EXPECT_NEAR(g[i], 4.0 * static_cast<double>(i) / 3.0, 1e-3) << i;
}

TEST(ParamOps, WeightedAverageRejectsBadInput) {
  const std::vector<float> a = {1, 2}, b = {3};
  std::vector<float> out(2);
  EXPECT_THROW(weighted_average(a, 1.0, b, 1.0, out), std::invalid_argument);
  EXPECT_THROW(weighted_average(a, 0.0, a, 0.0, out), std::invalid_argument);
  EXPECT_THROW(weighted_average(a, 1.0, a, std::nan(""), out), std::invalid_argument);
}

}  // namespace
}  // namespace hermes::nn
