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

// The largest file of the accepted datasets' layouts: MNIST's and Fashion-MNIST's
// train-images-idx3-ubyte, 16 + 60000 x 28 x 28 bytes (a CIFAR-10 batch is 30,730,000). A data
// file, or what it decompresses to, beyond this is refused as soon as that is known, so neither
// /dev/zero nor a gzip bomb can take the memory of the machine.
inline constexpr std::uint64_t kMaxDataFileBytes = 16 + 60000ULL * 28 * 28;

// True if `bytes` starts with the gzip magic number (RFC 1952: 0x1f 0x8b).
bool has_gzip_magic(const std::vector<std::uint8_t>& bytes);

// Reads the whole file at `path`; if it is gzip-compressed, returns the decompressed content
// (concatenated gzip members are joined, as gunzip does). Throws hermes::InputError naming the
// file if it is missing, unreadable, not a regular file (a directory, /dev/zero, a FIFO), larger
// than `max_bytes` or decompressing to more, or if the gzip data is corrupt, truncated (stream
// ends before the gzip trailer) or followed by bytes that are not another gzip member.
std::vector<std::uint8_t> read_file_maybe_gzip(const std::string& path,
                                               std::uint64_t max_bytes = kMaxDataFileBytes);

// The size of the file's content as read_file_maybe_gzip would return it, without keeping it: a
// raw file's size, or what a gzip file decompresses to (inflated in slices and counted, all its
// members). Throws InputError naming the file if it is missing, not a regular file, corrupt gzip,
// or its content is larger than `max_bytes`.
std::uint64_t content_size(const std::string& path, std::uint64_t max_bytes);

// Decompresses an in-memory gzip stream of at most `max_bytes` decompressed; `path` only names
// the source in error messages.
std::vector<std::uint8_t> gunzip_bytes(const std::vector<std::uint8_t>& compressed,
                                       const std::string& path,
                                       std::uint64_t max_bytes = kMaxDataFileBytes);

}  // namespace hermes::data
