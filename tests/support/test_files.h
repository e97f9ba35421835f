// Helpers for the data, sweep and file tests: temp directories, gzip via zlib, synthetic IDX /
// CIFAR-10 files, scoped environment variables and InputError message capture.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/diagnostics.h"

namespace hermes::data::testing {

using Bytes = std::vector<std::uint8_t>;

// A fresh directory under the system temp dir, removed with everything in it on destruction.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("hermes-data-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string str() const { return path_.string(); }
  std::string operator/(const std::string& rel) const { return (path_ / rel).string(); }

 private:
  std::filesystem::path path_;
};

inline void write_file(const std::string& path, const Bytes& bytes) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path);
}

// One gzip member (RFC 1952) of `raw`, as gzip(1) would write it.
inline Bytes gzip(const Bytes& raw) {
  z_stream zs{};
  if (deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("deflateInit2 failed");
  }
  Bytes out(deflateBound(&zs, static_cast<uLong>(raw.size())) + 32);
  zs.next_in = const_cast<Bytef*>(raw.data());
  zs.avail_in = static_cast<uInt>(raw.size());
  zs.next_out = out.data();
  zs.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) throw std::runtime_error("deflate failed");
  return out;
}

inline void append_be32(Bytes& b, std::uint32_t v) {
  b.push_back(static_cast<std::uint8_t>(v >> 24));
  b.push_back(static_cast<std::uint8_t>(v >> 16));
  b.push_back(static_cast<std::uint8_t>(v >> 8));
  b.push_back(static_cast<std::uint8_t>(v));
}

inline Bytes idx_images(std::uint32_t count, std::uint32_t rows, std::uint32_t cols,
                        const Bytes& pixels, std::uint32_t magic = 2051) {
  Bytes b;
  append_be32(b, magic);
  append_be32(b, count);
  append_be32(b, rows);
  append_be32(b, cols);
  b.insert(b.end(), pixels.begin(), pixels.end());
  return b;
}

inline Bytes idx_labels(const Bytes& labels, std::uint32_t magic = 2049) {
  Bytes b;
  append_be32(b, magic);
  append_be32(b, static_cast<std::uint32_t>(labels.size()));
  b.insert(b.end(), labels.begin(), labels.end());
  return b;
}

// Deterministic synthetic pixel byte for image i, position p.
inline std::uint8_t pattern_byte(std::size_t i, std::size_t p) {
  return static_cast<std::uint8_t>((i * 37 + p * 11) % 256);
}

// CIFAR-10 records: label, then 3072 pixel bytes from pattern_byte(first_index + r, p).
inline Bytes cifar_records(const Bytes& labels, std::size_t first_index = 0) {
  Bytes b;
  for (std::size_t r = 0; r < labels.size(); ++r) {
    b.push_back(labels[r]);
    for (std::size_t p = 0; p < 3072; ++p) b.push_back(pattern_byte(first_index + r, p));
  }
  return b;
}

// A complete synthetic MNIST-layout directory <root>/<subdir>/ with 28x28 images: `n_train`
// training images and `n_test` test images (labels i % 10), gzip-compressed or raw.
inline void write_idx_dataset(const std::string& root, const std::string& subdir,
                              std::size_t n_train, std::size_t n_test, bool gz) {
  const std::string dir = root + "/" + subdir + "/";
  auto put = [&](const std::string& name, const Bytes& raw) {
    write_file(dir + name + (gz ? ".gz" : ""), gz ? gzip(raw) : raw);
  };
  for (const auto& [prefix, n] : {std::pair<std::string, std::size_t>{"train", n_train},
                                  std::pair<std::string, std::size_t>{"t10k", n_test}}) {
    Bytes pixels, labels;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t p = 0; p < 784; ++p) pixels.push_back(pattern_byte(i, p));
      labels.push_back(static_cast<std::uint8_t>(i % 10));
    }
    put(prefix + "-images-idx3-ubyte", idx_images(static_cast<std::uint32_t>(n), 28, 28, pixels));
    put(prefix + "-labels-idx1-ubyte", idx_labels(labels));
  }
}

// A complete synthetic <root>/cifar-10/ with `per_batch` records in each of the six batches.
inline void write_cifar_dataset(const std::string& root, std::size_t per_batch, bool gz) {
  const std::vector<std::string> names = {"data_batch_1.bin", "data_batch_2.bin",
                                          "data_batch_3.bin", "data_batch_4.bin",
                                          "data_batch_5.bin", "test_batch.bin"};
  for (std::size_t f = 0; f < names.size(); ++f) {
    Bytes labels;
    for (std::size_t r = 0; r < per_batch; ++r) {
      labels.push_back(static_cast<std::uint8_t>((f + r) % 10));
    }
    const Bytes raw = cifar_records(labels, f * per_batch);
    write_file(root + "/cifar-10/" + names[f] + (gz ? ".gz" : ""), gz ? gzip(raw) : raw);
  }
}

// Sets (or unsets, with nullopt) an environment variable for the scope, then restores it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) {
      ::setenv(name, value->c_str(), 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// what() of the hermes::InputError `fn` throws; a test failure (and "") if it throws nothing.
// A suite parameterised on gzip (true) or raw (false) files, with a temporary directory.
class GzipOrRawFiles : public ::testing::TestWithParam<bool> {
 protected:
  // Writes `raw` (gzip-compressed if the parameter says so, named NAME.gz) and returns its path.
  std::string put(const std::string& name, const Bytes& raw) {
    const std::string path = dir_ / (name + (GetParam() ? ".gz" : ""));
    write_file(path, GetParam() ? gzip(raw) : raw);
    return path;
  }
  TempDir dir_;
};

// Names the two instances of a suite parameterised on gzip (true) or raw (false) files.
inline std::string gzip_or_raw(const ::testing::TestParamInfo<bool>& p) {
  return p.param ? "gzip" : "raw";
}

inline std::string input_error(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected hermes::InputError, nothing was thrown";
  return "";
}

// EXPECT_CONTAINS(text, part): prints both strings when `part` is not in `text`.
inline ::testing::AssertionResult assert_contains(const char* text_expr, const char* part_expr,
                                                  const std::string& text,
                                                  const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << text_expr << " does not contain " << part_expr
                                       << "\n  text: " << text << "\n  part: " << part;
}

}  // namespace hermes::data::testing

#define EXPECT_CONTAINS(text, part) \
  EXPECT_PRED_FORMAT2(::hermes::data::testing::assert_contains, text, part)
