#include "models/data/file_bytes.h"

#include <zlib.h>

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <new>
#include <system_error>

#include "base/diagnostics.h"
#include "base/file_read.h"
#include "base/number_text.h"

namespace hermes::data {
namespace {

// zlib counts in uInt (32 bits): feed and drain large buffers in slices no larger than this.
constexpr std::size_t kZlibSlice = std::size_t{1} << 30;

// Owns a z_stream so that every exit path (including throws) releases zlib's state.
class Inflater {
 public:
  Inflater() {
    // 16 + MAX_WBITS: expect a gzip wrapper and verify its CRC-32 and length trailer.
    if (inflateInit2(&zs_, 16 + MAX_WBITS) != Z_OK) throw std::bad_alloc();
  }
  ~Inflater() { inflateEnd(&zs_); }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  z_stream* get() { return &zs_; }

 private:
  z_stream zs_{};
};

// The gzip trailer's ISIZE (uncompressed length mod 2^32) sizes the output buffer in one go for
// the usual single-member file. It is only a hint: capped by deflate's maximum ratio (~1032:1) so
// a corrupt trailer cannot make us allocate gigabytes for a tiny file.
std::size_t output_size_hint(const std::vector<std::uint8_t>& in) {
  if (in.size() < 18) return 4096;
  const std::size_t n = in.size();
  const std::size_t isize =
      static_cast<std::size_t>(in[n - 4]) | static_cast<std::size_t>(in[n - 3]) << 8 |
      static_cast<std::size_t>(in[n - 2]) << 16 | static_cast<std::size_t>(in[n - 1]) << 24;
  return std::max<std::size_t>(4096, std::min(isize, n * 1032));
}

}  // namespace

bool has_gzip_magic(const std::vector<std::uint8_t>& bytes) {
  return bytes.size() >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b;
}

std::vector<std::uint8_t> gunzip_bytes(const std::vector<std::uint8_t>& in, const std::string& path,
                                       std::uint64_t max_bytes) {
  // One byte beyond the limit shows that the content is larger than it.
  const auto cap = static_cast<std::size_t>(std::min<std::uint64_t>(max_bytes, SIZE_MAX - 1) + 1);
  std::vector<std::uint8_t> out(std::min(output_size_hint(in), cap));
  Inflater inflater;
  z_stream* zs = inflater.get();
  std::size_t in_pos = 0;
  std::size_t out_pos = 0;
  for (;;) {
    if (out_pos == out.size()) {
      if (out.size() >= cap) {
        throw InputError(path + ": decompresses to more than " +
                         byte_text(static_cast<double>(max_bytes)) + " (" +
                         std::to_string(max_bytes) +
                         " bytes, the largest dataset file accepted here): not a dataset file "
                         "(a gzip bomb?)");
      }
      out.resize(std::min(out.size() * 2, cap));
    }
    const std::size_t in_slice = std::min(in.size() - in_pos, kZlibSlice);
    const std::size_t out_slice = std::min(out.size() - out_pos, kZlibSlice);
    zs->next_in = const_cast<Bytef*>(in.data() + in_pos);  // zlib's API is not const-correct
    zs->avail_in = static_cast<uInt>(in_slice);
    zs->next_out = out.data() + out_pos;
    zs->avail_out = static_cast<uInt>(out_slice);
    const int rc = inflate(zs, Z_NO_FLUSH);
    in_pos += in_slice - zs->avail_in;
    out_pos += out_slice - zs->avail_out;
    if (rc == Z_STREAM_END) {
      if (in_pos == in.size()) break;
      // gzip allows several members back to back (RFC 1952 section 2.2); gunzip joins them.
      if (in.size() - in_pos >= 2 && in[in_pos] == 0x1f && in[in_pos + 1] == 0x8b) {
        inflateReset(zs);
        continue;
      }
      throw InputError(path + ": corrupt gzip file: " + std::to_string(in.size() - in_pos) +
                       " unexpected bytes after the end of the gzip stream at byte " +
                       std::to_string(in_pos));
    }
    if (rc == Z_OK) continue;
    if (rc == Z_BUF_ERROR && in_pos < in.size()) continue;  // output was full; grow and go on
    if (rc == Z_BUF_ERROR) {
      throw InputError(path + ": corrupt gzip file: truncated (the compressed stream ends after " +
                       std::to_string(in.size()) + " bytes, before the gzip trailer)");
    }
    if (rc == Z_MEM_ERROR) throw std::bad_alloc();
    throw InputError(
        path + ": corrupt gzip file: " +
        (zs->msg != nullptr ? std::string(zs->msg) : "zlib error " + std::to_string(rc)) +
        " (at compressed byte " + std::to_string(in_pos) + ")");
  }
  out.resize(out_pos);
  return out;
}

namespace {

InputError too_large(const std::string& path, std::uint64_t max_bytes) {
  return InputError(path + ": holds more than " + byte_text(static_cast<double>(max_bytes)) + " (" +
                    std::to_string(max_bytes) +
                    " bytes, the largest dataset file accepted here): not a dataset file");
}

}  // namespace

std::uint64_t content_size(const std::string& path, std::uint64_t max_bytes) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) {
    throw InputError(path + ": file not found");
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    throw InputError(path + ": cannot read: " + std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    throw InputError(path + ": not a regular file (" + special_file_kind(st.st_mode) + ")");
  }
  const std::unique_ptr<gzFile_s, int (*)(gzFile)> file(gzopen(path.c_str(), "rb"), gzclose);
  if (!file) throw InputError(path + ": cannot read: " + std::strerror(errno));
  constexpr unsigned kSlice = 1u << 18;
  std::vector<std::uint8_t> slice(kSlice);
  std::uint64_t total = 0;
  for (;;) {
    const int n = gzread(file.get(), slice.data(), kSlice);
    int code = Z_OK;
    const char* message = gzerror(file.get(), &code);
    if (n < 0 || (code != Z_OK && code != Z_STREAM_END)) {
      throw InputError(path + ": corrupt gzip file: " + std::string(message));
    }
    if (n == 0) return total;
    // Not gzip: zlib reads it as it is, and its size is the file's.
    if (gzdirect(file.get()) == 1) {
      const auto size = static_cast<std::uint64_t>(st.st_size);
      if (size > max_bytes) throw too_large(path, max_bytes);
      return size;
    }
    total += static_cast<std::uint64_t>(n);
    if (total > max_bytes) throw too_large(path, max_bytes);
  }
}

std::vector<std::uint8_t> read_file_maybe_gzip(const std::string& path, std::uint64_t max_bytes) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) {
    throw InputError(path + ": file not found");
  }
  // Regular files of bounded size only (file_read.h): a directory, /dev/zero or a FIFO is refused.
  std::vector<std::uint8_t> bytes = read_regular_file_bytes(path, max_bytes, "data file");
  if (has_gzip_magic(bytes)) return gunzip_bytes(bytes, path, max_bytes);
  return bytes;
}

}  // namespace hermes::data
