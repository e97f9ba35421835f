// CIFAR-10 binary batches through read_cifar_binary_part: exact CHW round trips, standardisation,
// rejected inputs. Other shapes and classes are in dataset_format_test.cc.
#include "models/data/cifar10.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "models/data/file_bytes.h"
#include "tests/support/test_files.h"

namespace hermes::data {
namespace {

using testing::Bytes;
using testing::input_error;

// One record: label, then R, G, B planes filled with r, g, b.
Bytes plain_record(std::uint8_t label, std::uint8_t r, std::uint8_t g, std::uint8_t b) {
  Bytes rec{label};
  rec.insert(rec.end(), 1024, r);
  rec.insert(rec.end(), 1024, g);
  rec.insert(rec.end(), 1024, b);
  return rec;
}

Bytes concat(Bytes a, const Bytes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The batch files, in order, as CIFAR-10 (3x32x32 samples, 10 classes).
Dataset read(const std::vector<std::string>& paths, std::string name = "t") {
  return read_cifar_binary_part(paths, std::move(name), {3, 32, 32}, 10, kMaxDataFileBytes);
}

class CifarFiles : public testing::GzipOrRawFiles {};

TEST_P(CifarFiles, RoundTripKeepsPlanesAsChw) {
  Bytes rec0 = plain_record(3, 10, 20, 30);
  rec0[1 + 1024 + 1 * 32 + 2] = 99;  // G channel, row 1, column 2
  rec0[1 + 3071] = 255;              // B channel, row 31, column 31
  const std::string a = put("a.bin", concat(rec0, plain_record(9, 0, 1, 2)));
  const std::string b = put("b.bin", plain_record(0, 255, 254, 253));
  const Dataset ds = read({a, b}, "toy/train");
  EXPECT_EQ(ds.name, "toy/train");
  EXPECT_EQ(ds.channels, 3);
  EXPECT_EQ(ds.height, 32);
  EXPECT_EQ(ds.width, 32);
  ASSERT_EQ(ds.size(), 3u);
  ASSERT_EQ(ds.pixels.size(), 3u * 3072u);
  EXPECT_EQ(ds.labels, (std::vector<std::uint8_t>{3, 9, 0}));  // file order, then record order
  const float* s0 = ds.sample(0);
  EXPECT_EQ(s0[0], 10.0f / 255.0f);              // R plane first
  EXPECT_EQ(s0[1024], 20.0f / 255.0f);           // then G
  EXPECT_EQ(s0[2048], 30.0f / 255.0f);           // then B
  EXPECT_EQ(s0[1024 + 32 + 2], 99.0f / 255.0f);  // (c=1, y=1, x=2) at c*1024 + y*32 + x
  EXPECT_EQ(s0[1024 + 32 + 3], 20.0f / 255.0f);
  EXPECT_EQ(s0[3071], 1.0f);
  EXPECT_EQ(ds.sample(1)[2048], 2.0f / 255.0f);
  EXPECT_EQ(ds.sample(2)[0], 1.0f);
  EXPECT_EQ(ds.sample(2)[3071], 253.0f / 255.0f);
}

TEST_P(CifarFiles, SizeNotMultipleOfRecord) {
  Bytes raw = concat(plain_record(1, 1, 1, 1), plain_record(2, 2, 2, 2));
  raw.pop_back();
  const std::string path = put("short.bin", raw);
  const std::string msg = input_error([&] { read({path}); });
  EXPECT_CONTAINS(msg, path + ": not a CIFAR-binary batch of 3x32x32 images: 6145 bytes");
  EXPECT_CONTAINS(msg, "expected a non-zero multiple of 3073");
}

TEST_P(CifarFiles, EmptyBatch) {
  const std::string path = put("empty.bin", {});
  EXPECT_CONTAINS(input_error([&] { read({path}); }),
                  path + ": not a CIFAR-binary batch of 3x32x32 images: 0 bytes");
}

TEST_P(CifarFiles, LabelOutOfRange) {
  const std::string path =
      put("l.bin", concat(plain_record(9, 0, 0, 0), plain_record(10, 0, 0, 0)));
  EXPECT_CONTAINS(input_error([&] { read({path}); }),
                  path + ": label 10 of record 1 is out of range, expected 0..9");
}

TEST_P(CifarFiles, MissingSecondBatchNamesIt) {
  const std::string a = put("a.bin", plain_record(1, 1, 1, 1));
  const std::string missing = dir_ / "data_batch_2.bin";
  EXPECT_CONTAINS(input_error([&] { read({a, missing}); }), missing + ": file not found");
}

INSTANTIATE_TEST_SUITE_P(GzipAndRaw, CifarFiles, ::testing::Bool(), testing::gzip_or_raw);

TEST(Cifar, CorruptGzipBatch) {
  testing::TempDir dir;
  Bytes gz = testing::gzip(plain_record(1, 1, 2, 3));
  ASSERT_GT(gz.size(), 5u);
  gz.erase(gz.end() - 5, gz.end());  // cut into the trailer
  testing::write_file(dir / "b.bin.gz", gz);
  const std::string msg = input_error([&] { read({dir / "b.bin.gz"}); });
  EXPECT_CONTAINS(msg, dir / "b.bin.gz");
  EXPECT_CONTAINS(msg, "corrupt gzip");
}

// Hand-computed: R is 0 then 255 (mean 0.5, std 0.5), G is 51 in both (mean 0.2, std 0), B is
// 255 then 0.
Dataset two_record_dataset() {
  testing::TempDir dir;
  testing::write_file(dir / "x.bin",
                      concat(plain_record(0, 0, 51, 255), plain_record(1, 255, 51, 0)));
  return read({dir / "x.bin"});
}

TEST(Cifar, ChannelStatsAreHandComputed) {
  const ChannelStats st = compute_channel_stats(two_record_dataset());
  ASSERT_EQ(st.mean.size(), 3u);
  EXPECT_EQ(st.mean[0], 0.5);
  EXPECT_EQ(st.stddev[0], 0.5);
  EXPECT_EQ(st.mean[1], static_cast<double>(0.2f));
  EXPECT_EQ(st.stddev[1], 0.0);
  EXPECT_EQ(st.mean[2], 0.5);
  EXPECT_EQ(st.stddev[2], 0.5);
}

TEST(Cifar, StandardizeMapsToPlusMinusOneAndOnlyCentresConstantChannels) {
  Dataset ds = two_record_dataset();
  const ChannelStats st = compute_channel_stats(ds);
  standardize_channels(ds, st);
  EXPECT_EQ(ds.channel_mean, st.mean);
  EXPECT_EQ(ds.channel_stddev, st.stddev);
  for (int p : {0, 517, 1023}) {
    EXPECT_EQ(ds.sample(0)[p], -1.0f);
    EXPECT_EQ(ds.sample(1)[p], 1.0f);
    EXPECT_EQ(ds.sample(0)[1024 + p], 0.0f);  // std 0: centred, not divided
    EXPECT_EQ(ds.sample(0)[2048 + p], 1.0f);
    EXPECT_EQ(ds.sample(1)[2048 + p], -1.0f);
  }
}

TEST(Cifar, StatsMatchDirectComputationOnPatternData) {
  testing::TempDir dir;
  testing::write_file(dir / "p.bin", testing::cifar_records({1, 2, 3, 4, 5}));
  const Dataset ds = read({dir / "p.bin"});
  const ChannelStats st = compute_channel_stats(ds);
  for (std::size_t c = 0; c < 3; ++c) {
    long double sum = 0, sq = 0;
    for (std::size_t r = 0; r < 5; ++r) {
      for (std::size_t p = 0; p < 1024; ++p) {
        const long double x = testing::pattern_byte(r, c * 1024 + p) / 255.0L;
        sum += x;
        sq += x * x;
      }
    }
    const long double n = 5 * 1024;
    const long double mean = sum / n;
    EXPECT_NEAR(st.mean[c], static_cast<double>(mean), 1e-7);
    EXPECT_NEAR(st.stddev[c], static_cast<double>(std::sqrt(sq / n - mean * mean)), 1e-7);
  }
}

TEST(Cifar, StandardizeRejectsStatsOfWrongShape) {
  Dataset ds = two_record_dataset();
  EXPECT_THROW(standardize_channels(ds, ChannelStats{{0.5}, {0.5}}), std::invalid_argument);
}

}  // namespace
}  // namespace hermes::data
