// Index lists into a Dataset: workers train on chunks of sample indices, never on pixel copies.
//
// sample_chunk is a header-only template over the random source so that hermes_data need not link
// hermes_engine: pass a hermes::RandomStream (or anything with the same uniform_int).
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

namespace hermes::data {

// A random source with RandomStream's `uniform_int(n)`: uniform in [0, n), n > 0.
template <typename Rng>
concept UniformIntSource = requires(Rng& rng, std::uint64_t n) {
  { rng.uniform_int(n) } -> std::convertible_to<std::uint64_t>;
};

// Throws std::invalid_argument describing why chunk_size / dataset_size is not a valid request.
[[noreturn]] void throw_bad_chunk_request(std::size_t dataset_size, std::size_t chunk_size);

// A request is valid if chunk_size <= dataset_size <= 2^32 - 1 (indices are uint32). Protocols
// must clamp computed chunk sizes (e.g. dynamic allocation) before asking.
inline bool valid_chunk_request(std::size_t dataset_size, std::size_t chunk_size) {
  return chunk_size <= dataset_size && dataset_size <= std::size_t{0xffffffffu};
}

// A fresh random sample of chunk_size distinct indices of [0, dataset_size), WITHOUT
// replacement, in random order (each ordered k-sample equally likely), like Python's
// random.sample(range(n), k) or np.random.choice(n, k, replace=False). The order matters: the
// protocols split a chunk "in order" (first 85% train, last 15% local test).
// Partial Fisher-Yates: step i swaps position i with i + uniform_int(n - i); exactly chunk_size
// draws. O(dataset_size) time and memory (an identity permutation), which for 60000 samples is
// a few tens of microseconds and cheaper than a hash-map variant at the usual chunk sizes.
// chunk_size == 0 gives an empty chunk and draws nothing.
template <UniformIntSource Rng>
std::vector<std::uint32_t> sample_chunk(std::size_t dataset_size, std::size_t chunk_size,
                                        Rng& rng) {
  // Checked inline (not only in the .cc) so the compiler sees chunk_size <= dataset_size below.
  if (!valid_chunk_request(dataset_size, chunk_size)) {
    throw_bad_chunk_request(dataset_size, chunk_size);
  }
  if (chunk_size == 0) return {};
  std::vector<std::uint32_t> pool(dataset_size);
  std::iota(pool.begin(), pool.end(), std::uint32_t{0});
  for (std::size_t i = 0; i < chunk_size; ++i) {
    const std::size_t j = i + static_cast<std::size_t>(rng.uniform_int(dataset_size - i));
    std::swap(pool[i], pool[j]);
  }
  // Copy out rather than shrink: the chunk should not keep the whole pool's capacity alive.
  return std::vector<std::uint32_t>(pool.begin(),
                                    pool.begin() + static_cast<std::ptrdiff_t>(chunk_size));
}

// Part `part` of [0, dataset_size) cut into n_parts contiguous, nearly equal slices (sizes
// differ by at most 1; the first dataset_size % n_parts parts get the extra sample, as
// np.array_split). The parts are disjoint and together cover every index once. Throws
// std::invalid_argument if n_parts == 0, part >= n_parts or dataset_size > 2^32 - 1.
std::vector<std::uint32_t> fixed_partition(std::size_t dataset_size, std::size_t n_parts,
                                           std::size_t part);

}  // namespace hermes::data
