// Where a worker's chunks come from (training.chunking): with "random" a fresh random sample of
// the whole training set per chunk, as the reference does; with "fixed" the worker's own slice of
// the training set (data::fixed_partition), walked cyclically chunk after chunk. How large they
// are follows training.chunk_size, or the dynamic allocator (allocator_config).
#pragma once

#include <cstdint>
#include <vector>

#include "base/random.h"
#include "sim/policies/dynamic_allocation.h"
#include "sim/scenario/scenario.h"

namespace hermes::protocols {

class ChunkSource {
 public:
  // Worker `worker` of `workers` over a training set of `train_size` samples; `rng` draws its
  // random chunks.
  ChunkSource(scenario::Chunking chunking, std::size_t train_size, std::size_t workers,
              std::size_t worker, RandomStream rng)
      : chunking_(chunking),
        train_size_(train_size),
        workers_(workers),
        worker_(worker),
        rng_(std::move(rng)) {}

  // The next chunk of `size` samples, into `chunk`.
  void draw(std::int64_t size, std::vector<std::uint32_t>& chunk);
  std::int64_t drawn() const { return drawn_; }

 private:
  scenario::Chunking chunking_;
  std::size_t train_size_;
  std::size_t workers_;
  std::size_t worker_;
  RandomStream rng_;
  std::vector<std::uint32_t> partition_;  // its slice (fixed), made at the first draw
  std::int64_t drawn_ = 0;                // chunks drawn so far (fixed chunking's offset)
};

// The dynamic allocator's settings for `workers` workers over a training set of `train_size`.
AllocatorConfig allocator_config(const scenario::TrainingSpec& training, std::size_t workers,
                                 std::size_t train_size);

}  // namespace hermes::protocols
