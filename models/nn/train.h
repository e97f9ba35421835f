// Mini-batch SGD and batched evaluation of a Model on (a subset of) a Dataset. This is what a
// simulated worker runs per iteration; it knows nothing of simulated time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "models/nn/model.h"

namespace hermes::data {
struct Dataset;
}
namespace hermes::nn {

struct TrainStats {
  std::int64_t steps = 0;        // optimizer steps taken (= mini-batches)
  std::int64_t samples = 0;      // samples processed over all epochs
  double mean_loss = 0.0;        // sample-weighted mean training loss over all epochs
  double last_epoch_loss = 0.0;  // the same over the last epoch only (what Keras prints)
};

// Runs `epochs` passes of mini-batch SGD (params -= lr * grad of the batch-mean cross-entropy)
// over dataset samples `indices`, in that order, batches of `batch` with a smaller last batch
// (as Keras does). If `shuffle` is given, the order is reshuffled (Fisher-Yates, drawn from
// *shuffle) before every epoch, as Keras' fit(shuffle=True) does. If `grad_sum` is non-empty
// (size num_params()), every step's gradient is added to it (Hermes' cumulative update S_i;
// without it, sum of gradients = (params_before - params_after) / lr for plain SGD).
// Allocation happens only before the first step (order copy, label buffer, workspace growth).
// Throws std::invalid_argument for epochs < 0, batch <= 0, an index out of range or a sample
// shape that does not match the model.
TrainStats train_epochs(Model& model, const data::Dataset& dataset,
                        std::span<const std::uint32_t> indices, int epochs, int batch, float lr,
                        RandomStream* shuffle = nullptr, std::span<float> grad_sum = {});

struct EvalStats {
  double loss = 0.0;      // mean cross-entropy
  double accuracy = 0.0;  // fraction of arg-max predictions equal to the label
  std::size_t samples = 0;
  std::size_t correct = 0;
};

// Forward passes in batches of `batch` (the model's workspace grows to it if needed).
EvalStats evaluate(Model& model, const data::Dataset& dataset,
                   std::span<const std::uint32_t> indices, int batch = 64);
// All samples of `dataset`.
EvalStats evaluate(Model& model, const data::Dataset& dataset, int batch = 64);

}  // namespace hermes::nn
