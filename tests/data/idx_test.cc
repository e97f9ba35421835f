// IDX files of MNIST's kind (unsigned-byte [N, H, W] images, unsigned-byte labels) through
// read_idx_part: exact round trips and every rejected input, gzip and raw. Float elements and the
// other layouts are in dataset_format_test.cc.
#include "models/data/idx.h"

#include <gtest/gtest.h>

#include "models/data/file_bytes.h"
#include "tests/support/test_files.h"

namespace hermes::data {
namespace {

using testing::Bytes;
using testing::input_error;

class IdxFiles : public testing::GzipOrRawFiles {};

// Two 2x3 images; byte b must become exactly b / 255 (0 -> 0, 255 -> 1).
const Bytes kPixels = {0, 255, 128, 1, 2, 3, 10, 20, 30, 40, 50, 254};

// The files as a dataset of 1x`rows`x`cols` samples and 10 classes.
Dataset read(const std::string& images, const std::string& labels, int rows = 2, int cols = 3) {
  return read_idx_part(images, labels, "t", {1, rows, cols}, 10, kMaxDataFileBytes);
}

TEST_P(IdxFiles, RoundTripScalesBytesToUnitInterval) {
  const std::string images = put("img", testing::idx_images(2, 2, 3, kPixels));
  const std::string labels = put("lbl", testing::idx_labels({3, 7}));
  const Dataset ds = read_idx_part(images, labels, "toy/train", {1, 2, 3}, 10, kMaxDataFileBytes);
  EXPECT_EQ(ds.name, "toy/train");
  EXPECT_EQ(ds.channels, 1);
  EXPECT_EQ(ds.height, 2);
  EXPECT_EQ(ds.width, 3);
  EXPECT_EQ(ds.num_classes, 10);
  ASSERT_EQ(ds.size(), 2u);
  EXPECT_EQ(ds.sample_dim(), 6u);
  EXPECT_EQ(ds.labels, (std::vector<std::uint8_t>{3, 7}));
  ASSERT_EQ(ds.pixels.size(), 12u);
  EXPECT_EQ(ds.pixels[0], 0.0f);
  EXPECT_EQ(ds.pixels[1], 1.0f);
  EXPECT_EQ(ds.pixels[2], 128.0f / 255.0f);
  for (std::size_t i = 0; i < kPixels.size(); ++i) {
    EXPECT_EQ(ds.pixels[i], static_cast<float>(kPixels[i]) / 255.0f) << "pixel " << i;
  }
  // Row-major within an image, images one after another.
  EXPECT_EQ(ds.sample(1)[0], 10.0f / 255.0f);
  EXPECT_EQ(ds.sample(1)[5], 254.0f / 255.0f);
  EXPECT_TRUE(ds.channel_mean.empty());
}

TEST_P(IdxFiles, LabelsAreTakenAsTheyAre) {
  const std::string images = put("img", testing::idx_images(3, 1, 1, {7, 8, 9}));
  const Dataset ds = read(images, put("lbl", testing::idx_labels({9, 0, 4})), 1, 1);
  EXPECT_EQ(ds.labels, (Bytes{9, 0, 4}));
}

TEST_P(IdxFiles, WrongMagicOnImages) {
  const std::string path = put("img", testing::idx_images(2, 2, 3, kPixels, 2049));
  const std::string labels = put("lbl", testing::idx_labels({1, 2}));
  const std::string msg = input_error([&] { read(path, labels); });
  EXPECT_CONTAINS(msg, path +
                           ": not an IDX images file of an accepted kind: magic number "
                           "0x00000801 (element type unsigned byte, 1 dimensions)");
  EXPECT_CONTAINS(msg, "such as 0x00000803 (2051, MNIST's images)");
}

TEST_P(IdxFiles, WrongMagicOnLabels) {
  const Bytes as_images = testing::idx_images(1, 1, 1, {5});  // magic 2051
  const std::string path = put("lbl", as_images);
  const std::string images = put("img", as_images);
  const std::string msg = input_error([&] { read(images, path, 1, 1); });
  EXPECT_CONTAINS(msg, path);
  EXPECT_CONTAINS(msg, "expected magic number 2049, found 2051");
}

TEST_P(IdxFiles, TruncatedPayload) {
  Bytes raw = testing::idx_images(3, 2, 3, kPixels);  // promises 3 images, holds 2
  const std::string path = put("img", raw);
  const std::string msg = input_error([&] { read(path, put("lbl", testing::idx_labels({1}))); });
  EXPECT_CONTAINS(msg, path);
  EXPECT_CONTAINS(msg,
                  "truncated IDX images file: the header promises 3 items (34 bytes), found 28");
}

TEST_P(IdxFiles, TruncatedHeader) {
  Bytes raw = testing::idx_images(2, 2, 3, kPixels);
  raw.resize(10);
  const std::string path = put("img", raw);
  const std::string labels = put("lbl", testing::idx_labels({1, 2}));
  EXPECT_CONTAINS(input_error([&] { read(path, labels); }),
                  "truncated IDX images file: 10 bytes, expected a 16-byte header");
  const std::string tiny = put("tiny", {0, 0});
  EXPECT_CONTAINS(
      input_error([&] { read(put("ok", testing::idx_images(2, 2, 3, kPixels)), tiny); }),
      tiny + ": truncated IDX labels file: 2 bytes, expected at least a 8-byte header");
}

TEST_P(IdxFiles, TrailingBytesBeyondTheHeader) {
  Bytes raw = testing::idx_labels({1, 2});
  raw.push_back(3);
  const std::string path = put("lbl", raw);
  const std::string images = put("img", testing::idx_images(2, 2, 3, kPixels));
  EXPECT_CONTAINS(input_error([&] { read(images, path); }),
                  "1 bytes more than its header promises (10 bytes for 2 items)");
}

TEST_P(IdxFiles, CountMismatchBetweenImagesAndLabels) {
  const std::string images = put("img", testing::idx_images(2, 2, 3, kPixels));
  const std::string labels = put("lbl", testing::idx_labels({1, 2, 3}));
  const std::string msg = input_error([&] { read(images, labels); });
  EXPECT_CONTAINS(msg, labels + ": label count does not match the images: 3 labels, expected 2");
  EXPECT_CONTAINS(msg, images);
}

TEST_P(IdxFiles, ZeroSizedDimension) {
  const std::string path = put("img", testing::idx_images(2, 0, 3, {}));
  EXPECT_CONTAINS(input_error([&] {
                    read(path, put("lbl", testing::idx_labels({1, 2})));
                  }),
                  "bad IDX images dimensions: dimension 1 is 0, expected 1..2147483647");
}

TEST_P(IdxFiles, UnexpectedImageShape) {
  Bytes pixels(27 * 28, 7);
  const std::string images = put("img", testing::idx_images(1, 27, 28, pixels));
  const std::string labels = put("lbl", testing::idx_labels({1}));
  const std::string msg = input_error([&] { read(images, labels, 28, 28); });
  EXPECT_CONTAINS(msg, images + ": bad image dimensions: expected 28x28, found 27x28");
}

TEST_P(IdxFiles, EmptyFileHoldsNoItems) {
  const std::string path = put("img", testing::idx_images(0, 2, 3, {}));
  EXPECT_CONTAINS(input_error([&] { read(path, put("lbl", testing::idx_labels({}))); }),
                  path + ": IDX images file holds 0 items");
}

TEST_P(IdxFiles, LabelOutOfRange) {
  const std::string images = put("img", testing::idx_images(2, 2, 3, kPixels));
  const std::string labels = put("lbl", testing::idx_labels({9, 10}));
  EXPECT_CONTAINS(input_error([&] { read(images, labels); }),
                  labels + ": label 10 of item 1 is out of range, expected 0..9");
}

TEST_P(IdxFiles, MissingLabelFile) {
  const std::string images = put("img", testing::idx_images(2, 2, 3, kPixels));
  const std::string labels = dir_ / "absent-labels";
  EXPECT_CONTAINS(input_error([&] { read(images, labels); }), labels + ": file not found");
}

INSTANTIATE_TEST_SUITE_P(GzipAndRaw, IdxFiles, ::testing::Bool(), testing::gzip_or_raw);

TEST(Idx, CorruptGzipImageFile) {
  testing::TempDir dir;
  Bytes gz = testing::gzip(testing::idx_images(2, 2, 3, kPixels));
  gz[gz.size() - 1] ^= 0x40;  // ISIZE trailer no longer matches the data
  testing::write_file(dir / "img.gz", gz);
  testing::write_file(dir / "lbl", testing::idx_labels({1, 2}));
  const std::string msg = input_error([&] { read(dir / "img.gz", dir / "lbl"); });
  EXPECT_CONTAINS(msg, dir / "img.gz");
  EXPECT_CONTAINS(msg, "corrupt gzip");
}

TEST(Idx, UnitTableIsExactDivision) {
  const float* t = byte_to_unit_table();
  EXPECT_EQ(t[0], 0.0f);
  EXPECT_EQ(t[255], 1.0f);
  EXPECT_EQ(t[51], 0.2f);  // 51/255 = 0.2, correctly rounded
  for (int b = 0; b < 256; ++b) EXPECT_EQ(t[b], static_cast<float>(b) / 255.0f);
}

}  // namespace
}  // namespace hermes::data
