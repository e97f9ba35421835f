#include "sim/protocols/skeleton/chunk_source.h"

#include <cmath>

#include "models/data/chunks.h"

namespace hermes::protocols {

void ChunkSource::draw(std::int64_t size, std::vector<std::uint32_t>& chunk) {
  const std::int64_t done_before = drawn_++;
  const auto n = static_cast<std::size_t>(size);
  if (chunking_ == scenario::Chunking::kRandom) {
    chunk = data::sample_chunk(train_size_, n, rng_);
    return;
  }
  if (partition_.empty()) partition_ = data::fixed_partition(train_size_, workers_, worker_);
  chunk.resize(n);
  const std::int64_t offset = done_before * size;
  for (std::size_t i = 0; i < n; ++i) {
    chunk[i] = partition_[(static_cast<std::size_t>(offset) + i) % partition_.size()];
  }
}

AllocatorConfig allocator_config(const scenario::TrainingSpec& t, std::size_t workers,
                                 std::size_t train_size) {
  AllocatorConfig cfg;
  cfg.workers = static_cast<int>(workers);
  cfg.local_epochs = t.local_epochs;
  cfg.mini_batch = t.batch_size;
  // The smallest chunk still trains one full mini-batch and keeps one held-out sample.
  cfg.min_chunk = static_cast<std::int64_t>(std::ceil(t.batch_size / t.train_fraction)) + 1;
  cfg.dataset_size = static_cast<std::int64_t>(train_size);
  cfg.max_chunk = cfg.dataset_size;
  cfg.t_med_from_latest = t.t_med == scenario::TMedRule::kLatestTimes;
  return cfg;
}

}  // namespace hermes::protocols
