// read_dataset_part: the one entry to every format's reader (idx.cc, cifar10.cc, npz.cc).
#include "models/data/dataset_format.h"

#include <stdexcept>
#include <utility>

#include "models/data/cifar10.h"
#include "models/data/idx.h"
#include "models/data/npz.h"

namespace hermes::data {

std::string SampleShape::str() const {
  return std::to_string(channels) + "x" + std::to_string(height) + "x" + std::to_string(width);
}

Dataset empty_dataset(std::string name, SampleShape shape, int classes) {
  Dataset ds;
  ds.name = std::move(name);
  ds.channels = shape.channels;
  ds.height = shape.height;
  ds.width = shape.width;
  ds.num_classes = classes;
  return ds;
}

std::string format_name(DataFormat format) {
  switch (format) {
    case DataFormat::kIdx:
      return "idx";
    case DataFormat::kCifarBinary:
      return "cifar-binary";
    case DataFormat::kNpz:
      return "npz";
  }
  throw std::invalid_argument("format_name: unknown DataFormat");
}

namespace {

// The caller's side of the contract (a scenario's values are checked where they are read).
void check_arguments(const char* function, DataFormat format, const std::vector<std::string>& paths,
                     SampleShape shape) {
  // At most 2^30 values per sample keeps every size product far from overflowing (the product is
  // taken in double, exact enough for the comparison, so it cannot overflow itself).
  if (shape.channels < 1 || shape.height < 1 || shape.width < 1 ||
      static_cast<double>(shape.channels) * shape.height * shape.width > 0x1p30) {
    throw std::invalid_argument(std::string(function) + ": bad sample shape " + shape.str());
  }
  const std::size_t want = format == DataFormat::kIdx ? 2 : 1;
  if (paths.size() < want || (format != DataFormat::kCifarBinary && paths.size() != want)) {
    throw std::invalid_argument(std::string(function) + ": " + std::to_string(paths.size()) +
                                " paths for format " + format_name(format));
  }
}

}  // namespace

std::uint64_t count_part_samples(DataFormat format, const std::vector<std::string>& paths,
                                 const std::string& part, SampleShape shape,
                                 std::uint64_t max_file_bytes) {
  check_arguments("count_part_samples", format, paths, shape);
  switch (format) {
    case DataFormat::kIdx:
      return count_idx_samples(paths[1], max_file_bytes);
    case DataFormat::kCifarBinary:
      return count_cifar_binary_samples(paths, shape, max_file_bytes);
    case DataFormat::kNpz:
      return count_npz_samples(paths[0], part, max_file_bytes);
  }
  throw std::invalid_argument("count_part_samples: unknown DataFormat");
}

Dataset read_dataset_part(DataFormat format, const std::vector<std::string>& paths,
                          const std::string& part, std::string name, SampleShape shape, int classes,
                          std::uint64_t max_file_bytes) {
  if (classes < 1 || classes > 256) {
    throw std::invalid_argument("read_dataset_part: classes " + std::to_string(classes) +
                                " outside 1..256");
  }
  check_arguments("read_dataset_part", format, paths, shape);
  switch (format) {
    case DataFormat::kIdx:
      return read_idx_part(paths[0], paths[1], std::move(name), shape, classes, max_file_bytes);
    case DataFormat::kCifarBinary:
      return read_cifar_binary_part(paths, std::move(name), shape, classes, max_file_bytes);
    case DataFormat::kNpz:
      return read_npz_part(paths[0], part, std::move(name), shape, classes, max_file_bytes);
  }
  throw std::invalid_argument("read_dataset_part: unknown DataFormat");
}

}  // namespace hermes::data
