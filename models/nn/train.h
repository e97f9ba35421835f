// Mini-batch SGD and batched evaluation of a Model on (a subset of) a Dataset. This is what a
// simulated worker runs per iteration; it knows nothing of simulated time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "models/nn/model.h"

namespace hermes::data {
struct Dataset;
}
namespace hermes::nn {

// The worker's optimiser: mini-batch SGD with learning rate lr, optionally with momentum and
// weight decay as PyTorch's torch.optim.SGD has them (Model::sgd_step; docs/optimizer.md). The
// defaults are plain SGD, the Hermes paper's and the released code's optimiser.
struct Sgd {
  float lr = 0.01f;
  float momentum = 0.0f;      // in [0, 1)
  float weight_decay = 0.0f;  // L2 coefficient, >= 0
};

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
// The same with the optimiser `sgd` (plain SGD when its momentum and weight decay are 0). The
// velocity is the model's (Model::sgd_step): it goes on from the model's previous steps.
TrainStats train_epochs(Model& model, const data::Dataset& dataset,
                        std::span<const std::uint32_t> indices, int epochs, int batch,
                        const Sgd& sgd, RandomStream* shuffle = nullptr,
                        std::span<float> grad_sum = {});

// One pass of `epochs` epochs of mini-batch SGD over `indices` (as train_epochs runs it), taken a
// few steps at a time: a worker that pushes after every K mini-batches trains its chunk in pieces.
// Run to its end in one call it does exactly what train_epochs does, bit for bit (the same order
// of samples, reshuffles and floating-point sums). Each epoch's reshuffle is drawn from the stream
// passed to the call that begins the epoch.
class EpochCursor {
 public:
  EpochCursor() = default;
  EpochCursor(std::span<const std::uint32_t> indices, int epochs, int batch);

  // Optimizer steps of the whole pass: epochs x ceil(|indices| / batch).
  std::int64_t total_steps() const { return steps_per_epoch_ * epochs_; }
  std::int64_t steps_done() const { return steps_done_; }
  bool done() const { return steps_done_ >= total_steps(); }
  // Samples the next `steps` steps train on (fewer steps if the pass ends first), known before
  // they run: what their FLOPs are charged from.
  std::int64_t samples_in_next(std::int64_t steps) const;
  // Runs up to `steps` further steps (params -= lr * grad of each batch-mean loss). The stats are
  // those of these steps alone: their steps, samples and mean loss; last_epoch_loss is the latest
  // completed epoch's (0 before the first completes). `grad_sum` as in train_epochs.
  TrainStats train(Model& model, const data::Dataset& dataset, std::int64_t steps, float lr,
                   RandomStream* shuffle, std::span<float> grad_sum = {});
  TrainStats train(Model& model, const data::Dataset& dataset, std::int64_t steps, const Sgd& sgd,
                   RandomStream* shuffle, std::span<float> grad_sum = {});
  // Sum of the losses of every completed epoch (train_epochs' mean loss is it over its samples).
  double completed_loss_sum() const { return completed_loss_; }

 private:
  std::vector<std::uint32_t> order_;
  int epochs_ = 0;
  int batch_ = 1;
  std::int64_t steps_per_epoch_ = 0;
  std::int64_t steps_done_ = 0;
  std::size_t pos_ = 0;  // next sample of the current epoch's order
  double epoch_loss_ = 0;
  double completed_loss_ = 0;
  double last_epoch_loss_ = 0;
};

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
