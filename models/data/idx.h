// IDX files (the MNIST / Fashion-MNIST format, http://yann.lecun.com/exdb/mnist/).
//
// Big-endian header: a 32-bit magic number 0x0000TTDD, TT the element type (0x08 unsigned byte,
// 0x0D float32, 0x0E float64, ...) and DD the number of dimensions (0x0803 = 2051 for
// unsigned-byte images [count, rows, cols], 0x0801 = 2049 for unsigned-byte labels [count]), then
// one 32-bit size per dimension, then the elements row-major, each big-endian. Files may be gzip-
// compressed or raw (detected from the content, see file_bytes.h).
#pragma once

#include <cstdint>
#include <string>

#include "models/data/dataset.h"
#include "models/data/dataset_format.h"

namespace hermes::data {

// One part of a dataset in IDX (dataset_format.h, kIdx): images of element type unsigned byte
// (scaled to [0, 1]), float32 or float64 (rounded to float), dimensions [N, H, W], [N, C, H, W] or
// [N, C*H*W] that give `shape`; unsigned-byte labels [N], each < `classes`. Either file larger than
// `max_file_bytes`, or decompressing to more, is refused. Throws hermes::InputError naming the file
// on: a missing file, corrupt gzip, a magic number of another kind, zero items, a zero dimension,
// a byte count other than the header promises (truncated or trailing bytes), dimensions that do
// not give `shape`, label and image counts that differ, a label >= `classes`, and NaN, infinite or
// (float64) beyond float's range values.
Dataset read_idx_part(const std::string& images_path, const std::string& labels_path,
                      std::string name, SampleShape shape, int classes,
                      std::uint64_t max_file_bytes);

// How many samples the IDX part holds: its labels file's item count (the labels are read, the
// images are not). Throws hermes::InputError naming the labels file as read_idx_part does.
std::uint64_t count_idx_samples(const std::string& labels_path, std::uint64_t max_file_bytes);

// The [0, 1] scaling shared by every loader: table[b] == float(b) / 255.0f.
const float* byte_to_unit_table();

}  // namespace hermes::data
