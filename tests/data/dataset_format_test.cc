// read_dataset_part (dataset_format.h) on synthetic files of each format: exact pixel values
// (byte scaling, float32 and float64 taken as they are, channels-last transposed to CHW), the
// array naming of .npz archives, and every refusal, each message naming the file.
#include "models/data/dataset_format.h"

#include <gtest/gtest.h>
#include <zip.h>

#include <bit>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <utility>

#include "tests/support/test_files.h"

namespace hermes::data {
namespace {

using testing::Bytes;
using testing::input_error;
using testing::TempDir;

// ---- Writers of the three formats -------------------------------------------------------------

void append_le(Bytes& b, std::uint64_t v, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void append_be(Bytes& b, std::uint64_t v, std::size_t n) {
  for (std::size_t i = n; i-- > 0;) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

Bytes be_f32(const std::vector<float>& values) {
  Bytes b;
  for (float v : values) append_be(b, std::bit_cast<std::uint32_t>(v), 4);
  return b;
}
Bytes be_f64(const std::vector<double>& values) {
  Bytes b;
  for (double v : values) append_be(b, std::bit_cast<std::uint64_t>(v), 8);
  return b;
}
Bytes le_f32(const std::vector<float>& values) {
  Bytes b;
  for (float v : values) append_le(b, std::bit_cast<std::uint32_t>(v), 4);
  return b;
}
Bytes le_f64(const std::vector<double>& values) {
  Bytes b;
  for (double v : values) append_le(b, std::bit_cast<std::uint64_t>(v), 8);
  return b;
}
// Integers of `n` bytes each, little-endian two's complement.
Bytes le_ints(const std::vector<std::int64_t>& values, std::size_t n) {
  Bytes b;
  for (std::int64_t v : values) append_le(b, static_cast<std::uint64_t>(v), n);
  return b;
}

// An IDX file: magic 0x0000TTDD, the dimensions, then `payload` as it is.
Bytes idx(std::uint8_t type, const std::vector<std::uint32_t>& dims, const Bytes& payload) {
  Bytes b;
  append_be(b, static_cast<std::uint32_t>(type) << 8 | static_cast<std::uint32_t>(dims.size()), 4);
  for (std::uint32_t d : dims) append_be(b, d, 4);
  b.insert(b.end(), payload.begin(), payload.end());
  return b;
}

// An .npy array as np.save writes it: magic, version, header length (2 bytes in 1.0, 4 in 2.0),
// the dict padded with spaces and a newline to a multiple of 64 bytes, then `data`.
Bytes npy(const std::string& descr, const std::string& shape, const Bytes& data, int major = 1,
          bool fortran = false) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                     ", 'shape': " + shape + ", }";
  const std::size_t prefix = major == 1 ? 10 : 12;
  dict += std::string(63 - (prefix + dict.size()) % 64, ' ') + "\n";
  Bytes b = {0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<std::uint8_t>(major), 0};
  append_le(b, dict.size(), major == 1 ? 2 : 4);
  b.insert(b.end(), dict.begin(), dict.end());
  b.insert(b.end(), data.begin(), data.end());
  return b;
}

// A zip archive of the named entries through libzip, each stored or deflated.
void write_zip(const std::string& path, const std::vector<std::pair<std::string, Bytes>>& entries,
               bool deflate) {
  int err = 0;
  zip_t* za = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
  ASSERT_NE(za, nullptr) << "zip_open " << path << ": " << err;
  for (const auto& [name, bytes] : entries) {  // the buffers outlive zip_close below
    zip_source_t* src = zip_source_buffer(za, bytes.data(), bytes.size(), 0);
    ASSERT_NE(src, nullptr);
    const zip_int64_t i = zip_file_add(za, name.c_str(), src, ZIP_FL_ENC_UTF_8);
    ASSERT_GE(i, 0) << zip_strerror(za);
    ASSERT_EQ(zip_set_file_compression(za, static_cast<zip_uint64_t>(i),
                                       deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0),
              0);
  }
  ASSERT_EQ(zip_close(za), 0) << zip_strerror(za);
}

Bytes read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

constexpr std::uint64_t kMax = 1 << 20;

Dataset read(DataFormat f, const std::vector<std::string>& paths, SampleShape shape,
             int classes = 10, const std::string& part = "train", std::uint64_t max = kMax) {
  return read_dataset_part(f, paths, part, "own/" + part, shape, classes, max);
}

TEST(DatasetFormat, Names) {
  EXPECT_EQ(format_name(DataFormat::kIdx), "idx");
  EXPECT_EQ(format_name(DataFormat::kCifarBinary), "cifar-binary");
  EXPECT_EQ(format_name(DataFormat::kNpz), "npz");
}

TEST(DatasetFormat, CallerErrorsAreNotInputErrors) {
  EXPECT_THROW(read(DataFormat::kIdx, {"a", "b"}, {1, 2, 2}, 0), std::invalid_argument);
  EXPECT_THROW(read(DataFormat::kIdx, {"a", "b"}, {1, 2, 2}, 257), std::invalid_argument);
  EXPECT_THROW(read(DataFormat::kIdx, {"a"}, {1, 2, 2}), std::invalid_argument);
  EXPECT_THROW(read(DataFormat::kNpz, {"a", "b"}, {1, 2, 2}), std::invalid_argument);
  EXPECT_THROW(read(DataFormat::kCifarBinary, {"a"}, {0, 2, 2}), std::invalid_argument);
}

// ---- IDX ----------------------------------------------------------------------------------------

TEST(IdxFormat, UnsignedBytesScaleToUnitInterval) {
  TempDir dir;
  const std::string x = dir / "x", y = dir / "y";
  testing::write_file(x, idx(0x08, {2, 2, 3}, {0, 255, 128, 1, 2, 3, 10, 20, 30, 40, 50, 254}));
  testing::write_file(y, testing::idx_labels({3, 7}));
  const Dataset ds = read(DataFormat::kIdx, {x, y}, {1, 2, 3});
  EXPECT_EQ(ds.name, "own/train");
  EXPECT_EQ(ds.channels, 1);
  EXPECT_EQ(ds.height, 2);
  EXPECT_EQ(ds.width, 3);
  EXPECT_EQ(ds.num_classes, 10);
  EXPECT_EQ(ds.labels, (Bytes{3, 7}));
  ASSERT_EQ(ds.pixels.size(), 12u);
  EXPECT_EQ(ds.pixels[0], 0.0f);
  EXPECT_EQ(ds.pixels[1], 1.0f);
  EXPECT_EQ(ds.pixels[2], 128.0f / 255.0f);
  EXPECT_EQ(ds.sample(1)[5], 254.0f / 255.0f);
}

TEST(IdxFormat, GzipCompressedFiles) {
  TempDir dir;
  const std::string x = dir / "x.gz", y = dir / "y.gz";
  testing::write_file(x, testing::gzip(idx(0x08, {1, 1, 2}, {51, 102})));
  testing::write_file(y, testing::gzip(testing::idx_labels({4})));
  const Dataset ds = read(DataFormat::kIdx, {x, y}, {1, 1, 2}, 5);
  EXPECT_EQ(ds.pixels, (std::vector<float>{51.0f / 255.0f, 102.0f / 255.0f}));
  EXPECT_EQ(ds.labels, (Bytes{4}));
}

TEST(IdxFormat, Float32ChannelsFirstTakenAsTheyAre) {
  TempDir dir;
  const std::string x = dir / "x", y = dir / "y";
  // [N, C, H, W] = [2, 2, 1, 2]: CHW already, values kept bit for bit (big-endian in the file).
  const std::vector<float> v = {-1.5f, 0.1f, 1e-7f, 3.0e38f, 0.0f, -0.0f, 7.25f, 1.0f / 3.0f};
  testing::write_file(x, idx(0x0D, {2, 2, 1, 2}, be_f32(v)));
  testing::write_file(y, testing::idx_labels({0, 1}));
  const Dataset ds = read(DataFormat::kIdx, {x, y}, {2, 1, 2}, 2);
  EXPECT_EQ(ds.channels, 2);
  ASSERT_EQ(ds.pixels.size(), v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    EXPECT_EQ(std::bit_cast<std::uint32_t>(ds.pixels[i]), std::bit_cast<std::uint32_t>(v[i])) << i;
  }
}

TEST(IdxFormat, Float64FlatVectorsRoundToFloat) {
  TempDir dir;
  const std::string x = dir / "x", y = dir / "y";
  // [N, D] with D = 3 * 1 * 2: taken in CHW order, each double rounded to the nearest float.
  const std::vector<double> v = {0.1, 1.0 / 3.0, -2.5, 1e-30, 123456789.0, 0.5,
                                 0.7, 1e30,      -0.0, 2.0,   1e-50,       -1.0};
  testing::write_file(x, idx(0x0E, {2, 6}, be_f64(v)));
  testing::write_file(y, testing::idx_labels({2, 0}));
  const Dataset ds = read(DataFormat::kIdx, {x, y}, {3, 1, 2}, 3);
  EXPECT_EQ(ds.channels, 3);
  EXPECT_EQ(ds.sample_dim(), 6u);
  ASSERT_EQ(ds.pixels.size(), v.size());
  for (std::size_t i = 0; i < v.size(); ++i) EXPECT_EQ(ds.pixels[i], static_cast<float>(v[i])) << i;
  EXPECT_EQ(ds.pixels[0], 0.1f);
  EXPECT_EQ(ds.pixels[10], 0.0f);  // 1e-50 underflows to 0, as float(1e-50) does
}

TEST(IdxFormat, WrongMagicOrElementType) {
  TempDir dir;
  const std::string x = dir / "x", y = dir / "y";
  testing::write_file(y, testing::idx_labels({0}));
  testing::write_file(x, idx(0x0C, {1, 1, 1}, {0, 0, 0, 1}));  // int32
  std::string msg = input_error([&] { read(DataFormat::kIdx, {x, y}, {1, 1, 1}); });
  EXPECT_CONTAINS(msg, x + ": not an IDX images file of an accepted kind: magic number "
                           "0x00000C03 (element type int32, 3 dimensions)");
  EXPECT_CONTAINS(msg, "0D (float32)");
  testing::write_file(x, testing::idx_labels({1}));  // labels given as images: 1 dimension
  EXPECT_CONTAINS(input_error([&] {
                    read(DataFormat::kIdx, {x, y}, {1, 1, 1});
                  }),
                  "(element type unsigned byte, 1 dimensions)");
  testing::write_file(x, {0x12, 0x34, 0x56, 0x78});  // not IDX at all
  EXPECT_CONTAINS(input_error([&] {
                    read(DataFormat::kIdx, {x, y}, {1, 1, 1});
                  }),
                  x + ": not an IDX images file of an accepted kind: magic number 0x12345678 "
                      "(not 0x0000TTDD)");
}

TEST(IdxFormat, DimensionsMustGiveTheDeclaredShape) {
  TempDir dir;
  const std::string x = dir / "x", y = dir / "y";
  testing::write_file(y, testing::idx_labels({0}));
  const auto fails = [&](const Bytes& images, SampleShape shape) {
    testing::write_file(x, images);
    return input_error([&] { read(DataFormat::kIdx, {x, y}, shape); });
  };
  EXPECT_CONTAINS(fails(idx(0x08, {1, 2, 3}, Bytes(6)), {1, 3, 2}),
                  x + ": bad image dimensions: expected 3x2, found 2x3");
  EXPECT_CONTAINS(fails(idx(0x08, {1, 2, 3}, Bytes(6)), {3, 2, 3}),
                  x + ": bad image dimensions: [N, H, W] holds one-channel images (2x3), the "
                      "dataset's samples are 3x2x3");
  EXPECT_CONTAINS(fails(idx(0x08, {1, 1, 2, 3}, Bytes(6)), {2, 1, 3}),
                  x + ": bad image dimensions: expected 2x1x3 (channels x height x width), "
                      "found 1x2x3");
  EXPECT_CONTAINS(fails(idx(0x08, {1, 5}, Bytes(5)), {1, 2, 3}),
                  x + ": bad image dimensions: [N, D] holds 5 values per sample, expected 6");
  // A hostile header: huge dimensions never overflow the size computation.
  EXPECT_CONTAINS(
      fails(idx(0x0E, {0xffffffffu, 0x7fffffffu, 0x7fffffffu, 0x7fffffffu}, {}), {1, 1, 1}),
      x + ": truncated IDX images file: the header promises 4294967295 items (more "
          "than");
}

TEST(IdxFormat, CountsLabelsAndTruncation) {
  TempDir dir;
  const std::string x = dir / "x", y = dir / "y";
  testing::write_file(x, idx(0x0D, {2, 1, 1}, be_f32({0.5f, 0.25f})));
  testing::write_file(y, testing::idx_labels({1, 2, 3}));
  EXPECT_CONTAINS(input_error([&] {
                    read(DataFormat::kIdx, {x, y}, {1, 1, 1});
                  }),
                  y + ": label count does not match the images: 3 labels, expected 2 as in " + x);
  testing::write_file(y, testing::idx_labels({1, 4}));
  EXPECT_CONTAINS(input_error([&] {
                    read(DataFormat::kIdx, {x, y}, {1, 1, 1}, 4);
                  }),
                  y + ": label 4 of item 1 is out of range, expected 0..3");
  testing::write_file(x, idx(0x0D, {3, 1, 1}, be_f32({0.5f, 0.25f})));  // promises 3 floats
  EXPECT_CONTAINS(input_error([&] {
                    read(DataFormat::kIdx, {x, y}, {1, 1, 1});
                  }),
                  x + ": truncated IDX images file: the header promises 3 items (28 bytes), "
                      "found 24 bytes");
}

TEST(IdxFormat, NonFiniteValuesAreRefused) {
  TempDir dir;
  const std::string x = dir / "x", y = dir / "y";
  testing::write_file(y, testing::idx_labels({0, 0}));
  testing::write_file(x, idx(0x0D, {2, 2}, be_f32({0, 1, 2, std::nanf("")})));
  EXPECT_CONTAINS(input_error([&] {
                    read(DataFormat::kIdx, {x, y}, {1, 1, 2});
                  }),
                  x + ": float32 value nan of image 1 (value 1 in CHW order) is not finite");
  testing::write_file(x, idx(0x0E, {2, 2}, be_f64({0, 1e300, 2, 3})));
  EXPECT_CONTAINS(input_error([&] {
                    read(DataFormat::kIdx, {x, y}, {1, 1, 2});
                  }),
                  x + ": float64 value 1e+300 of image 0 (value 1 in CHW order) is beyond "
                      "float's range");
}

TEST(IdxFormat, FileLargerThanTheLimit) {
  TempDir dir;
  const std::string x = dir / "x", y = dir / "y";
  testing::write_file(x, idx(0x08, {1, 10, 10}, Bytes(100)));
  testing::write_file(y, testing::idx_labels({0}));
  // The limit is max_file_bytes (file_bytes.h words the message), raw or gzipped.
  EXPECT_CONTAINS(input_error([&] {
                    read(DataFormat::kIdx, {x, y}, {1, 10, 10}, 10, "train", 100);
                  }),
                  "data file '" + x + "' is 116 bytes, larger than the limit of 100 bytes");
  testing::write_file(x, testing::gzip(idx(0x08, {1, 10, 10}, Bytes(100))));
  EXPECT_CONTAINS(input_error([&] {
                    read(DataFormat::kIdx, {x, y}, {1, 10, 10}, 10, "train", 100);
                  }),
                  x + ": decompresses to more than 100 bytes");
  EXPECT_EQ(read(DataFormat::kIdx, {x, y}, {1, 10, 10}, 10, "train", 116).size(), 1u);
}

// ---- CIFAR-binary -------------------------------------------------------------------------------

TEST(CifarBinaryFormat, AnyShapeFilesInOrder) {
  TempDir dir;
  const std::string a = dir / "a.bin", b = dir / "b.bin.gz";
  // 2x1x3 samples: a label byte then 6 pixel bytes, channel planes one after the other.
  testing::write_file(a, {4, 0, 51, 102, 153, 204, 255, /**/ 0, 1, 2, 3, 4, 5, 6});
  testing::write_file(b, testing::gzip({2, 255, 254, 253, 252, 251, 250}));
  const Dataset ds = read(DataFormat::kCifarBinary, {a, b}, {2, 1, 3}, 5, "test");
  EXPECT_EQ(ds.name, "own/test");
  EXPECT_EQ(ds.channels, 2);
  EXPECT_EQ(ds.num_classes, 5);
  EXPECT_EQ(ds.labels, (Bytes{4, 0, 2}));
  ASSERT_EQ(ds.pixels.size(), 18u);
  EXPECT_EQ(ds.sample(0)[1], 51.0f / 255.0f);
  EXPECT_EQ(ds.sample(0)[5], 1.0f);
  EXPECT_EQ(ds.sample(1)[0], 1.0f / 255.0f);
  EXPECT_EQ(ds.sample(2)[0], 1.0f);
  EXPECT_EQ(ds.sample(2)[5], 250.0f / 255.0f);
}

TEST(CifarBinaryFormat, Refusals) {
  TempDir dir;
  const std::string a = dir / "a.bin";
  testing::write_file(a, {1, 2, 3, 4, 5, 6, 7, 8});
  EXPECT_CONTAINS(input_error([&] {
                    read(DataFormat::kCifarBinary, {a}, {1, 2, 3});
                  }),
                  a + ": not a CIFAR-binary batch of 1x2x3 images: 8 bytes (after gunzip), "
                      "expected a non-zero multiple of 7 (1 label byte + 6 pixel bytes per image)");
  testing::write_file(a, {0, 1, 1, 1, 1, 1, 1, 5, 1, 1, 1, 1, 1, 1});
  EXPECT_CONTAINS(input_error([&] {
                    read(DataFormat::kCifarBinary, {a}, {1, 2, 3}, 5);
                  }),
                  a + ": label 5 of record 1 is out of range, expected 0..4");
  const std::string missing = dir / "missing.bin";
  EXPECT_CONTAINS(input_error([&] {
                    read(DataFormat::kCifarBinary, {a, missing}, {1, 2, 3});
                  }),
                  missing + ": file not found");
}

// ---- NumPy .npz ---------------------------------------------------------------------------------

class NpzFormat : public ::testing::TestWithParam<bool> {  // stored (false) or deflated (true)
 protected:
  std::string zip(const std::string& name, const std::vector<std::pair<std::string, Bytes>>& e) {
    const std::string path = dir_ / name;
    write_zip(path, e, GetParam());
    return path;
  }
  TempDir dir_;
};
INSTANTIATE_TEST_SUITE_P(StoredOrDeflated, NpzFormat, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& p) {
                           return p.param ? "deflated" : "stored";
                         });

TEST_P(NpzFormat, Uint8OneChannelLikeKerasMnist) {
  const std::string f =
      zip("mnist.npz", {{"x_train.npy", npy("|u1", "(2, 2, 2)", {0, 255, 51, 1, 2, 3, 4, 5})},
                        {"y_train.npy", npy("|u1", "(2,)", {9, 0})},
                        {"x_test.npy", npy("|u1", "(1, 2, 2)", {7, 7, 7, 7})},
                        {"y_test.npy", npy("<i8", "(1,)", le_ints({3}, 8))}});
  const Dataset train = read(DataFormat::kNpz, {f}, {1, 2, 2});
  EXPECT_EQ(train.labels, (Bytes{9, 0}));
  EXPECT_EQ(train.pixels, (std::vector<float>{0.0f, 1.0f, 0.2f, 1.0f / 255.0f, 2.0f / 255.0f,
                                              3.0f / 255.0f, 4.0f / 255.0f, 5.0f / 255.0f}));
  const Dataset test = read(DataFormat::kNpz, {f}, {1, 2, 2}, 10, "test");
  EXPECT_EQ(test.labels, (Bytes{3}));
  EXPECT_EQ(test.pixels, std::vector<float>(4, 7.0f / 255.0f));
}

TEST_P(NpzFormat, Float32ChannelsLastBecomesChw) {
  // (N, H, W, C) = (2, 2, 2, 3) with value 1000n + 100y + 10x + c: after the transposition,
  // sample n's CHW position c*4 + y*2 + x holds that value. Version 2.0 header.
  std::vector<float> v;
  for (int n = 0; n < 2; ++n)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x)
        for (int c = 0; c < 3; ++c)
          v.push_back(static_cast<float>(1000 * n + 100 * y + 10 * x + c));
  v[1] = 0.1f;  // (n 0, y 0, x 0, c 1), kept bit for bit
  const std::string f = zip("rgb.npz", {{"x.npy", npy("<f4", "(2, 2, 2, 3)", le_f32(v), 2)},
                                        {"y.npy", npy("<i8", "(2, 1)", le_ints({1, 2}, 8), 2)}});
  const Dataset ds = read(DataFormat::kNpz, {f}, {3, 2, 2}, 3);
  EXPECT_EQ(ds.channels, 3);
  EXPECT_EQ(ds.labels, (Bytes{1, 2}));
  ASSERT_EQ(ds.pixels.size(), 24u);
  for (int n = 0; n < 2; ++n)
    for (int c = 0; c < 3; ++c)
      for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 2; ++x) {
          const float want = n == 0 && c == 1 && y == 0 && x == 0
                                 ? 0.1f
                                 : static_cast<float>(1000 * n + 100 * y + 10 * x + c);
          EXPECT_EQ(ds.sample(n)[c * 4 + y * 2 + x], want) << n << c << y << x;
        }
}

TEST_P(NpzFormat, Float64ChannelsFirstAndAmbiguousShapes) {
  // (N, C, H, W) = (1, 2, 1, 3): already CHW; each double rounded to float.
  const std::vector<double> v = {0.1, -0.2, 1.0 / 3.0, 4.0, 1e-45, 6.5};
  std::string f = zip("chw.npz", {{"x_train.npy", npy("<f8", "(1, 2, 1, 3)", le_f64(v))},
                                  {"y_train.npy", npy("<u2", "(1,)", le_ints({1}, 2))}});
  Dataset ds = read(DataFormat::kNpz, {f}, {2, 1, 3}, 2);
  ASSERT_EQ(ds.pixels.size(), 6u);
  for (std::size_t i = 0; i < v.size(); ++i) EXPECT_EQ(ds.pixels[i], static_cast<float>(v[i]));
  // C == H == W: both layouts fit, channels last is taken (element (y, x, c) -> (c, y, x)).
  std::vector<float> hwc(8);
  for (std::size_t i = 0; i < hwc.size(); ++i) hwc[i] = static_cast<float>(i);
  f = zip("cube.npz",
          {{"x.npy", npy("<f4", "(1, 2, 2, 2)", le_f32(hwc))}, {"y.npy", npy("|i1", "(1,)", {0})}});
  ds = read(DataFormat::kNpz, {f}, {2, 2, 2}, 1);
  EXPECT_EQ(ds.pixels, (std::vector<float>{0, 2, 4, 6, 1, 3, 5, 7}));
}

TEST_P(NpzFormat, PartNamesFallBackToPlainXAndY) {
  // x_train beside a plain x: the part's own array wins; the test part falls back to x and y.
  const std::string f = zip("both.npz", {{"x.npy", npy("|u1", "(1, 1, 1)", {255})},
                                         {"x_train.npy", npy("|u1", "(1, 1, 1)", {0})},
                                         {"y.npy", npy("<i4", "(1,)", le_ints({6}, 4))},
                                         {"y_train.npy", npy("<i4", "(1,)", le_ints({5}, 4))}});
  const Dataset train = read(DataFormat::kNpz, {f}, {1, 1, 1});
  EXPECT_EQ(train.pixels, std::vector<float>{0.0f});
  EXPECT_EQ(train.labels, Bytes{5});
  const Dataset test = read(DataFormat::kNpz, {f}, {1, 1, 1}, 10, "test");
  EXPECT_EQ(test.pixels, std::vector<float>{1.0f});
  EXPECT_EQ(test.labels, Bytes{6});
}

TEST_P(NpzFormat, ArrayRefusals) {
  const Bytes y1 = npy("|u1", "(1,)", {0});
  const auto fails = [&](const Bytes& x, const Bytes& y, SampleShape shape = {1, 1, 2}) {
    const std::string f = zip("a.npz", {{"x.npy", x}, {"y.npy", y}});
    const std::string msg = input_error([&] { read(DataFormat::kNpz, {f}, shape); });
    EXPECT_CONTAINS(msg, f + ": ");
    return msg;
  };
  EXPECT_CONTAINS(fails(npy("|u1", "(1, 1, 2)", {1, 2}, 1, true), y1),
                  "x.npy: fortran_order is True (a Fortran-ordered array); accepted: C order");
  EXPECT_CONTAINS(fails(npy("<i4", "(1, 1, 2)", le_ints({1, 2}, 4)), y1),
                  "x.npy: dtype '<i4' is not accepted; accepted: uint8 ('|u1'), float32 ('<f4') "
                  "or float64 ('<f8')");
  EXPECT_CONTAINS(fails(npy(">f4", "(1, 1, 2)", Bytes(8)), y1),
                  "x.npy: dtype '>f4' is big-endian; accepted: uint8");
  EXPECT_CONTAINS(fails(npy("|O", "(1, 1, 2)", Bytes(16)), y1),
                  "x.npy: dtype '|O' (Python objects) is not accepted");
  EXPECT_CONTAINS(fails(npy("|u1", "(1, 1, 2)", {1, 2}), npy("<f4", "(1,)", le_f32({0}))),
                  "y.npy: dtype '<f4' is not accepted; accepted: an integer dtype");
  EXPECT_CONTAINS(fails(npy("|u1", "(1, 2, 1)", {1, 2}), y1),
                  "x.npy: shape (1, 2, 1) does not hold the dataset's 1x1x2 samples "
                  "(channels x height x width); accepted: (N, 1, 2), (N, 1, 2, 1) (channels "
                  "last) or (N, 1, 1, 2) (channels first)");
  EXPECT_CONTAINS(fails(npy("|u1", "(0, 1, 2)", {}), npy("|u1", "(0,)", {})),
                  "x.npy: holds 0 images (0, 1, 2); expected at least 1");
  EXPECT_CONTAINS(fails(npy("|u1", "(2, 1, 2)", {1, 2, 3}), y1),
                  "x.npy: holds 3 data bytes, its header's shape (2, 1, 2) and dtype '|u1' need "
                  "4 (truncated?)");
  EXPECT_CONTAINS(fails(npy("|u1", "(1, 1, 2)", {1, 2}), npy("|u1", "(2,)", {0, 1})),
                  ": label count does not match the images: 2 labels in y.npy, expected 1 as in "
                  "x.npy");
  EXPECT_CONTAINS(fails(npy("|u1", "(1, 1, 2)", {1, 2}), npy("|u1", "(1, 2)", {0, 1})),
                  "y.npy: shape (1, 2) is not accepted for labels; accepted: (N,) or (N, 1)");
  EXPECT_CONTAINS(fails(npy("|u1", "(1, 1, 2)", {1, 2}), npy("<i8", "(1,)", le_ints({-3}, 8))),
                  "y.npy: label -3 of sample 0 is out of range, expected 0..9");
  EXPECT_CONTAINS(
      fails(npy("|u1", "(2, 1, 1)", {1, 2}), npy("<u8", "(2,)", le_ints({1, 10}, 8)), {1, 1, 1}),
      "y.npy: label 10 of sample 1 is out of range, expected 0..9");
  EXPECT_CONTAINS(fails(npy("<f8", "(1, 1, 2)", le_f64({1, -INFINITY})), y1),
                  "x.npy: value -inf of image 0 (element 1 in the array's order) is not finite");
  Bytes v4 = npy("|u1", "(1, 1, 2)", {1, 2});
  v4[6] = 4;
  EXPECT_CONTAINS(fails(v4, y1),
                  "x.npy: .npy format version 4.0 is not accepted; accepted: 1.0, 2.0 and 3.0");
  EXPECT_CONTAINS(fails(Bytes{'P', 'K', 3, 4, 0, 0, 0, 0, 0, 0, 0, 0}, y1),
                  "x.npy: not a .npy array");
  Bytes bad = npy("|u1", "(1, 1, 2)", {1, 2});
  bad[20] = '?';  // inside 'fortran_order'
  EXPECT_CONTAINS(fails(bad, y1), "x.npy: corrupt .npy header");
}

TEST_P(NpzFormat, MissingArrayNamesWhatTheArchiveHolds) {
  const std::string f = zip("m.npz", {{"images.npy", npy("|u1", "(1, 1, 1)", {1})},
                                      {"y_test.npy", npy("|u1", "(1,)", {0})}});
  EXPECT_CONTAINS(input_error([&] {
                    read(DataFormat::kNpz, {f}, {1, 1, 1}, 10, "test");
                  }),
                  f + ": no array x_test or x in the archive (it holds images.npy, y_test.npy); "
                      "expected the images as x_test (else x)");
}

TEST_P(NpzFormat, SizeLimitsOfTheFileAndOfEachArray) {
  // 64 KB of zeros: deflated, the archive is tiny but the entry still decompresses beyond 16 KB.
  const std::string f = zip("big.npz", {{"x.npy", npy("|u1", "(1, 256, 256)", Bytes(65536))},
                                        {"y.npy", npy("|u1", "(1,)", {0})}});
  const std::string msg = input_error([&] {
    read(DataFormat::kNpz, {f}, {1, 256, 256}, 10, "train", 16384);
  });
  EXPECT_CONTAINS(msg, f + (GetParam() ? ": x.npy: decompresses to " : ": "));
  EXPECT_CONTAINS(msg, "larger than the limit of 16 kB (16384 bytes)");
  EXPECT_EQ(read(DataFormat::kNpz, {f}, {1, 256, 256}, 10, "train", 1 << 17).size(), 1u);
}

TEST(NpzFile, NotAZipArchive) {
  TempDir dir;
  const std::string f = dir / "x.npz";
  testing::write_file(f, testing::idx_labels({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}));
  EXPECT_CONTAINS(input_error([&] {
                    read(DataFormat::kNpz, {f}, {1, 1, 1});
                  }),
                  f + ": not a zip archive; an .npz file is one");
  testing::write_file(f, testing::gzip(Bytes(100)));
  EXPECT_CONTAINS(input_error([&] {
                    read(DataFormat::kNpz, {f}, {1, 1, 1});
                  }),
                  f + ": not a zip archive; an .npz file is one, as np.savez and "
                      "np.savez_compressed write it (this is gzip data");
  testing::write_file(f, {});
  EXPECT_CONTAINS(input_error([&] {
                    read(DataFormat::kNpz, {f}, {1, 1, 1});
                  }),
                  f + ": not a zip archive");
  EXPECT_CONTAINS(input_error([&] {
                    read(DataFormat::kNpz, {dir / "none.npz"}, {1, 1, 1});
                  }),
                  dir / "none.npz" + ": file not found");
  EXPECT_CONTAINS(input_error([&] {
                    read(DataFormat::kNpz, {dir.str()}, {1, 1, 1});
                  }),
                  dir.str() + ": is a directory, not a regular file");
}

TEST(NpzFile, CorruptEntryFailsItsCrc) {
  TempDir dir;
  const std::string f = dir / "c.npz";
  write_zip(
      f, {{"x.npy", npy("|u1", "(1, 1, 4)", {10, 20, 30, 40})}, {"y.npy", npy("|u1", "(1,)", {0})}},
      false);
  Bytes bytes = read_file(f);
  // Flip the stored pixel 30: the entry still parses, but its CRC-32 no longer matches.
  for (std::size_t i = 0; i + 4 <= bytes.size(); ++i) {
    if (bytes[i] == 10 && bytes[i + 1] == 20 && bytes[i + 2] == 30 && bytes[i + 3] == 40) {
      bytes[i + 2] = 31;
      break;
    }
  }
  testing::write_file(f, bytes);
  EXPECT_CONTAINS(input_error([&] {
                    read(DataFormat::kNpz, {f}, {1, 1, 4});
                  }),
                  f + ": x.npy: corrupt zip entry: CRC error");
}

// ---- Counting samples without the images ------------------------------------------------------

// count_part_samples gives what read_dataset_part's result holds, for each format.
TEST(SampleCount, EachFormatCountsWhatItsReaderReads) {
  TempDir dir;
  const std::string x = dir / "x", y = dir / "y.gz";
  testing::write_file(x, idx(0x08, {3, 1, 2}, {0, 1, 2, 3, 4, 5}));
  testing::write_file(y, testing::gzip(idx(0x08, {3}, {0, 1, 2})));
  EXPECT_EQ(count_part_samples(DataFormat::kIdx, {x, y}, "train", {1, 1, 2}, kMax), 3u);
  EXPECT_EQ(read(DataFormat::kIdx, {x, y}, {1, 1, 2}).size(), 3u);

  // CIFAR-binary: a raw batch, then a gzip batch of two members (each counted, as gunzip joins
  // them): 2 + 3 records of 1 + 2 bytes.
  const std::string a = dir / "a.bin", b = dir / "b.bin.gz";
  testing::write_file(a, {1, 9, 9, 2, 8, 8});
  Bytes two_members = testing::gzip({3, 7, 7, 4, 6, 6});
  const Bytes second = testing::gzip({0, 5, 5});
  two_members.insert(two_members.end(), second.begin(), second.end());
  testing::write_file(b, two_members);
  EXPECT_EQ(count_part_samples(DataFormat::kCifarBinary, {a, b}, "test", {2, 1, 1}, kMax), 5u);
  EXPECT_EQ(read(DataFormat::kCifarBinary, {a, b}, {2, 1, 1}).size(), 5u);

  // npz: the part's labels array, (N,) or (N, 1).
  const std::string f = dir / "d.npz";
  write_zip(f,
            {{"x_train.npy", npy("|u1", "(2, 1, 1)", {1, 2})},
             {"y_train.npy", npy("<i8", "(2, 1)", le_ints({0, 1}, 8))},
             {"x_test.npy", npy("|u1", "(1, 1, 1)", {3})},
             {"y_test.npy", npy("|u1", "(1,)", {2})}},
            true);
  EXPECT_EQ(count_part_samples(DataFormat::kNpz, {f}, "train", {1, 1, 1}, kMax), 2u);
  EXPECT_EQ(count_part_samples(DataFormat::kNpz, {f}, "test", {1, 1, 1}, kMax), 1u);
  EXPECT_THROW(count_part_samples(DataFormat::kNpz, {f, f}, "test", {1, 1, 1}, kMax),
               std::invalid_argument);
}

TEST(SampleCount, WhatTheReaderWouldRefuseIsRefusedNamingTheFile) {
  TempDir dir;
  const std::string y = dir / "y";
  testing::write_file(y, idx(0x08, {3}, {0, 1}));  // promises 3 labels, holds 2
  EXPECT_CONTAINS(input_error([&] {
                    count_part_samples(DataFormat::kIdx, {dir / "x", y}, "train", {1, 1, 1}, kMax);
                  }),
                  y + ": truncated IDX labels file");
  const std::string a = dir / "a.bin";
  testing::write_file(a, {1, 9, 9, 2});
  EXPECT_CONTAINS(input_error([&] {
                    count_part_samples(DataFormat::kCifarBinary, {a}, "train", {2, 1, 1}, kMax);
                  }),
                  a + ": not a CIFAR-binary batch of 2x1x1 images: 4 bytes (after gunzip), "
                      "expected a non-zero multiple of 3");
  const std::string f = dir / "d.npz";
  write_zip(f,
            {{"x.npy", npy("|u1", "(1, 1, 1)", {1})}, {"y.npy", npy("<f4", "(1,)", le_f32({0}))}},
            false);
  EXPECT_CONTAINS(input_error([&] {
                    count_part_samples(DataFormat::kNpz, {f}, "train", {1, 1, 1}, kMax);
                  }),
                  f + ": y.npy: dtype '<f4'");
}

}  // namespace
}  // namespace hermes::data
