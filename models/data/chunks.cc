#include "models/data/chunks.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace hermes::data {
namespace {

constexpr std::size_t kMaxIndexable = std::numeric_limits<std::uint32_t>::max();

}  // namespace

void throw_bad_chunk_request(std::size_t dataset_size, std::size_t chunk_size) {
  if (dataset_size > kMaxIndexable) {
    throw std::invalid_argument("sample_chunk: dataset of " + std::to_string(dataset_size) +
                                " samples cannot be indexed with uint32");
  }
  throw std::invalid_argument("sample_chunk: chunk of " + std::to_string(chunk_size) +
                              " samples requested from a dataset of " +
                              std::to_string(dataset_size) +
                              " (sampling is without replacement: chunk size must be <= "
                              "dataset size)");
}

std::vector<std::uint32_t> fixed_partition(std::size_t dataset_size, std::size_t n_parts,
                                           std::size_t part) {
  if (dataset_size > kMaxIndexable) {
    throw std::invalid_argument("fixed_partition: dataset of " + std::to_string(dataset_size) +
                                " samples cannot be indexed with uint32");
  }
  if (n_parts == 0 || part >= n_parts) {
    throw std::invalid_argument("fixed_partition: part " + std::to_string(part) + " of " +
                                std::to_string(n_parts) + " parts, expected 0 <= part < n_parts");
  }
  const std::size_t base = dataset_size / n_parts;
  const std::size_t extra = dataset_size % n_parts;
  const std::size_t begin = part * base + std::min(part, extra);
  const std::size_t size = base + (part < extra ? 1 : 0);
  std::vector<std::uint32_t> out(size);
  std::iota(out.begin(), out.end(), static_cast<std::uint32_t>(begin));
  return out;
}

}  // namespace hermes::data
