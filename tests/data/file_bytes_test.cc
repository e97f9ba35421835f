// Whole-file reading with gzip detection by content.
#include "models/data/file_bytes.h"

#include <gtest/gtest.h>

#include "tests/support/test_files.h"

namespace hermes::data {
namespace {

using testing::Bytes;
using testing::input_error;
using testing::TempDir;

Bytes sample_bytes(std::size_t n) {
  Bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>((i * 7 + i / 13) % 256);
  return b;
}

TEST(FileBytes, RawFileIsReturnedAsIs) {
  TempDir dir;
  const Bytes raw = sample_bytes(1000);
  testing::write_file(dir / "x", raw);
  EXPECT_EQ(read_file_maybe_gzip(dir / "x"), raw);
}

TEST(FileBytes, GzipIsDetectedByContentNotName) {
  TempDir dir;
  const Bytes raw = sample_bytes(100000);
  testing::write_file(dir / "compressed_without_suffix", testing::gzip(raw));
  testing::write_file(dir / "raw_with_suffix.gz", raw);
  EXPECT_EQ(read_file_maybe_gzip(dir / "compressed_without_suffix"), raw);
  EXPECT_EQ(read_file_maybe_gzip(dir / "raw_with_suffix.gz"), raw);
}

TEST(FileBytes, EmptyGzipMemberAndEmptyFile) {
  TempDir dir;
  testing::write_file(dir / "empty.gz", testing::gzip({}));
  testing::write_file(dir / "empty", {});
  EXPECT_TRUE(read_file_maybe_gzip(dir / "empty.gz").empty());
  EXPECT_TRUE(read_file_maybe_gzip(dir / "empty").empty());
}

TEST(FileBytes, ConcatenatedMembersAreJoinedLikeGunzip) {
  const Bytes a = sample_bytes(5000);
  const Bytes b = {1, 2, 3};
  Bytes both = testing::gzip(a);
  const Bytes gz_b = testing::gzip(b);
  both.insert(both.end(), gz_b.begin(), gz_b.end());
  Bytes expected = a;
  expected.insert(expected.end(), b.begin(), b.end());
  EXPECT_EQ(gunzip_bytes(both, "both.gz"), expected);
}

TEST(FileBytes, OutputLargerThanTheTrailerHintStillDecodes) {
  // A corrupt-looking ISIZE is only a hint: two members make the hint (the last member's size)
  // far smaller than the output, so the buffer has to grow.
  const Bytes big = sample_bytes(300000);
  Bytes both = testing::gzip(big);
  const Bytes tiny = testing::gzip({42});
  both.insert(both.end(), tiny.begin(), tiny.end());
  const Bytes out = gunzip_bytes(both, "x.gz");
  ASSERT_EQ(out.size(), 300001u);
  EXPECT_EQ(out.back(), 42);
  EXPECT_TRUE(std::equal(big.begin(), big.end(), out.begin()));
}

TEST(FileBytes, MissingFileNamesThePath) {
  TempDir dir;
  const std::string msg = input_error([&] { read_file_maybe_gzip(dir / "nope.gz"); });
  EXPECT_CONTAINS(msg, dir / "nope.gz");
  EXPECT_CONTAINS(msg, "file not found");
}

TEST(FileBytes, DirectoryIsRejected) {
  TempDir dir;
  EXPECT_CONTAINS(input_error([&] { read_file_maybe_gzip(dir.str()); }), "directory");
}

TEST(FileBytes, SpecialFilesAndOversizedContentAreRefusedBeforeTheyFillMemory) {
  TempDir dir;
  std::filesystem::create_symlink("/dev/zero", dir / "zero");
  EXPECT_CONTAINS(input_error([&] { read_file_maybe_gzip(dir / "zero"); }),
                  "is a character device, not a regular file");
  testing::write_file(dir / "big", Bytes(2000, 7));
  EXPECT_CONTAINS(input_error([&] { read_file_maybe_gzip(dir / "big", 1000); }),
                  "is 2.0 kB (2000 bytes), larger than the limit of 1.0 kB (1000 bytes)");
  // A gzip bomb: a little compressed data that inflates far beyond the limit.
  const Bytes bomb = testing::gzip(Bytes(1 << 20, 0));
  ASSERT_LT(bomb.size(), 5000u);
  EXPECT_CONTAINS(input_error([&] { gunzip_bytes(bomb, "bomb.gz", 100000); }),
                  "bomb.gz: decompresses to more than 100 kB (100000 bytes");
  EXPECT_EQ(gunzip_bytes(bomb, "ok.gz", 1 << 20).size(), std::size_t{1} << 20);
}

TEST(FileBytes, CorruptDeflateDataIsReported) {
  TempDir dir;
  Bytes gz = testing::gzip(sample_bytes(20000));
  // Past the 10-byte header, overwrite a stretch of the deflate stream with garbage.
  for (std::size_t i = 20; i < 60; ++i) gz[i] = 0xff;
  testing::write_file(dir / "bad.gz", gz);
  const std::string msg = input_error([&] { read_file_maybe_gzip(dir / "bad.gz"); });
  EXPECT_CONTAINS(msg, dir / "bad.gz");
  EXPECT_CONTAINS(msg, "corrupt gzip");
}

TEST(FileBytes, CrcMismatchIsReported) {
  Bytes gz = testing::gzip(sample_bytes(1000));
  gz[gz.size() - 8] ^= 0x01;  // first byte of the CRC-32 trailer
  const std::string msg = input_error([&] { gunzip_bytes(gz, "crc.gz"); });
  EXPECT_CONTAINS(msg, "crc.gz: corrupt gzip");
  EXPECT_CONTAINS(msg, "incorrect data check");
}

TEST(FileBytes, TruncatedGzipIsReported) {
  TempDir dir;
  Bytes gz = testing::gzip(sample_bytes(20000));
  gz.resize(gz.size() / 2);
  testing::write_file(dir / "short.gz", gz);
  const std::string msg = input_error([&] { read_file_maybe_gzip(dir / "short.gz"); });
  EXPECT_CONTAINS(msg, dir / "short.gz");
  EXPECT_CONTAINS(msg, "truncated");
}

TEST(FileBytes, TrailingGarbageAfterTheStreamIsReported) {
  Bytes gz = testing::gzip(sample_bytes(100));
  gz.push_back(0);
  gz.push_back(7);
  const std::string msg = input_error([&] { gunzip_bytes(gz, "tail.gz"); });
  EXPECT_CONTAINS(msg, "2 unexpected bytes after the end of the gzip stream");
}

TEST(FileBytes, MagicDetection) {
  EXPECT_TRUE(has_gzip_magic({0x1f, 0x8b, 8}));
  EXPECT_FALSE(has_gzip_magic({0x1f}));
  EXPECT_FALSE(has_gzip_magic({0x00, 0x00, 0x08, 0x03}));  // an IDX header
}

// content_size counts what read_file_maybe_gzip would return without keeping it.
TEST(ContentSize, RawAndGzipOfOneOrSeveralMembers) {
  TempDir dir;
  const Bytes big = sample_bytes(700000);  // more than one slice of the counter
  testing::write_file(dir / "raw", big);
  Bytes two = testing::gzip(big);
  const Bytes tail = testing::gzip({1, 2, 3});
  two.insert(two.end(), tail.begin(), tail.end());
  testing::write_file(dir / "two.gz", two);
  testing::write_file(dir / "empty", {});
  EXPECT_EQ(content_size(dir / "raw", kMaxDataFileBytes), 700000u);
  EXPECT_EQ(content_size(dir / "two.gz", kMaxDataFileBytes), 700003u);
  EXPECT_EQ(content_size(dir / "empty", kMaxDataFileBytes), 0u);
  EXPECT_EQ(content_size(dir / "two.gz", kMaxDataFileBytes),
            read_file_maybe_gzip(dir / "two.gz").size());
}

TEST(ContentSize, RefusalsNameTheFile) {
  TempDir dir;
  EXPECT_CONTAINS(input_error([&] { content_size(dir / "absent", 100); }),
                  dir / "absent" + ": file not found");
  EXPECT_CONTAINS(input_error([&] { content_size(dir.str(), 100); }), "not a regular file");
  testing::write_file(dir / "raw", sample_bytes(101));
  EXPECT_CONTAINS(input_error([&] { content_size(dir / "raw", 100); }),
                  dir / "raw" + ": holds more than 100 bytes");
  testing::write_file(dir / "big.gz", testing::gzip(sample_bytes(5000)));
  EXPECT_CONTAINS(input_error([&] { content_size(dir / "big.gz", 4999); }),
                  dir / "big.gz" + ": holds more than");
  Bytes cut = testing::gzip(sample_bytes(5000));
  cut.resize(cut.size() / 2);
  testing::write_file(dir / "cut.gz", cut);
  EXPECT_CONTAINS(input_error([&] { content_size(dir / "cut.gz", kMaxDataFileBytes); }),
                  dir / "cut.gz" + ": corrupt gzip file");
}

}  // namespace
}  // namespace hermes::data
