#include "models/data/file_bytes.h"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <filesystem>
#include <fstream>
#include <new>
#include <system_error>

#include "sim/common/diagnostics.h"

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

std::vector<std::uint8_t> gunzip_bytes(const std::vector<std::uint8_t>& in,
                                       const std::string& path) {
  std::vector<std::uint8_t> out(output_size_hint(in));
  Inflater inflater;
  z_stream* zs = inflater.get();
  std::size_t in_pos = 0;
  std::size_t out_pos = 0;
  for (;;) {
    if (out_pos == out.size()) out.resize(out.size() * 2);
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

std::vector<std::uint8_t> read_file_maybe_gzip(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st)) throw InputError(path + ": file not found");
  if (fs::is_directory(st)) throw InputError(path + ": expected a data file, found a directory");
  std::ifstream file(path, std::ios::binary);
  if (!file) throw InputError(path + ": cannot open file for reading");
  file.seekg(0, std::ios::end);
  const std::streamoff size = file.tellg();
  file.seekg(0, std::ios::beg);
  if (size < 0) throw InputError(path + ": cannot determine the file size");
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
  if (size > 0 && !file.read(reinterpret_cast<char*>(bytes.data()), size)) {
    throw InputError(path + ": read error");
  }
  if (has_gzip_magic(bytes)) return gunzip_bytes(bytes, path);
  return bytes;
}

}  // namespace hermes::data
