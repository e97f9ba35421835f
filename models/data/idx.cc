#include "models/data/idx.h"

#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include "base/diagnostics.h"
#include "base/number_text.h"
#include "models/data/file_bytes.h"

namespace hermes::data {
namespace {

constexpr std::uint32_t kIdxLabelsMagic = 2049;  // unsigned byte, 1 dimension

// The limit per dimension: SampleShape's int range. [N, D] has D = C*H*W, which may be large;
// the payload size is computed without wrapping (times_capped), so no smaller cap is needed.
constexpr std::uint32_t kMaxDim = 0x7fffffffu;

std::uint32_t read_be32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) << 24 | static_cast<std::uint32_t>(p[1]) << 16 |
         static_cast<std::uint32_t>(p[2]) << 8 | static_cast<std::uint32_t>(p[3]);
}

std::uint64_t read_be64(const std::uint8_t* p) {
  return static_cast<std::uint64_t>(read_be32(p)) << 32 | read_be32(p + 4);
}

// a * b, or SIZE_MAX when that does not fit: a hostile header cannot wrap the size around.
std::size_t times_capped(std::size_t a, std::size_t b) {
  return b != 0 && a > SIZE_MAX / b ? SIZE_MAX : a * b;
}

std::string hex32(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08X", v);
  return buf;
}

// Past a checked magic number: the `ndims` dimension sizes (the first >= 1, the others 1..max_dim)
// and a payload of exactly their product times `element_bytes`. Returns the dimensions.
std::vector<std::uint32_t> check_idx_dims(const std::vector<std::uint8_t>& bytes,
                                          const std::string& path, std::size_t ndims,
                                          std::size_t element_bytes, std::uint32_t max_dim,
                                          const char* what) {
  const std::size_t header = 4 + 4 * ndims;
  if (bytes.size() < header) {
    throw InputError(path + ": truncated IDX " + what + " file: " + std::to_string(bytes.size()) +
                     " bytes, expected a " + std::to_string(header) + "-byte header");
  }
  std::vector<std::uint32_t> dims(ndims);
  std::size_t payload = element_bytes;
  for (std::size_t d = 0; d < ndims; ++d) {
    dims[d] = read_be32(bytes.data() + 4 + 4 * d);
    if (d > 0 && (dims[d] == 0 || dims[d] > max_dim)) {
      throw InputError(path + ": bad IDX " + what + " dimensions: dimension " + std::to_string(d) +
                       " is " + std::to_string(dims[d]) + ", expected 1.." +
                       std::to_string(max_dim));
    }
    payload = times_capped(payload, dims[d]);
  }
  if (dims[0] == 0) throw InputError(path + ": IDX " + what + " file holds 0 items");
  const bool huge = payload > SIZE_MAX - header;
  const std::size_t expected = huge ? SIZE_MAX : header + payload;
  if (bytes.size() < expected) {
    throw InputError(path + ": truncated IDX " + what + " file: the header promises " +
                     std::to_string(dims[0]) + " items (" + (huge ? "more than " : "") +
                     std::to_string(expected) + " bytes), found " + std::to_string(bytes.size()) +
                     " bytes");
  }
  if (bytes.size() > expected) {
    throw InputError(path + ": IDX " + what + " file has " +
                     std::to_string(bytes.size() - expected) +
                     " bytes more than its header promises (" + std::to_string(expected) +
                     " bytes for " + std::to_string(dims[0]) + " items)");
  }
  return dims;
}

// An unsigned-byte file whose magic number must be exactly `magic` (2049 for labels).
std::vector<std::uint32_t> check_idx_header(const std::vector<std::uint8_t>& bytes,
                                            const std::string& path, std::uint32_t magic,
                                            const char* what) {
  if (bytes.size() < 4) {
    throw InputError(path + ": truncated IDX " + what + " file: " + std::to_string(bytes.size()) +
                     " bytes, expected at least a " + std::to_string(4 + 4 * (magic & 0xffu)) +
                     "-byte header");
  }
  const std::uint32_t found = read_be32(bytes.data());
  if (found != magic) {
    throw InputError(path + ": not an IDX " + what + " file: expected magic number " +
                     std::to_string(magic) + ", found " + std::to_string(found));
  }
  return check_idx_dims(bytes, path, magic & 0xffu, 1, kMaxDim, what);
}

std::vector<std::uint8_t> read_labels(const std::string& path, std::uint64_t max_bytes) {
  std::vector<std::uint8_t> bytes = read_file_maybe_gzip(path, max_bytes);
  check_idx_header(bytes, path, kIdxLabelsMagic, "labels");
  bytes.erase(bytes.begin(), bytes.begin() + 8);
  return bytes;
}

// The labels agree with the images in number and are all < classes.
void check_labels(const std::vector<std::uint8_t>& labels, const std::string& labels_path,
                  std::size_t count, const std::string& images_path, int classes) {
  if (labels.size() != count) {
    throw InputError(labels_path +
                     ": label count does not match the images: " + std::to_string(labels.size()) +
                     " labels, expected " + std::to_string(count) + " as in " + images_path);
  }
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (labels[i] >= classes) {
      throw InputError(labels_path + ": label " + std::to_string(labels[i]) + " of item " +
                       std::to_string(i) + " is out of range, expected 0.." +
                       std::to_string(classes - 1));
    }
  }
}

// The element types an IDX file may declare; the general reader accepts the last column's.
struct IdxType {
  std::uint8_t code;
  const char* name;
  std::size_t bytes;
  bool accepted;
};
constexpr std::array<IdxType, 6> kIdxTypes = {{{0x08, "unsigned byte", 1, true},
                                               {0x09, "signed byte", 1, false},
                                               {0x0B, "int16", 2, false},
                                               {0x0C, "int32", 4, false},
                                               {0x0D, "float32", 4, true},
                                               {0x0E, "float64", 8, true}}};

// The general reader's images header: magic 0x0000TTDD with an accepted type TT and 2, 3 or 4
// dimensions, then check_idx_dims. Returns the type.
const IdxType& check_image_magic(const std::vector<std::uint8_t>& bytes, const std::string& path) {
  if (bytes.size() < 4) {
    throw InputError(path + ": truncated IDX images file: " + std::to_string(bytes.size()) +
                     " bytes, expected at least a 4-byte magic number");
  }
  const std::uint32_t magic = read_be32(bytes.data());
  const std::uint32_t code = magic >> 8 & 0xffu;
  const std::uint32_t ndims = magic & 0xffu;
  const IdxType* type = nullptr;
  for (const IdxType& t : kIdxTypes) {
    if (t.code == code) type = &t;
  }
  if ((magic >> 16) == 0 && type != nullptr && type->accepted && ndims >= 2 && ndims <= 4) {
    return *type;
  }
  std::string found = "magic number " + hex32(magic);
  if ((magic >> 16) != 0) {
    found += " (not 0x0000TTDD)";
  } else {
    found += " (element type " + (type ? std::string(type->name) : "0x" + hex32(code).substr(8)) +
             ", " + std::to_string(ndims) + " dimensions)";
  }
  throw InputError(path + ": not an IDX images file of an accepted kind: " + found +
                   "; accepted: magic number 0x0000TTDD with element type TT 08 (unsigned byte), "
                   "0D (float32) or 0E (float64) and DD 02, 03 or 04 dimensions ([N, C*H*W], "
                   "[N, H, W] or [N, C, H, W]), such as 0x00000803 (2051, MNIST's images)");
}

// The dimensions after N give `shape` (see read_idx_part for the three layouts).
void check_image_shape(const std::vector<std::uint32_t>& dims, SampleShape shape,
                       const std::string& path) {
  const std::string declared = shape.str();
  const auto bad = [&](const std::string& detail) {
    return InputError(path + ": bad image dimensions: " + detail);
  };
  if (dims.size() == 3) {
    if (shape.channels != 1) {
      throw bad(
          "[N, H, W] holds one-channel images (" + std::to_string(dims[1]) + "x" +
          std::to_string(dims[2]) + "), the dataset's samples are " + declared +
          " (channels x height x width); expected [N, " + std::to_string(shape.channels) + ", " +
          std::to_string(shape.height) + ", " + std::to_string(shape.width) + "] or [N, " +
          std::to_string(static_cast<long long>(shape.channels) * shape.height * shape.width) +
          "]");
    }
    if (dims[1] != static_cast<std::uint32_t>(shape.height) ||
        dims[2] != static_cast<std::uint32_t>(shape.width)) {
      throw bad("expected " + std::to_string(shape.height) + "x" + std::to_string(shape.width) +
                ", found " + std::to_string(dims[1]) + "x" + std::to_string(dims[2]));
    }
  } else if (dims.size() == 4) {
    if (dims[1] != static_cast<std::uint32_t>(shape.channels) ||
        dims[2] != static_cast<std::uint32_t>(shape.height) ||
        dims[3] != static_cast<std::uint32_t>(shape.width)) {
      throw bad("expected " + declared + " (channels x height x width), found " +
                std::to_string(dims[1]) + "x" + std::to_string(dims[2]) + "x" +
                std::to_string(dims[3]));
    }
  } else {
    const std::uint64_t d = static_cast<std::uint64_t>(shape.channels) * shape.height * shape.width;
    if (dims[1] != d) {
      throw bad("[N, D] holds " + std::to_string(dims[1]) + " values per sample, expected " +
                std::to_string(d) + " (" + declared + ", channels x height x width)");
    }
  }
}

// A float read from the file, as a pixel: finite, else the error names where it is.
float checked_pixel(double value, const IdxType& type, std::size_t element, std::size_t dim,
                    const std::string& path) {
  const auto pixel = static_cast<float>(value);  // exact for float32, IEEE rounding for float64
  if (std::isfinite(pixel)) return pixel;
  const std::string where = " of image " + std::to_string(element / dim) + " (value " +
                            std::to_string(element % dim) + " in CHW order)";
  if (std::isfinite(value)) {
    throw InputError(path + ": " + type.name + " value " + shortest(value) + where +
                     " is beyond float's range (+-3.4e38); accepted: finite values that fit a "
                     "float");
  }
  throw InputError(path + ": " + type.name + " value " + shortest(value) + where +
                   " is not finite; accepted: finite values (no NaN or infinity)");
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

std::uint64_t count_idx_samples(const std::string& labels_path, std::uint64_t max_file_bytes) {
  return read_labels(labels_path, max_file_bytes).size();
}

Dataset read_idx_part(const std::string& images_path, const std::string& labels_path,
                      std::string name, SampleShape shape, int classes,
                      std::uint64_t max_file_bytes) {
  const std::vector<std::uint8_t> bytes = read_file_maybe_gzip(images_path, max_file_bytes);
  const IdxType& type = check_image_magic(bytes, images_path);
  const std::size_t ndims = bytes[3];
  const auto dims = check_idx_dims(bytes, images_path, ndims, type.bytes, kMaxDim, "images");
  check_image_shape(dims, shape, images_path);
  std::vector<std::uint8_t> labels = read_labels(labels_path, max_file_bytes);
  check_labels(labels, labels_path, dims[0], images_path, classes);

  Dataset ds = empty_dataset(std::move(name), shape, classes);
  // Every layout is already CHW per sample, samples one after another: a flat conversion.
  const std::size_t total = labels.size() * ds.sample_dim();  // == the payload's elements
  ds.labels = std::move(labels);
  ds.pixels.resize(total);
  const std::uint8_t* in = bytes.data() + 4 + 4 * ndims;
  if (type.code == 0x08) {
    const float* unit = byte_to_unit_table();
    for (std::size_t i = 0; i < total; ++i) ds.pixels[i] = unit[in[i]];
  } else if (type.code == 0x0D) {
    for (std::size_t i = 0; i < total; ++i) {
      const auto v = std::bit_cast<float>(read_be32(in + 4 * i));
      ds.pixels[i] = checked_pixel(v, type, i, ds.sample_dim(), images_path);
    }
  } else {
    for (std::size_t i = 0; i < total; ++i) {
      const auto v = std::bit_cast<double>(read_be64(in + 8 * i));
      ds.pixels[i] = checked_pixel(v, type, i, ds.sample_dim(), images_path);
    }
  }
  return ds;
}

}  // namespace hermes::data
