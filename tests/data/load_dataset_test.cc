// load_dataset end to end on synthetic files: formats, CIFAR standardisation with training
// statistics, the shared per-process cache, and errors surfacing through it.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <thread>

#include "models/data/loaders.h"
#include "tests/support/test_files.h"

namespace hermes::data {
namespace {

namespace fs = std::filesystem;
using testing::input_error;
using testing::pattern_byte;
using testing::TempDir;

class IdxDatasets : public ::testing::TestWithParam<bool> {};

TEST_P(IdxDatasets, MnistAndFashionMnistLoadFromTheirSubdirectories) {
  TempDir root;
  testing::write_idx_dataset(root.str(), "mnist", 3, 2, GetParam());
  testing::write_idx_dataset(root.str(), "fashion-mnist", 4, 1, GetParam());
  const TrainTestSplit m = load_dataset("mnist", root.str());
  ASSERT_TRUE(m.train && m.test);
  EXPECT_EQ(m.train->name, "mnist/train");
  EXPECT_EQ(m.test->name, "mnist/test");
  EXPECT_EQ(m.train->size(), 3u);
  EXPECT_EQ(m.test->size(), 2u);
  EXPECT_EQ(m.train->channels, 1);
  EXPECT_EQ(m.train->height, 28);
  EXPECT_EQ(m.train->width, 28);
  EXPECT_EQ(m.train->sample_dim(), 784u);
  EXPECT_EQ(m.train->labels, (std::vector<std::uint8_t>{0, 1, 2}));
  for (std::size_t i = 0; i < 3; ++i) {
    for (std::size_t p : {0u, 1u, 391u, 783u}) {
      EXPECT_EQ(m.train->sample(i)[p], pattern_byte(i, p) / 255.0f) << i << "," << p;
    }
  }
  EXPECT_EQ(m.test->sample(1)[5], pattern_byte(1, 5) / 255.0f);

  const TrainTestSplit f = load_dataset("fashion-mnist", root.str());
  EXPECT_EQ(f.train->name, "fashion-mnist/train");
  EXPECT_EQ(f.train->size(), 4u);
  EXPECT_EQ(f.test->size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(GzipAndRaw, IdxDatasets, ::testing::Bool(), testing::gzip_or_raw);

TEST(LoadDataset, CifarIsStandardisedWithTrainingStatistics) {
  TempDir root;
  constexpr std::size_t kPerBatch = 2;
  testing::write_cifar_dataset(root.str(), kPerBatch, true);
  const TrainTestSplit s = load_dataset("cifar10", root.str());
  ASSERT_EQ(s.train->size(), 5 * kPerBatch);
  ASSERT_EQ(s.test->size(), kPerBatch);
  EXPECT_EQ(s.train->name, "cifar10/train");
  EXPECT_EQ(s.test->labels, (std::vector<std::uint8_t>{5, 6}));  // (batch 5 + r) % 10

  // Training statistics computed here from the bytes written (records 0..9 of the pattern).
  double mean[3], sd[3];
  for (std::size_t c = 0; c < 3; ++c) {
    long double sum = 0, sq = 0;
    for (std::size_t r = 0; r < 5 * kPerBatch; ++r) {
      for (std::size_t p = 0; p < 1024; ++p) {
        const long double x = pattern_byte(r, c * 1024 + p) / 255.0L;
        sum += x;
        sq += x * x;
      }
    }
    const long double n = 5 * kPerBatch * 1024;
    mean[c] = static_cast<double>(sum / n);
    sd[c] = static_cast<double>(std::sqrt(sq / n - (sum / n) * (sum / n)));
    EXPECT_NEAR(s.train->channel_mean[c], mean[c], 1e-7);
    EXPECT_NEAR(s.train->channel_stddev[c], sd[c], 1e-7);
  }
  // The test set carries and uses the TRAINING statistics, not its own.
  EXPECT_EQ(s.test->channel_mean, s.train->channel_mean);
  EXPECT_EQ(s.test->channel_stddev, s.train->channel_stddev);
  for (std::size_t r = 0; r < kPerBatch; ++r) {
    for (std::size_t c = 0; c < 3; ++c) {
      for (std::size_t p : {0u, 100u, 1023u}) {
        const double x = pattern_byte(5 * kPerBatch + r, c * 1024 + p) / 255.0;
        EXPECT_NEAR(s.test->sample(r)[c * 1024 + p], (x - mean[c]) / sd[c], 1e-5);
      }
    }
  }
  // The standardised training set has per-channel mean 0 and std 1.
  for (std::size_t c = 0; c < 3; ++c) {
    double sum = 0, sq = 0;
    for (std::size_t r = 0; r < s.train->size(); ++r) {
      for (std::size_t p = 0; p < 1024; ++p) {
        const double v = s.train->sample(r)[c * 1024 + p];
        sum += v;
        sq += v * v;
      }
    }
    const double n = static_cast<double>(s.train->size() * 1024);
    EXPECT_NEAR(sum / n, 0.0, 1e-6);
    EXPECT_NEAR(std::sqrt(sq / n - (sum / n) * (sum / n)), 1.0, 1e-6);
  }
}

TEST(LoadDataset, SecondLoadSharesTheSameCopy) {
  TempDir root;
  testing::write_idx_dataset(root.str(), "mnist", 2, 2, true);
  const TrainTestSplit a = load_dataset("mnist", root.str());
  const TrainTestSplit b = load_dataset("mnist", root.str());
  EXPECT_EQ(a.train.get(), b.train.get());
  EXPECT_EQ(a.test.get(), b.test.get());
  // Through another spelling of the same directory (env instead of flag, extra "./").
  testing::ScopedEnv env("HERMES_DATA_DIR", root.str() + "/.");
  const TrainTestSplit c = load_dataset("mnist", "");
  EXPECT_EQ(a.train.get(), c.train.get());
}

TEST(LoadDataset, CacheDoesNotKeepUnusedDatasetsAlive) {
  TempDir root;
  testing::write_idx_dataset(root.str(), "mnist", 2, 2, false);
  std::weak_ptr<const Dataset> train_w, test_w;
  {
    const TrainTestSplit a = load_dataset("mnist", root.str());
    train_w = a.train;
    test_w = a.test;
  }
  EXPECT_TRUE(train_w.expired());
  EXPECT_TRUE(test_w.expired());
  const TrainTestSplit b = load_dataset("mnist", root.str());
  EXPECT_EQ(b.train->size(), 2u);
}

TEST(LoadDataset, OnlyTheExpiredPartIsReloaded) {
  TempDir root;
  testing::write_cifar_dataset(root.str(), 1, false);
  TrainTestSplit a = load_dataset("cifar10", root.str());
  const std::vector<float> test_pixels = a.test->pixels;
  a.test.reset();
  const TrainTestSplit b = load_dataset("cifar10", root.str());
  EXPECT_EQ(b.train.get(), a.train.get());
  EXPECT_EQ(b.test->pixels, test_pixels);  // reloaded with the same training statistics
}

TEST(LoadDataset, ChangedFilesAreReloaded) {
  TempDir root;
  testing::write_idx_dataset(root.str(), "mnist", 2, 1, true);
  const TrainTestSplit a = load_dataset("mnist", root.str());
  testing::write_idx_dataset(root.str(), "mnist", 5, 1, true);  // new sizes on disk
  const TrainTestSplit b = load_dataset("mnist", root.str());
  EXPECT_EQ(a.train->size(), 2u);
  EXPECT_EQ(b.train->size(), 5u);
  EXPECT_NE(a.train.get(), b.train.get());
}

TEST(LoadDataset, DistinctDirectoriesAreDistinctDatasets) {
  TempDir r1, r2;
  testing::write_idx_dataset(r1.str(), "mnist", 2, 1, true);
  testing::write_idx_dataset(r2.str(), "mnist", 2, 1, true);
  const TrainTestSplit a = load_dataset("mnist", r1.str());
  const TrainTestSplit b = load_dataset("mnist", r2.str());
  EXPECT_NE(a.train.get(), b.train.get());
  EXPECT_EQ(a.train->pixels, b.train->pixels);
}

TEST(LoadDataset, ConcurrentLoadsGetOneCopy) {
  TempDir root;
  testing::write_cifar_dataset(root.str(), 3, true);
  std::vector<TrainTestSplit> got(4);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < got.size(); ++i) {
    threads.emplace_back([&, i] { got[i] = load_dataset("cifar10", root.str()); });
  }
  for (auto& t : threads) t.join();
  for (const auto& s : got) {
    EXPECT_EQ(s.train.get(), got[0].train.get());
    EXPECT_EQ(s.test.get(), got[0].test.get());
  }
}

TEST(LoadDataset, FormatErrorsSurfaceWithTheFileName) {
  TempDir root;
  testing::write_idx_dataset(root.str(), "mnist", 2, 2, true);
  const std::string labels = root / "mnist/t10k-labels-idx1-ubyte.gz";
  testing::write_file(labels, testing::gzip(testing::idx_labels({1, 2, 3})));
  EXPECT_CONTAINS(input_error([&] { load_dataset("mnist", root.str()); }),
                  labels + ": label count does not match the images: 3 labels, expected 2");
}

TEST(LoadDataset, MnistMustBe28x28) {
  TempDir root;
  testing::write_idx_dataset(root.str(), "mnist", 1, 1, false);
  const std::string images = root / "mnist/train-images-idx3-ubyte";
  testing::write_file(images, testing::idx_images(1, 2, 2, {1, 2, 3, 4}));
  EXPECT_CONTAINS(input_error([&] { load_dataset("mnist", root.str()); }),
                  images + ": bad image dimensions: expected 28x28, found 2x2");
}

}  // namespace
}  // namespace hermes::data
