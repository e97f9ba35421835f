// train_epochs / evaluate / train_central on small synthetic problems.
#include "models/nn/train.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "models/nn/central_training.h"
#include "models/nn/zoo.h"
#include "tests/nn/synthetic_data.h"

namespace hermes::nn {
namespace {

TEST(Train, SgdOnBlobsReducesLossTenfold) {
  const data::Dataset ds = testing::blobs(1, 4, 4, 3, 300, 0.15, 1);
  Model m = make_model(mlp_spec({1, 4, 4}, 3), 1);
  const auto idx = testing::iota(ds.size());
  const EvalStats before = evaluate(m, ds);
  EXPECT_NEAR(before.loss, std::log(3.0), 0.3);  // near chance at init
  const TrainStats ts = train_epochs(m, ds, idx, 5, 16, 0.1f);
  EXPECT_EQ(ts.steps, 5 * 19);  // 300 = 18 * 16 + 12: the last batch is smaller
  EXPECT_EQ(ts.samples, 1500);
  const EvalStats after = evaluate(m, ds);
  EXPECT_LT(after.loss, 0.1 * before.loss);
  EXPECT_GT(after.accuracy, 0.97);
  EXPECT_LT(ts.last_epoch_loss, ts.mean_loss);  // it was still learning during the 5 epochs
}

TEST(Train, CnnLearnsWhereTheSquareIs) {
  // Spatial task (which quadrant holds the bright square), scored on held-out images.
  const data::Dataset train = testing::quadrant_images(2, 12, 200, 2);
  const data::Dataset test = testing::quadrant_images(2, 12, 200, 3);
  Model m = make_model(cnn_spec({2, 12, 12}, 4), 3);
  const double before = evaluate(m, test).loss;
  EXPECT_NEAR(before, std::log(4.0), 0.1);
  train_epochs(m, train, testing::iota(train.size()), 4, 16, 0.1f);
  const EvalStats after = evaluate(m, test);
  EXPECT_LT(after.loss, 0.2 * before);  // measured: 1.43 -> 0.08
  EXPECT_GT(after.accuracy, 0.95);
}

TEST(Train, LastPartialBatchIsASmallerStep) {
  // One epoch of 20 samples at batch 16 == a step on samples 0..15 then one on 16..19.
  const data::Dataset ds = testing::blobs(1, 3, 3, 3, 20, 0.2, 4);
  const ModelSpec spec = mlp_spec({1, 3, 3}, 3);
  Model a = make_model(spec, 9);
  Model b = a;
  const TrainStats ts = train_epochs(a, ds, testing::iota(20), 1, 16, 0.1f);
  EXPECT_EQ(ts.steps, 2);
  b.reserve_batch(16);
  double loss = 0.0;
  for (const auto& [begin, n] : {std::pair{0, 16}, std::pair{16, 4}}) {
    std::copy_n(ds.sample(begin), ds.sample_dim() * n, b.input());
    loss += b.forward_backward(ds.labels.data() + begin, n).loss_sum;
    b.sgd_step(0.1f);
  }
  EXPECT_TRUE(std::equal(a.params().begin(), a.params().end(), b.params().begin()));
  EXPECT_DOUBLE_EQ(ts.mean_loss, loss / 20);
}

TEST(Train, IndexOrderAndShuffleAreDeterministic) {
  const data::Dataset ds = testing::blobs(1, 3, 3, 3, 64, 0.2, 5);
  const ModelSpec spec = mlp_spec({1, 3, 3}, 3);
  const Model init = make_model(spec, 1);
  auto run = [&](std::vector<std::uint32_t> idx, RandomStream* rng) {
    Model m = init;
    train_epochs(m, ds, idx, 2, 8, 0.1f, rng);
    return std::vector<float>(m.params().begin(), m.params().end());
  };
  std::vector<std::uint32_t> fwd = testing::iota(64), rev(fwd.rbegin(), fwd.rend());
  EXPECT_EQ(run(fwd, nullptr), run(fwd, nullptr));
  EXPECT_NE(run(fwd, nullptr), run(rev, nullptr));  // the given order is used
  RandomStream s1(3, 0), s2(3, 0), s3(4, 0);
  const auto shuffled = run(fwd, &s1);
  EXPECT_EQ(shuffled, run(fwd, &s2));
  EXPECT_NE(shuffled, run(fwd, &s3));
  EXPECT_NE(shuffled, run(fwd, nullptr));
  // Shuffling draws one uniform_int per swap: 63 per epoch, from the caller's stream.
  RandomStream counted(3, 0);
  run(fwd, &counted);
  EXPECT_GT(counted.draws(), 0u);
}

TEST(Train, GradSumIsTheSumOfStepGradients) {
  const data::Dataset ds = testing::blobs(1, 3, 3, 3, 50, 0.2, 6);
  Model m = make_model(mlp_spec({1, 3, 3}, 3), 2);
  const std::vector<float> w0(m.params().begin(), m.params().end());
  std::vector<float> sum(m.num_params(), 0.0f);
  const float lr = 0.05f;
  train_epochs(m, ds, testing::iota(50), 3, 16, lr, nullptr, sum);
  // Plain SGD: w1 = w0 - lr * sum of gradients.
  double max_sum = 0.0;
  for (float v : sum) max_sum = std::max(max_sum, double(std::abs(v)));
  EXPECT_GT(max_sum, 0.1);
  for (std::size_t i = 0; i < sum.size(); ++i) {
    EXPECT_NEAR((w0[i] - m.params()[i]) / lr, sum[i], 1e-3 * std::max(1.0, max_sum)) << i;
  }
  std::vector<float> wrong(3);
  EXPECT_THROW(train_epochs(m, ds, testing::iota(50), 1, 16, lr, nullptr, wrong),
               std::invalid_argument);
}

TEST(Train, RejectsBadArguments) {
  const data::Dataset ds = testing::blobs(1, 3, 3, 3, 10, 0.2, 7);
  Model m(mlp_spec({1, 3, 3}, 3));
  const std::vector<std::uint32_t> bad = {0, 10};
  EXPECT_THROW(train_epochs(m, ds, bad, 1, 4, 0.1f), std::invalid_argument);
  EXPECT_THROW(train_epochs(m, ds, testing::iota(10), 1, 0, 0.1f), std::invalid_argument);
  Model other(mlp_spec({1, 4, 4}, 3));
  EXPECT_THROW(train_epochs(other, ds, testing::iota(10), 1, 4, 0.1f), std::invalid_argument);
  EXPECT_EQ(train_epochs(m, ds, {}, 3, 4, 0.1f).steps, 0);
}

TEST(Evaluate, HandComputedLossAndAccuracy) {
  // Logits = input (identity dense layer): samples (1,0,0)/0, (0,2,0)/1, (0,0,3)/0.
  const ModelSpec spec{"id", {3, 1, 1, Layout::kCHW}, 3, {LayerSpec::dense(3)}};
  Model m(spec);
  std::vector<float> p(12, 0.0f);
  p[0] = p[4] = p[8] = 1.0f;
  m.set_params(p);
  data::Dataset ds;
  ds.channels = 3;
  ds.height = ds.width = 1;
  ds.num_classes = 3;
  ds.pixels = {1, 0, 0, 0, 2, 0, 0, 0, 3};
  ds.labels = {0, 1, 0};
  const double e = std::exp(1.0);
  const double l0 = std::log(e + 2) - 1;
  const double l1 = std::log(e * e + 2) - 2;
  const double l2 = std::log(e * e * e + 2) - 0;
  for (int batch : {1, 2, 64}) {
    const EvalStats s = evaluate(m, ds, batch);
    EXPECT_EQ(s.samples, 3u);
    EXPECT_EQ(s.correct, 2u);
    EXPECT_NEAR(s.accuracy, 2.0 / 3, 1e-12);
    EXPECT_NEAR(s.loss, (l0 + l1 + l2) / 3, 1e-6);
  }
  const std::vector<std::uint32_t> last = {2};
  EXPECT_NEAR(evaluate(m, ds, last).loss, l2, 1e-5);
  EXPECT_EQ(evaluate(m, ds, last).correct, 0u);
}

TEST(CentralTraining, ReportsEveryEpochAndLearns) {
  const data::Dataset train = testing::blobs(1, 4, 4, 3, 240, 0.15, 8);
  const data::Dataset test = testing::blobs(1, 4, 4, 3, 90, 0.15, 8, 1);  // other samples
  CentralTrainConfig cfg;
  cfg.epochs = 3;
  cfg.batch = 16;
  cfg.lr = 0.1f;
  int calls = 0;
  const auto results = train_central(mlp_spec({1, 4, 4}, 3), cfg, train, test,
                                     [&](const EpochResult& r) { EXPECT_EQ(r.epoch, ++calls); });
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(results[0].steps, 15);
  EXPECT_LT(results[2].train_loss, results[0].train_loss);
  EXPECT_GT(results[2].test_accuracy, 0.95);
  // Same config, same numbers.
  const auto again = train_central(mlp_spec({1, 4, 4}, 3), cfg, train, test);
  EXPECT_EQ(again[2].test_loss, results[2].test_loss);
  cfg.epochs = 0;
  EXPECT_THROW(train_central(mlp_spec({1, 4, 4}, 3), cfg, train, test), std::invalid_argument);
}

}  // namespace
}  // namespace hermes::nn
