// Model: parameter counts, FLOP counts, initialisation, flat buffers, full-model gradients.
#include "models/nn/model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "base/diagnostics.h"
#include "models/data/dataset.h"
#include "models/nn/zoo.h"
#include "tests/nn/grad_check.h"

namespace hermes::nn {
namespace {

// The largest |w| among a model's first n parameters (a layer's weights come first).
double largest_abs(const Model& m, std::size_t n) {
  double largest = 0.0;
  for (std::size_t i = 0; i < n; ++i) largest = std::max(largest, double(std::abs(m.params()[i])));
  return largest;
}

TEST(Zoo, MlpHasThePapersParameterCount) {
  const Model m(mlp_spec());
  EXPECT_EQ(m.num_params(), 109386u);  // 784*128+128 + 128*64+64 + 64*10+10
  EXPECT_EQ(m.params().size(), 109386u);
  EXPECT_EQ(m.grads().size(), 109386u);
  ASSERT_EQ(m.num_layers(), 6u);
  EXPECT_EQ(m.param_offset(1), 0u);
  EXPECT_EQ(m.param_offset(3), 100480u);  // after dense 784->128
  EXPECT_EQ(m.param_offset(5), 100480u + 8256u);
}

TEST(Zoo, CnnParameterCountAndShapes) {
  const Model m(cnn_spec());
  EXPECT_EQ(m.num_params(), 167562u);  // 896 + 18496 + 147520 + 650
  EXPECT_EQ(m.layer(0).out_shape(), (Shape{32, 30, 30, Layout::kHWC}));
  EXPECT_EQ(m.layer(2).out_shape(), (Shape{32, 15, 15, Layout::kHWC}));
  EXPECT_EQ(m.layer(3).out_shape(), (Shape{64, 13, 13, Layout::kHWC}));
  EXPECT_EQ(m.layer(5).out_shape(), (Shape{64, 6, 6, Layout::kHWC}));
  EXPECT_EQ(m.layer(6).out_shape().size(), 2304u);
}

TEST(Zoo, FlopCountsMatchHandCount) {
  const Model mlp(mlp_spec());
  // Forward: 2 * (784*128 + 128*64 + 64*10) multiply-adds + 202 bias adds.
  EXPECT_DOUBLE_EQ(mlp.flops_forward_per_sample(), 218570.0);
  // + backward: the same for dW and db, + dX of the two upper dense layers 2*(128*64 + 64*10).
  EXPECT_DOUBLE_EQ(mlp.flops_train_per_sample(), 454804.0);
  EXPECT_DOUBLE_EQ(mlp.flops_update_per_step(), 2.0 * 109386);
  const Model cnn(cnn_spec());
  EXPECT_DOUBLE_EQ(cnn.flops_forward_per_sample(), 8121098.0);
  EXPECT_DOUBLE_EQ(cnn.flops_train_per_sample(), 22768404.0);
}

TEST(Zoo, SpecsByNameFollowTheDataset) {
  data::Dataset mnist;
  mnist.channels = 1;
  mnist.height = 28;
  mnist.width = 28;
  EXPECT_EQ(Model(model_spec("mlp", mnist)).num_params(), 109386u);
  // CNN on 1x28x28: 26 -> 13 -> 11 -> 5: 320 + 18496 + (1600*64+64) + 650.
  EXPECT_EQ(Model(model_spec("cnn", mnist)).num_params(), 320u + 18496u + 102464u + 650u);
  EXPECT_THROW(model_spec("resnet", mnist), InputError);
  EXPECT_EQ(default_model_for("mnist"), "mlp");
  EXPECT_EQ(default_model_for("cifar10"), "cnn");
  EXPECT_THROW(default_model_for("imagenet"), InputError);
}

TEST(Model, RejectsLayersThatDoNotEndInClassLogits) {
  ModelSpec bad = mlp_spec();
  bad.layers.back() = LayerSpec::dense(9);
  EXPECT_THROW(Model{bad}, std::invalid_argument);
}

TEST(Init, SameSeedSameParamsDifferentSeedDifferent) {
  const Model a = make_model(mlp_spec(), 42);
  const Model b = make_model(mlp_spec(), 42);
  const Model c = make_model(mlp_spec(), 43);
  EXPECT_TRUE(std::equal(a.params().begin(), a.params().end(), b.params().begin()));
  std::size_t differ = 0;
  for (std::size_t i = 0; i < a.num_params(); ++i) differ += a.params()[i] != c.params()[i];
  EXPECT_GT(differ, 109000u);  // all weights differ; the 202 zero biases agree
}

TEST(Init, GlorotUniformLimitsAndZeroBiases) {
  const Model m = make_model(mlp_spec(), 7);
  const auto p = m.params();
  const double limit = std::sqrt(6.0 / (784 + 128));
  double sum_sq = 0.0, max_abs = 0.0;
  for (std::size_t i = 0; i < 100352; ++i) {
    sum_sq += double(p[i]) * p[i];
    max_abs = std::max(max_abs, std::abs(double(p[i])));
  }
  EXPECT_LE(max_abs, limit);
  EXPECT_GT(max_abs, 0.99 * limit);
  // Variance of U(-l, l) is l^2 / 3; 100k draws: relative error ~ 0.5%.
  EXPECT_NEAR(sum_sq / 100352 / (limit * limit / 3), 1.0, 0.02);
  for (std::size_t i = 100352; i < 100480; ++i) EXPECT_EQ(p[i], 0.0f);
  // Conv kernel fans (Keras): fan_in = 3*3*3, fan_out = 3*3*32.
  const Model cnn = make_model(cnn_spec(), 7);
  const double conv_limit = std::sqrt(6.0 / (27 + 288));
  const double conv_max = largest_abs(cnn, 864);
  EXPECT_LE(conv_max, conv_limit);
  EXPECT_GT(conv_max, 0.95 * conv_limit);
}

TEST(Init, HeUniformLimit) {
  ModelSpec spec = mlp_spec();
  spec.init = Init::kHeUniform;
  const Model m = make_model(spec, 7);
  const double limit = std::sqrt(6.0 / 784);
  const double largest = largest_abs(m, 100352);
  EXPECT_LE(largest, limit);
  EXPECT_GT(largest, 0.99 * limit);
}

TEST(Model, SetParamsCopiesAndChecksSize) {
  Model m(mlp_spec());
  std::vector<float> p(m.num_params());
  for (std::size_t i = 0; i < p.size(); ++i) p[i] = static_cast<float>(i % 97) * 0.01f;
  m.set_params(p);
  EXPECT_TRUE(std::equal(p.begin(), p.end(), m.params().begin()));
  p.pop_back();
  EXPECT_THROW(m.set_params(p), std::invalid_argument);
}

TEST(Model, CopyIsIndependentAndMoveKeepsViewsValid) {
  Model a = make_model(mlp_spec({1, 4, 4}, 3), 1);
  Model b = a;
  EXPECT_TRUE(std::equal(a.params().begin(), a.params().end(), b.params().begin()));
  b.params()[0] += 1.0f;
  EXPECT_NE(a.params()[0], b.params()[0]);
  // Copy-assignment between equal specs copies parameters and keeps the workspace.
  b.reserve_batch(8);
  b = a;
  EXPECT_EQ(b.params()[0], a.params()[0]);
  EXPECT_EQ(b.batch_capacity(), 8);
  // A moved model computes the same as its source did.
  const std::uint8_t labels[2] = {0, 2};
  a.reserve_batch(2);
  for (std::size_t i = 0; i < 32; ++i) a.input()[i] = static_cast<float>(i) / 32;
  const double before = a.forward_backward(labels, 2).loss_sum;
  Model c = std::move(a);
  const double after = c.forward_backward(labels, 2).loss_sum;
  EXPECT_EQ(before, after);
}

TEST(Model, BatchAboveCapacityIsRejected) {
  Model m(mlp_spec());
  m.reserve_batch(4);
  EXPECT_GT(m.workspace_bytes(), 0u);
  EXPECT_THROW(m.forward(5), std::logic_error);
  m.release_workspace();
  EXPECT_EQ(m.batch_capacity(), 0);
  EXPECT_THROW(m.forward(1), std::logic_error);
}

// Full-model check: analytic grads() of the mean cross-entropy vs central differences over
// every parameter, in double.
void check_model(const ModelSpec& spec, int n, std::uint64_t seed) {
  BasicModel<double> m(spec);
  RandomStream rng(seed, 3);
  m.init_params(rng);
  // Non-zero biases so that their gradients are exercised away from the initial point.
  for (double& p : m.params()) p += rng.uniform(-0.1, 0.1);
  m.reserve_batch(n);
  for (std::size_t i = 0; i < m.input_dim() * static_cast<std::size_t>(n); ++i) {
    m.input()[i] = rng.uniform(-1, 1);
  }
  std::vector<std::uint8_t> labels(static_cast<std::size_t>(n));
  for (auto& l : labels) l = static_cast<std::uint8_t>(rng.uniform_int(m.num_classes()));
  const double loss0 = m.forward_backward(labels.data(), n).loss_sum / n;
  EXPECT_GT(loss0, 0.0);
  const std::vector<double> g(m.grads().begin(), m.grads().end());
  auto loss = [&] { return m.forward_loss(labels.data(), n).loss_sum / n; };
  double max_grad = 0.0;
  for (std::size_t i = 0; i < m.num_params(); ++i) {
    const double num = testing::numeric_derivative(loss, m.params()[i]);
    EXPECT_TRUE(testing::close(g[i], num))
        << spec.name << " param " << i << ": " << g[i] << " vs " << num;
    max_grad = std::max(max_grad, std::abs(g[i]));
  }
  EXPECT_GT(max_grad, 1e-3);  // the check compared real gradients, not zeros
}

TEST(ModelGradient, Mlp) { check_model(mlp_spec({1, 3, 3}, 4), 5, 1); }

TEST(ModelGradient, SmallMlpWithNarrowLayers) {
  ModelSpec s{"tiny-mlp",
              {2, 2, 2, Layout::kCHW},
              3,
              {LayerSpec::flatten(), LayerSpec::dense(6), LayerSpec::relu(), LayerSpec::dense(5),
               LayerSpec::relu(), LayerSpec::dense(3)}};
  check_model(s, 4, 2);
}

TEST(ModelGradient, CnnWithTwoConvsPoolsAndDense) {
  // conv on CHW input, conv on HWC input (col2im path), two pools, flatten, dense.
  ModelSpec s{"tiny-cnn",
              {2, 9, 9, Layout::kCHW},
              3,
              {LayerSpec::conv2d(3, 3), LayerSpec::relu(), LayerSpec::maxpool2(),
               LayerSpec::conv2d(4, 2), LayerSpec::relu(), LayerSpec::maxpool2(),
               LayerSpec::flatten(), LayerSpec::dense(5), LayerSpec::relu(), LayerSpec::dense(3)}};
  check_model(s, 3, 3);
}

TEST(ModelGradient, FloatModelMatchesDoubleModel) {
  // The float instantiation computes the same gradients as the checked double one.
  const ModelSpec spec = cnn_spec({3, 10, 10}, 4);
  BasicModel<double> md(spec);
  Model mf(spec);
  RandomStream rng(5, 0);
  md.init_params(rng);
  for (std::size_t i = 0; i < md.num_params(); ++i)
    mf.params()[i] = static_cast<float>(md.params()[i]);
  for (std::size_t i = 0; i < md.num_params(); ++i) md.params()[i] = mf.params()[i];
  const int n = 3;
  md.reserve_batch(n);
  mf.reserve_batch(n);
  for (std::size_t i = 0; i < md.input_dim() * n; ++i) {
    mf.input()[i] = static_cast<float>(rng.uniform(0, 1));
    md.input()[i] = mf.input()[i];
  }
  const std::uint8_t labels[n] = {3, 0, 1};
  const double ld = md.forward_backward(labels, n).loss_sum;
  const double lf = mf.forward_backward(labels, n).loss_sum;
  EXPECT_NEAR(lf, ld, 1e-5 * std::abs(ld));
  double max_g = 0.0;
  for (double v : md.grads()) max_g = std::max(max_g, std::abs(v));
  for (std::size_t i = 0; i < md.num_params(); ++i) {
    EXPECT_NEAR(mf.grads()[i], md.grads()[i], 1e-5 * max_g) << i;
  }
}

}  // namespace
}  // namespace hermes::nn
