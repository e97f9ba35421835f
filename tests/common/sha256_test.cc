// SHA-256: the FIPS 180-2 test vectors, in memory and from files spanning several read chunks.
#include "sim/common/sha256.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "base/diagnostics.h"

namespace hermes {
namespace {

namespace fs = std::filesystem;

const char* const kEmpty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const char* const kAbc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
const char* const kMillionA = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256_hex(""), kEmpty);
  EXPECT_EQ(sha256_hex("abc"), kAbc);
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')), kMillionA);
}

TEST(Sha256, FilesOfEverySize) {
  const fs::path dir = fs::temp_directory_path() / ("hermes-sha-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name, std::ios::binary) << text;
    return (dir / name).string();
  };
  const FileDigest empty = sha256_file(write("empty", ""));
  EXPECT_EQ(empty.bytes, 0u);
  EXPECT_EQ(empty.sha256, kEmpty);
  EXPECT_EQ(sha256_file(write("abc", "abc")).sha256, kAbc);
  const std::string big(4000000, 'a');  // three 1 MiB read chunks, then a partial one
  const FileDigest d = sha256_file(write("big", big));
  EXPECT_EQ(d.bytes, 4000000u);
  EXPECT_EQ(d.sha256, sha256_hex(big));
  fs::remove_all(dir);
}

TEST(Sha256, AMissingFileIsAnInputErrorNamingIt) {
  try {
    sha256_file("/nonexistent/hermes/file.gz");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/hermes/file.gz: cannot open"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace hermes
