// IDX (MNIST format) reading: exact round trips and every rejected input, gzip and raw.
#include "models/data/idx.h"

#include <gtest/gtest.h>

#include "tests/support/test_files.h"

namespace hermes::data {
namespace {

using testing::Bytes;
using testing::input_error;

class IdxFiles : public testing::GzipOrRawFiles {};

// Two 2x3 images; byte b must become exactly b / 255 (0 -> 0, 255 -> 1).
const Bytes kPixels = {0, 255, 128, 1, 2, 3, 10, 20, 30, 40, 50, 254};

TEST_P(IdxFiles, RoundTripScalesBytesToUnitInterval) {
  const std::string images = put("img", testing::idx_images(2, 2, 3, kPixels));
  const std::string labels = put("lbl", testing::idx_labels({3, 7}));
  const Dataset ds = load_idx_dataset(images, labels, "toy/train", 10);
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

TEST_P(IdxFiles, ReadersReturnHeaderAndPayload) {
  const IdxImages img = read_idx_images(put("img", testing::idx_images(2, 2, 3, kPixels)));
  EXPECT_EQ(img.count, 2u);
  EXPECT_EQ(img.rows, 2);
  EXPECT_EQ(img.cols, 3);
  EXPECT_EQ(img.pixels, kPixels);
  EXPECT_EQ(read_idx_labels(put("lbl", testing::idx_labels({9, 0, 4}))), (Bytes{9, 0, 4}));
}

TEST_P(IdxFiles, WrongMagicOnImages) {
  const std::string path = put("img", testing::idx_images(2, 2, 3, kPixels, 2049));
  const std::string msg = input_error([&] { read_idx_images(path); });
  EXPECT_CONTAINS(msg, path);
  EXPECT_CONTAINS(msg, "expected magic number 2051, found 2049");
}

TEST_P(IdxFiles, WrongMagicOnLabels) {
  const Bytes as_images = testing::idx_images(1, 1, 1, {5});  // magic 2051
  const std::string path = put("lbl", as_images);
  const std::string msg = input_error([&] { read_idx_labels(path); });
  EXPECT_CONTAINS(msg, path);
  EXPECT_CONTAINS(msg, "expected magic number 2049, found 2051");
}

TEST_P(IdxFiles, TruncatedPayload) {
  Bytes raw = testing::idx_images(3, 2, 3, kPixels);  // promises 3 images, holds 2
  const std::string path = put("img", raw);
  const std::string msg = input_error([&] { read_idx_images(path); });
  EXPECT_CONTAINS(msg, path);
  EXPECT_CONTAINS(msg,
                  "truncated IDX images file: the header promises 3 items (34 bytes), found 28");
}

TEST_P(IdxFiles, TruncatedHeader) {
  Bytes raw = testing::idx_images(2, 2, 3, kPixels);
  raw.resize(10);
  const std::string path = put("img", raw);
  EXPECT_CONTAINS(input_error([&] { read_idx_images(path); }),
                  "truncated IDX images file: 10 bytes, expected a 16-byte header");
  const std::string tiny = put("tiny", {0, 0});
  EXPECT_CONTAINS(input_error([&] { read_idx_labels(tiny); }), "truncated IDX labels file");
}

TEST_P(IdxFiles, TrailingBytesBeyondTheHeader) {
  Bytes raw = testing::idx_labels({1, 2});
  raw.push_back(3);
  const std::string path = put("lbl", raw);
  EXPECT_CONTAINS(input_error([&] { read_idx_labels(path); }),
                  "1 bytes more than its header promises (10 bytes for 2 items)");
}

TEST_P(IdxFiles, CountMismatchBetweenImagesAndLabels) {
  const std::string images = put("img", testing::idx_images(2, 2, 3, kPixels));
  const std::string labels = put("lbl", testing::idx_labels({1, 2, 3}));
  const std::string msg = input_error([&] { load_idx_dataset(images, labels, "t", 10); });
  EXPECT_CONTAINS(msg, labels + ": label count does not match the images: 3 labels, expected 2");
  EXPECT_CONTAINS(msg, images);
}

TEST_P(IdxFiles, ZeroSizedDimension) {
  const std::string path = put("img", testing::idx_images(2, 0, 3, {}));
  EXPECT_CONTAINS(input_error([&] { read_idx_images(path); }),
                  "bad IDX images dimensions: dimension 1 is 0, expected 1..16384");
}

TEST_P(IdxFiles, UnexpectedImageShape) {
  Bytes pixels(27 * 28, 7);
  const std::string images = put("img", testing::idx_images(1, 27, 28, pixels));
  const std::string labels = put("lbl", testing::idx_labels({1}));
  const std::string msg = input_error([&] { load_idx_dataset(images, labels, "t", 10, 28, 28); });
  EXPECT_CONTAINS(msg, images + ": bad image dimensions: expected 28x28, found 27x28");
}

TEST_P(IdxFiles, EmptyFileHoldsNoItems) {
  const std::string path = put("img", testing::idx_images(0, 2, 3, {}));
  EXPECT_CONTAINS(input_error([&] { read_idx_images(path); }), "holds 0 items");
}

TEST_P(IdxFiles, LabelOutOfRange) {
  const std::string images = put("img", testing::idx_images(2, 2, 3, kPixels));
  const std::string labels = put("lbl", testing::idx_labels({9, 10}));
  EXPECT_CONTAINS(input_error([&] { load_idx_dataset(images, labels, "t", 10); }),
                  labels + ": label 10 of item 1 is out of range, expected 0..9");
}

TEST_P(IdxFiles, MissingLabelFile) {
  const std::string images = put("img", testing::idx_images(2, 2, 3, kPixels));
  const std::string labels = dir_ / "absent-labels";
  EXPECT_CONTAINS(input_error([&] { load_idx_dataset(images, labels, "t", 10); }),
                  labels + ": file not found");
}

INSTANTIATE_TEST_SUITE_P(GzipAndRaw, IdxFiles, ::testing::Bool(), testing::gzip_or_raw);

TEST(Idx, CorruptGzipImageFile) {
  testing::TempDir dir;
  Bytes gz = testing::gzip(testing::idx_images(2, 2, 3, kPixels));
  gz[gz.size() - 1] ^= 0x40;  // ISIZE trailer no longer matches the data
  testing::write_file(dir / "img.gz", gz);
  const std::string msg = input_error([&] { read_idx_images(dir / "img.gz"); });
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
