// NumPy's .npy arrays (numpy.lib.format, versions 1.0, 2.0 and 3.0): the header, parsed strictly
// as NumPy writes it, and the exact size of the data it promises. What an .npz archive holds per
// array (npz.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hermes::data {

struct Npy {
  std::string descr;
  char kind = 0;  // 'u', 'i', 'f', ... (NumPy's dtype.kind)
  std::size_t itemsize = 0;
  std::vector<std::uint64_t> shape;
  std::size_t data_offset = 0;  // where the elements start in the entry's bytes
  std::size_t count = 0;        // elements
};

// "(2, 3)", "(5,)".
std::string shape_text(const std::vector<std::uint64_t>& shape);
// The little-endian unsigned integer of n bytes at p.
std::uint64_t read_le(const std::uint8_t* p, std::size_t n);

// The header and the exact data size of the .npy array `b`; `ok` decides which (kind, itemsize)
// the caller takes, `accepted` says so in messages. Throws InputError starting with `where`.
Npy parse_npy(const std::vector<std::uint8_t>& b, const std::string& where,
              bool (*ok)(char kind, std::size_t itemsize), const std::string& accepted);

}  // namespace hermes::data
