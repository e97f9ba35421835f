#include "models/data/idx.h"

#include <array>
#include <utility>

#include "base/diagnostics.h"
#include "models/data/file_bytes.h"

namespace hermes::data {
namespace {

// Anything larger is certainly not an image file we can train on; it also keeps
// count * rows * cols far from overflowing size_t.
constexpr std::uint32_t kMaxSide = 1u << 14;

std::uint32_t read_be32(const std::vector<std::uint8_t>& b, std::size_t at) {
  return static_cast<std::uint32_t>(b[at]) << 24 | static_cast<std::uint32_t>(b[at + 1]) << 16 |
         static_cast<std::uint32_t>(b[at + 2]) << 8 | static_cast<std::uint32_t>(b[at + 3]);
}

// Checks the magic number and the payload size; returns the dimension sizes.
std::vector<std::uint32_t> check_idx_header(const std::vector<std::uint8_t>& bytes,
                                            const std::string& path, std::uint32_t magic,
                                            const char* what) {
  const std::size_t ndims = magic & 0xffu;
  const std::size_t header = 4 + 4 * ndims;
  if (bytes.size() < 4) {
    throw InputError(path + ": truncated IDX " + what + " file: " + std::to_string(bytes.size()) +
                     " bytes, expected at least a " + std::to_string(header) + "-byte header");
  }
  const std::uint32_t found = read_be32(bytes, 0);
  if (found != magic) {
    throw InputError(path + ": not an IDX " + what + " file: expected magic number " +
                     std::to_string(magic) + ", found " + std::to_string(found));
  }
  if (bytes.size() < header) {
    throw InputError(path + ": truncated IDX " + what + " file: " + std::to_string(bytes.size()) +
                     " bytes, expected a " + std::to_string(header) + "-byte header");
  }
  std::vector<std::uint32_t> dims(ndims);
  std::size_t payload = 1;
  for (std::size_t d = 0; d < ndims; ++d) {
    dims[d] = read_be32(bytes, 4 + 4 * d);
    if (d > 0 && (dims[d] == 0 || dims[d] > kMaxSide)) {
      throw InputError(path + ": bad IDX " + what + " dimensions: dimension " + std::to_string(d) +
                       " is " + std::to_string(dims[d]) + ", expected 1.." +
                       std::to_string(kMaxSide));
    }
    payload *= dims[d];  // at most 2^32 * 2^14 * 2^14 < 2^64
  }
  if (dims[0] == 0) throw InputError(path + ": IDX " + what + " file holds 0 items");
  const std::size_t expected = header + payload;
  if (bytes.size() < expected) {
    throw InputError(path + ": truncated IDX " + what + " file: the header promises " +
                     std::to_string(dims[0]) + " items (" + std::to_string(expected) +
                     " bytes), found " + std::to_string(bytes.size()) + " bytes");
  }
  if (bytes.size() > expected) {
    throw InputError(path + ": IDX " + what + " file has " +
                     std::to_string(bytes.size() - expected) +
                     " bytes more than its header promises (" + std::to_string(expected) +
                     " bytes for " + std::to_string(dims[0]) + " items)");
  }
  return dims;
}

}  // namespace

const float* byte_to_unit_table() {
  static const std::array<float, 256> table = [] {
    std::array<float, 256> t{};
    for (int b = 0; b < 256; ++b) t[b] = static_cast<float>(b) / 255.0f;
    return t;
  }();
  return table.data();
}

IdxImages read_idx_images(const std::string& path) {
  std::vector<std::uint8_t> bytes = read_file_maybe_gzip(path);
  const auto dims = check_idx_header(bytes, path, kIdxImagesMagic, "images");
  IdxImages out;
  out.count = dims[0];
  out.rows = static_cast<int>(dims[1]);
  out.cols = static_cast<int>(dims[2]);
  // Drop the 16-byte header in place instead of copying ~47 MB.
  bytes.erase(bytes.begin(), bytes.begin() + 16);
  out.pixels = std::move(bytes);
  return out;
}

std::vector<std::uint8_t> read_idx_labels(const std::string& path) {
  std::vector<std::uint8_t> bytes = read_file_maybe_gzip(path);
  check_idx_header(bytes, path, kIdxLabelsMagic, "labels");
  bytes.erase(bytes.begin(), bytes.begin() + 8);
  return bytes;
}

Dataset load_idx_dataset(const std::string& images_path, const std::string& labels_path,
                         std::string name, int num_classes, int expected_rows, int expected_cols) {
  IdxImages images = read_idx_images(images_path);
  if ((expected_rows > 0 && images.rows != expected_rows) ||
      (expected_cols > 0 && images.cols != expected_cols)) {
    throw InputError(images_path + ": bad image dimensions: expected " +
                     std::to_string(expected_rows) + "x" + std::to_string(expected_cols) +
                     ", found " + std::to_string(images.rows) + "x" + std::to_string(images.cols));
  }
  std::vector<std::uint8_t> labels = read_idx_labels(labels_path);
  if (labels.size() != images.count) {
    throw InputError(labels_path +
                     ": label count does not match the images: " + std::to_string(labels.size()) +
                     " labels, expected " + std::to_string(images.count) + " as in " + images_path);
  }
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (labels[i] >= num_classes) {
      throw InputError(labels_path + ": label " + std::to_string(labels[i]) + " of item " +
                       std::to_string(i) + " is out of range, expected 0.." +
                       std::to_string(num_classes - 1));
    }
  }
  Dataset ds;
  ds.name = std::move(name);
  ds.channels = 1;
  ds.height = images.rows;
  ds.width = images.cols;
  ds.num_classes = num_classes;
  ds.labels = std::move(labels);
  ds.pixels.resize(images.pixels.size());
  const float* unit = byte_to_unit_table();
  for (std::size_t i = 0; i < images.pixels.size(); ++i) ds.pixels[i] = unit[images.pixels[i]];
  return ds;
}

}  // namespace hermes::data
