#include "sim/protocols/skeleton/worker_state.h"

namespace hermes::protocols {

IterationWork WorkerState::next_work(const scenario::TrainingSpec& training, const ModelCost& cost,
                                     std::optional<std::int64_t> steps) {
  const auto size = static_cast<std::int64_t>(chunk.size());
  if (!steps) return iteration_work(training, cost, size);
  if (!chunk_open) {  // a new chunk: its pass begins
    const IterationWork split = iteration_work(training, cost, size);
    pass = nn::EpochCursor(
        std::span<const std::uint32_t>(chunk).subspan(static_cast<std::size_t>(split.dropped),
                                                      static_cast<std::size_t>(split.train)),
        training.local_epochs, training.batch_size);
    chunk_open = true;
  }
  const IterationWork work = steps_work(training, cost, size, pass, *steps);
  if (work.ends_chunk) chunk_open = false;  // the next iteration draws a new chunk
  return work;
}

void WorkerState::start_math(parallel::ThreadPool& pool, engine::SimTime end,
                             const data::Dataset& train, const scenario::TrainingSpec& training,
                             const ModelCost& cost, std::optional<std::int64_t> steps,
                             bool ends_chunk, std::span<float> grad_sum, bool keep_start) {
  math = pool.submit(
      end.ns(),
      [this, &train, &training, &cost, steps, ends_chunk, grad_sum, keep_start] {
        if (keep_start) {
          const auto params = model.params();
          start_params.assign(params.begin(), params.end());
        }
        if (steps) {
          last =
              train_steps(model, train, chunk, pass, *steps, training, cost, shuffle_rng, grad_sum);
        } else {
          last = train_on_chunk(model, train, chunk, training, cost, shuffle_rng, grad_sum);
        }
        // Only computing workers need activations: idle ones hold their parameters alone, which
        // keeps a thousand-worker run small (re-made next chunk, a tiny cost beside its math).
        if (!steps || ends_chunk) model.release_workspace();
      },
      parallel::TaskKind::kTraining);
}

std::vector<WorkerState> make_workers(const nn::Model& initial,
                                      const scenario::TrainingSpec& training,
                                      std::size_t train_size, std::size_t n, std::uint64_t seed) {
  std::vector<WorkerState> workers;
  workers.reserve(n);
  for (std::size_t w = 0; w < n; ++w) {
    workers.emplace_back(
        initial,
        ChunkSource(training.chunking, train_size, n, w, RandomStream::named(seed, "chunk", w)),
        RandomStream::named(seed, "shuffle", w), training.chunk_size);
  }
  return workers;
}

}  // namespace hermes::protocols
