// The worker optimiser's momentum and weight decay (Model::sgd_step; docs/optimizer.md): PyTorch's
// torch.optim.SGD step, checked against a hand computation in exactly representable numbers.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <span>
#include <vector>

#include "models/nn/train.h"
#include "models/nn/zoo.h"
#include "tests/nn/synthetic_data.h"

namespace hermes::nn {
namespace {

Model small() { return make_model(mlp_spec({1, 3, 3}, 3), 9); }

void fill(std::span<float> s, float v) { std::fill(s.begin(), s.end(), v); }

// d = g + wd p; v = mu v + d; p -= lr v, with lr 0.25, mu 0.5, wd 0.5:
//   p0 = 1:  d = 0.5 + 0.5 = 1, v = 1, p1 = 0.75;
//            then g = -0.25: d = -0.25 + 0.375 = 0.125, v = 0.5 + 0.125 = 0.625,
//            p2 = 0.75 - 0.15625 = 0.59375.
//   p0 = -2: d = 0.5 - 1 = -0.5, v = -0.5, p1 = -1.875;
//            then d = -0.25 - 0.9375 = -1.1875, v = -0.25 - 1.1875 = -1.4375,
//            p2 = -1.875 + 0.359375 = -1.515625.
TEST(Momentum, TwoStepsAreTheHandComputedOnes) {
  for (const auto& [p0, p1, p2, v2] :
       {std::array<float, 4>{1.0f, 0.75f, 0.59375f, 0.625f},
        std::array<float, 4>{-2.0f, -1.875f, -1.515625f, -1.4375f}}) {
    Model m = small();
    fill(m.params(), p0);
    fill(m.grads(), 0.5f);
    m.sgd_step(0.25f, 0.5f, 0.5f);
    for (const float p : m.params()) ASSERT_EQ(p, p1) << p0;
    fill(m.grads(), -0.25f);
    m.sgd_step(0.25f, 0.5f, 0.5f);
    for (const float p : m.params()) ASSERT_EQ(p, p2) << p0;
    ASSERT_EQ(m.velocity().size(), m.num_params());
    for (const float v : m.velocity()) ASSERT_EQ(v, v2) << p0;
  }
}

// Weight decay alone: p -= lr (g + wd p), no velocity kept.
TEST(Momentum, WeightDecayWithoutMomentum) {
  Model m = small();
  fill(m.params(), 2.0f);
  fill(m.grads(), 0.5f);
  m.sgd_step(0.25f, 0.0f, 0.25f);  // 2 - 0.25 (0.5 + 0.5) = 1.75
  for (const float p : m.params()) ASSERT_EQ(p, 1.75f);
  EXPECT_TRUE(m.velocity().empty());
}

// Momentum 0 and weight decay 0 is plain SGD, bit for bit.
TEST(Momentum, ZeroIsPlainSgd) {
  const data::Dataset ds = testing::blobs(1, 3, 3, 3, 40, 0.2, 4);
  Model a = small();
  Model b = a;
  const auto idx = testing::iota(40);
  train_epochs(a, ds, idx, 2, 8, 0.1f);
  train_epochs(b, ds, idx, 2, 8, Sgd{.lr = 0.1f});
  EXPECT_TRUE(std::equal(a.params().begin(), a.params().end(), b.params().begin()));
  EXPECT_TRUE(b.velocity().empty());
  Model c = small();
  train_epochs(c, ds, idx, 2, 8, Sgd{.lr = 0.1f, .momentum = 0.9f});
  EXPECT_FALSE(std::equal(a.params().begin(), a.params().end(), c.params().begin()));
}

// The velocity is the worker's: a pulled model (set_params) keeps it, a restarted worker
// (reset_velocity) starts from 0.
TEST(Momentum, VelocityOutlivesAPullNotARestart) {
  Model m = small();
  fill(m.params(), 1.0f);
  fill(m.grads(), 1.0f);
  m.sgd_step(0.25f, 0.5f, 0.0f);  // v = 1
  const std::vector<float> ones(m.num_params(), 1.0f);
  m.set_params(ones);
  fill(m.grads(), 0.0f);
  m.sgd_step(0.25f, 0.5f, 0.0f);  // v = 0.5, p = 1 - 0.125
  for (const float p : m.params()) ASSERT_EQ(p, 0.875f);
  m.reset_velocity();
  m.set_params(ones);
  m.sgd_step(0.25f, 0.5f, 0.0f);  // v = 0: p stays
  for (const float p : m.params()) ASSERT_EQ(p, 1.0f);
}

}  // namespace
}  // namespace hermes::nn
