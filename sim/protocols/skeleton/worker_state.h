// One worker's state in a protocol run (ProtocolRun::Worker): its local model, where its chunks
// come from, its iteration in progress and the work it has not delivered yet. Its node's
// availability (up, leaving, down, its process's incarnation) is the run's Availability's.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "base/random.h"
#include "models/nn/model.h"
#include "models/nn/train.h"
#include "sim/engine/sim_time.h"
#include "sim/parallel/thread_pool.h"
#include "sim/protocols/skeleton/chunk_source.h"
#include "sim/protocols/skeleton/run_result.h"
#include "sim/protocols/skeleton/worker_math.h"
#include "sim/protocols/skeleton/workload.h"

namespace hermes::protocols {

struct WorkerState {
  WorkerState(const nn::Model& initial, ChunkSource source, RandomStream shuffle, std::int64_t size)
      : model(initial),
        chunks(std::move(source)),
        shuffle_rng(std::move(shuffle)),
        chunk_size(size) {}

  nn::Model model;                  // local model
  std::vector<float> start_params;  // model at the start of the current iteration (if kept)
  ChunkSource chunks;               // which samples form its chunks
  RandomStream shuffle_rng;         // per-epoch order within a chunk
  std::int64_t chunk_size = 0;
  std::vector<std::uint32_t> chunk;
  ChunkResult last;  // result of the latest iteration
  engine::SimTime iteration_start{};
  bool fresh_model = false;         // a pulled model no iteration has started from yet
  engine::SimTime compute_start{};  // when its training began (T_i = end - compute_start)
  // Since when the worker waits between iterations; nullopt while it works. It waits from the end
  // of one compute to the start of its next iteration (RunResult::wait_time); the API-call
  // counting "calls" (sim/protocols/reporting/api_counting.h, after the run, from the records of
  // RunResult) turns that time into polls (the released code's counting does not: its waiting
  // workers block, and its master's polling loop is counted instead).
  std::optional<engine::SimTime> idle_since = engine::SimTime{};
  // The iteration's math (model, start_params, last, shuffle_rng, gradient sum) while it runs
  // on the pool: nothing else touches them until the completion event has waited for it.
  parallel::Task math{};
  // The work an outage would lose (count_lost); its node's state is the Availability's.
  bool in_iteration = false;  // an iteration began and its compute has not ended
  bool computing = false;     // its compute runs
  WorkCarried unsynced{};     // computed since its latest update left it
  WorkCarried in_flight{};    // carried by its updates still travelling to the PS
  // With a baseline's update_unit "steps" (RunSpec), one iteration is steps_per_update
  // mini-batches of the worker's chunk rather than the chunk's local epochs: the local epochs over
  // the current chunk, taken steps_per_update mini-batches per iteration; begin_iteration fetches
  // a new chunk only once it is done, and each iteration's update is the change of those steps.
  nn::EpochCursor pass{};
  bool chunk_open = false;  // a chunk whose pass is not done yet

  // Its math still pending as the run ends: finished (`finish`: the stop cut the iteration short,
  // and every thread count must do the same math) or, if not started, cancelled.
  void end_math(bool finish) {
    if (finish && math.valid()) {
      math.wait();
    } else {
      math.cancel_or_wait();
    }
  }
  // The work of its next iteration on its chunk: the chunk's local epochs, or with `steps`
  // (update_unit "steps") the next that many mini-batches of the chunk's pass, which begins with a
  // new chunk and ends with its last mini-batch (the iteration after draws a new chunk). The work
  // depends only on the chunk's size and the place in its pass, so the iteration's end is known
  // before its math runs.
  IterationWork next_work(const scenario::TrainingSpec& training, const ModelCost& cost,
                          std::optional<std::int64_t> steps);
  // Submits that iteration's math to `pool` (due by `end`): from its parameters now (kept in
  // start_params if `keep_start`) it trains its model and evaluates on the chunk's held-out part
  // into `last`; `grad_sum`, if not empty, accumulates its mini-batch gradients. `train`,
  // `training` and `cost` outlive the task.
  void start_math(parallel::ThreadPool& pool, engine::SimTime end, const data::Dataset& train,
                  const scenario::TrainingSpec& training, const ModelCost& cost,
                  std::optional<std::int64_t> steps, bool ends_chunk, std::span<float> grad_sum,
                  bool keep_start);
};

// The run's n workers, each starting from `initial` with its own chunk and shuffle streams
// ("chunk", "shuffle": named by the run's seed and the worker's index).
std::vector<WorkerState> make_workers(const nn::Model& initial,
                                      const scenario::TrainingSpec& training,
                                      std::size_t train_size, std::size_t n, std::uint64_t seed);

}  // namespace hermes::protocols
