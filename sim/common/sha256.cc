// SHA-256 through OpenSSL's EVP digest interface, streaming files in 1 MiB chunks.
#include "sim/common/sha256.h"

#include <openssl/evp.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <vector>

#include "base/diagnostics.h"

namespace hermes {

namespace {

constexpr std::size_t kChunk = std::size_t{1} << 20;

// One SHA-256 computation: init on construction, update, hex digest at the end.
class Sha256 {
 public:
  Sha256() : ctx_(EVP_MD_CTX_new(), &EVP_MD_CTX_free) {
    if (!ctx_ || EVP_DigestInit_ex(ctx_.get(), EVP_sha256(), nullptr) != 1) {
      throw std::runtime_error("OpenSSL: cannot initialise SHA-256");
    }
  }
  void update(const void* data, std::size_t size) {
    if (EVP_DigestUpdate(ctx_.get(), data, size) != 1) {
      throw std::runtime_error("OpenSSL: SHA-256 update failed");
    }
  }
  std::string hex() {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_DigestFinal_ex(ctx_.get(), md, &len) != 1) {
      throw std::runtime_error("OpenSSL: SHA-256 final failed");
    }
    static const char* const kDigits = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < len; ++i) {
      out += kDigits[md[i] >> 4];
      out += kDigits[md[i] & 0xf];
    }
    return out;
  }

 private:
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx_;
};

}  // namespace

FileDigest sha256_file(const std::string& path) {
  // Only a regular file: a FIFO would wait for a writer for ever, /dev/zero never end.
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!ec && status.type() != std::filesystem::file_type::regular &&
      status.type() != std::filesystem::file_type::not_found) {
    throw InputError(path + ": cannot compute its checksum: not a regular file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open for its checksum: " + std::strerror(errno));
  Sha256 sha;
  FileDigest digest;
  std::vector<char> buf(kChunk);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    const auto n = static_cast<std::size_t>(in.gcount());
    sha.update(buf.data(), n);
    digest.bytes += n;
  }
  if (in.bad()) throw InputError(path + ": read error while computing its checksum");
  digest.sha256 = sha.hex();
  return digest;
}

std::string sha256_hex(std::string_view data) {
  Sha256 sha;
  sha.update(data.data(), data.size());
  return sha.hex();
}

}  // namespace hermes
