// SHA-256 checksums (OpenSSL libcrypto's EVP API) of the files a run read, for provenance.json.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace hermes {

struct FileDigest {
  std::uint64_t bytes = 0;  // the file's size: every byte was read and hashed
  std::string sha256;       // 64 lower-case hex digits
};

// Reads `path` in chunks. Throws InputError naming the file if it cannot be read.
FileDigest sha256_file(const std::string& path);

// The SHA-256 of `data`, as 64 lower-case hex digits.
std::string sha256_hex(std::string_view data);

}  // namespace hermes
