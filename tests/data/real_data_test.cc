// The real datasets, if present (found by the normal resolution: --data-dir unset,
// $HERMES_DATA_DIR, <repo>/data, <repo>/../shared/data, /usr/share/datasets). Skipped otherwise.
// Expected figures are the published ones (see /work/shared/data/README.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "base/diagnostics.h"
#include "models/data/loaders.h"

namespace hermes::data {
namespace {

std::optional<TrainTestSplit> load_if_present(const std::string& name) {
  try {
    resolve_data_dir(name, "");
  } catch (const InputError&) {
    return std::nullopt;  // not installed here; a present but corrupt file must still fail below
  }
  return load_dataset(name, "");
}

std::array<int, 10> histogram(const std::vector<std::uint8_t>& labels, std::size_t begin,
                              std::size_t end) {
  std::array<int, 10> h{};
  for (std::size_t i = begin; i < end; ++i) ++h.at(labels[i]);
  return h;
}

struct Moments {
  double mean, stddev, min, max;
};

// Over channel c of every sample.
Moments moments(const Dataset& ds, int c) {
  const std::size_t plane = static_cast<std::size_t>(ds.height) * ds.width;
  double sum = 0, sq = 0, lo = INFINITY, hi = -INFINITY;
  for (std::size_t i = 0; i < ds.size(); ++i) {
    const float* s = ds.sample(i) + c * plane;
    for (std::size_t p = 0; p < plane; ++p) {
      sum += s[p];
      sq += static_cast<double>(s[p]) * s[p];
      lo = std::min<double>(lo, s[p]);
      hi = std::max<double>(hi, s[p]);
    }
  }
  const double n = static_cast<double>(ds.size() * plane);
  return {sum / n, std::sqrt(sq / n - (sum / n) * (sum / n)), lo, hi};
}

TEST(RealData, Mnist) {
  const auto s = load_if_present("mnist");
  if (!s) GTEST_SKIP() << "MNIST not found (run tools/fetch-data)";
  ASSERT_EQ(s->train->size(), 60000u);
  ASSERT_EQ(s->test->size(), 10000u);
  EXPECT_EQ(s->train->pixels.size(), 60000u * 784u);
  EXPECT_EQ(histogram(s->train->labels, 0, 60000),
            (std::array<int, 10>{5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851, 5949}));
  EXPECT_EQ(histogram(s->test->labels, 0, 10000),
            (std::array<int, 10>{980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009}));
  EXPECT_EQ(std::vector<std::uint8_t>(s->train->labels.begin(), s->train->labels.begin() + 10),
            (std::vector<std::uint8_t>{5, 0, 4, 1, 9, 2, 1, 3, 1, 4}));
  EXPECT_EQ(std::vector<std::uint8_t>(s->test->labels.begin(), s->test->labels.begin() + 10),
            (std::vector<std::uint8_t>{7, 2, 1, 0, 4, 1, 4, 9, 5, 9}));
  const Moments m = moments(*s->train, 0);
  EXPECT_EQ(m.min, 0.0);
  EXPECT_EQ(m.max, 1.0);
  // The well-known MNIST normalisation constants (0.1307, 0.3081).
  EXPECT_NEAR(m.mean, 0.1307, 1e-4);
  EXPECT_NEAR(m.stddev, 0.3081, 1e-4);
  EXPECT_TRUE(s->train->channel_mean.empty());
}

TEST(RealData, FashionMnist) {
  const auto s = load_if_present("fashion-mnist");
  if (!s) GTEST_SKIP() << "Fashion-MNIST not found (apt-get install dataset-fashion-mnist)";
  ASSERT_EQ(s->train->size(), 60000u);
  ASSERT_EQ(s->test->size(), 10000u);
  std::array<int, 10> train_h{}, test_h{};
  train_h.fill(6000);
  test_h.fill(1000);
  EXPECT_EQ(histogram(s->train->labels, 0, 60000), train_h);
  EXPECT_EQ(histogram(s->test->labels, 0, 10000), test_h);
  const Moments m = moments(*s->train, 0);
  EXPECT_EQ(m.min, 0.0);
  EXPECT_EQ(m.max, 1.0);
}

TEST(RealData, Cifar10) {
  const auto s = load_if_present("cifar10");
  if (!s) GTEST_SKIP() << "CIFAR-10 not found (run tools/fetch-data)";
  ASSERT_EQ(s->train->size(), 50000u);
  ASSERT_EQ(s->test->size(), 10000u);
  EXPECT_EQ(s->train->sample_dim(), 3072u);
  // data_batch_1 is the first 10000 training records.
  EXPECT_EQ(histogram(s->train->labels, 0, 10000),
            (std::array<int, 10>{1005, 974, 1032, 1016, 999, 937, 1030, 1001, 1025, 981}));
  EXPECT_EQ(std::vector<std::uint8_t>(s->train->labels.begin(), s->train->labels.begin() + 10),
            (std::vector<std::uint8_t>{6, 9, 9, 4, 1, 1, 2, 7, 8, 3}));
  std::array<int, 10> balanced_train{}, balanced_test{};
  balanced_train.fill(5000);
  balanced_test.fill(1000);
  EXPECT_EQ(histogram(s->train->labels, 0, 50000), balanced_train);
  EXPECT_EQ(histogram(s->test->labels, 0, 10000), balanced_test);

  // Training statistics near the published CIFAR-10 ones (this copy went through JPEG, so only
  // roughly): mean (0.4914, 0.4822, 0.4465), std (0.2470, 0.2435, 0.2616).
  const double pub_mean[3] = {0.4914, 0.4822, 0.4465};
  const double pub_std[3] = {0.2470, 0.2435, 0.2616};
  ASSERT_EQ(s->train->channel_mean.size(), 3u);
  for (int c = 0; c < 3; ++c) {
    EXPECT_NEAR(s->train->channel_mean[c], pub_mean[c], 0.01) << "channel " << c;
    EXPECT_NEAR(s->train->channel_stddev[c], pub_std[c], 0.01) << "channel " << c;
    const Moments train = moments(*s->train, c);
    EXPECT_NEAR(train.mean, 0.0, 1e-4) << "channel " << c;
    EXPECT_NEAR(train.stddev, 1.0, 1e-4) << "channel " << c;
    // Extremes are bytes 0 and 255 mapped through the channel's standardisation.
    EXPECT_NEAR(train.min, -pub_mean[c] / pub_std[c], 0.1);
    EXPECT_NEAR(train.max, (1 - pub_mean[c]) / pub_std[c], 0.1);
    // The test set uses the training statistics: close to, not exactly, 0 / 1.
    const Moments test = moments(*s->test, c);
    EXPECT_NEAR(test.mean, 0.0, 0.05) << "channel " << c;
    EXPECT_NEAR(test.stddev, 1.0, 0.05) << "channel " << c;
  }
  EXPECT_EQ(s->test->channel_mean, s->train->channel_mean);
}

}  // namespace
}  // namespace hermes::data
