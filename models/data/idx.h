// IDX files (the MNIST / Fashion-MNIST format, http://yann.lecun.com/exdb/mnist/).
//
// Big-endian header: a 32-bit magic number 0x0000TTDD, TT the element type (0x08 unsigned byte,
// 0x0D float32, 0x0E float64, ...) and DD the number of dimensions (0x0803 = 2051 for
// unsigned-byte images [count, rows, cols], 0x0801 = 2049 for unsigned-byte labels [count]), then
// one 32-bit size per dimension, then the elements row-major, each big-endian. Files may be gzip-
// compressed or raw (detected from the content, see file_bytes.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "models/data/dataset.h"
#include "models/data/dataset_format.h"

namespace hermes::data {

inline constexpr std::uint32_t kIdxImagesMagic = 2051;
inline constexpr std::uint32_t kIdxLabelsMagic = 2049;

struct IdxImages {
  std::size_t count = 0;
  int rows = 0;
  int cols = 0;
  std::vector<std::uint8_t> pixels;  // count * rows * cols bytes, image-major, row-major
};

// Throws hermes::InputError naming the file on: missing file, corrupt gzip, magic number other than
// 2051, zero images, zero or oversized rows/cols, or a byte count other than the header promises
// (truncated or trailing bytes).
IdxImages read_idx_images(const std::string& path);

// Same checks with magic 2049; returns one byte per label.
std::vector<std::uint8_t> read_idx_labels(const std::string& path);

// Reads an image file and its label file into a 1-channel Dataset with pixels scaled to
// [0, 1] (byte / 255, so 0 -> 0.0f and 255 -> 1.0f exactly). Also throws InputError if the two
// counts differ, a label is >= num_classes, or (when expected_rows / expected_cols are > 0) the
// images are not expected_rows x expected_cols.
Dataset load_idx_dataset(const std::string& images_path, const std::string& labels_path,
                         std::string name, int num_classes, int expected_rows = 0,
                         int expected_cols = 0);

// One part of a dataset in IDX (dataset_format.h, kIdx): images of element type unsigned byte
// (scaled to [0, 1]), float32 or float64 (rounded to float), dimensions [N, H, W], [N, C, H, W] or
// [N, C*H*W] that give `shape`; unsigned-byte labels [N], each < `classes`. Either file larger than
// `max_file_bytes`, or decompressing to more, is refused. Throws hermes::InputError naming the file
// (the unsigned-byte [N, H, W] case with load_idx_dataset's messages); NaN and infinite values,
// or float64 values beyond float's range, are refused too.
Dataset read_idx_part(const std::string& images_path, const std::string& labels_path,
                      std::string name, SampleShape shape, int classes,
                      std::uint64_t max_file_bytes);

// The [0, 1] scaling shared by every loader: table[b] == float(b) / 255.0f.
const float* byte_to_unit_table();

}  // namespace hermes::data
