// The seam between simulated time and training math for one worker iteration. Given a model and
// a chunk of sample indices it does exactly what a worker of the reference does (train the first
// part for local_epochs of mini-batch SGD, evaluate the rest) and reports the work done, so the
// cluster model can turn it into simulated time. Nothing here knows about time.
#pragma once

#include <cstdint>
#include <span>

#include "base/random.h"
#include "models/data/dataset.h"
#include "models/nn/model.h"
#include "models/nn/train.h"
#include "sim/protocols/skeleton/workload.h"
#include "sim/scenario/scenario.h"

namespace hermes::protocols {

struct ChunkResult {
  nn::TrainStats train;
  double local_test_loss = 0;  // mean cross-entropy on the chunk's held-out part
  IterationWork work;          // FLOPs, steps and bytes of exactly this iteration
  bool finite() const;         // false if training or evaluation produced NaN/inf
};

// Trains `model` in place on the chunk's training part and evaluates it on the rest, the split of
// iteration_work() (chunk[dropped, dropped + train) and chunk[dropped + train, size)). With
// training.epoch_order "reshuffle" (the clean default) `shuffle` permutes the training part anew
// every epoch: sampling without replacement, as textbook SGD does. The released code does not
// (it loops over the chunk in its own order, with no call to Keras' fit): "fixed".
// `grad_sum`, if non-empty, accumulates every mini-batch gradient (Hermes' S_i).
ChunkResult train_on_chunk(nn::Model& model, const data::Dataset& train_set,
                           std::span<const std::uint32_t> chunk,
                           const scenario::TrainingSpec& training, const ModelCost& cost,
                           RandomStream& shuffle, std::span<float> grad_sum = {});

// update_unit "steps": the next `steps` mini-batches of the chunk's pass (begun on its training
// part by the caller, with the reshuffles of epoch_order "reshuffle" drawn from `shuffle`). The
// iteration that ends the pass evaluates the chunk's held-out part: local_test_loss is that loss;
// before the end it is the mean training loss of these mini-batches (the held-out part is
// evaluated once per chunk, as in update_unit "chunk").
ChunkResult train_steps(nn::Model& model, const data::Dataset& train_set,
                        std::span<const std::uint32_t> chunk, nn::EpochCursor& pass,
                        std::int64_t steps, const scenario::TrainingSpec& training,
                        const ModelCost& cost, RandomStream& shuffle,
                        std::span<float> grad_sum = {});

}  // namespace hermes::protocols
