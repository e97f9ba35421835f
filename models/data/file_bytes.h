// Whole-file reading with transparent gzip decompression.
//
// Dataset files come either as the official gzip downloads (MNIST *.gz) or unpacked (CIFAR-10
// *.bin from the tarball, or MNIST after a manual gunzip). The format is detected from the content
// (gzip magic bytes 1f 8b), never from the file name, so `x.gz` holding raw bytes or `x` holding
// gzip data both load.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hermes::data {

// True if `bytes` starts with the gzip magic number (RFC 1952: 0x1f 0x8b).
bool has_gzip_magic(const std::vector<std::uint8_t>& bytes);

// Reads the whole file at `path`; if it is gzip-compressed, returns the decompressed content
// (concatenated gzip members are joined, as gunzip does). Throws hermes::InputError naming the
// file if it is missing or unreadable, or if the gzip data is corrupt, truncated (stream ends
// before the gzip trailer) or followed by bytes that are not another gzip member.
std::vector<std::uint8_t> read_file_maybe_gzip(const std::string& path);

// Decompresses an in-memory gzip stream; `path` only names the source in error messages.
std::vector<std::uint8_t> gunzip_bytes(const std::vector<std::uint8_t>& compressed,
                                       const std::string& path);

}  // namespace hermes::data
