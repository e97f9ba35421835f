// Central (single-node, no cluster) training: what `hermes-sim train` runs. Useful as the accuracy
// reference a distributed protocol should approach.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/nn/model_spec.h"

namespace hermes::data {
struct Dataset;
}

namespace hermes::nn {

struct CentralTrainConfig {
  int epochs = 5;
  int batch = 16;
  float lr = 0.1f;
  std::uint64_t seed = 1;  // init: RandomStream::named(seed, "nn-init"); shuffle: "nn-shuffle"
  bool shuffle = true;     // reshuffle the training set every epoch (Keras' default)
  int eval_batch = 64;
};

struct EpochResult {
  int epoch = 0;  // 1-based
  std::int64_t steps = 0;
  double train_loss = 0.0;  // mean over the epoch's samples
  double test_loss = 0.0;
  double test_accuracy = 0.0;
  double seconds = 0.0;  // wall time of the epoch's training (evaluation excluded)
};

// Trains a fresh model of `spec` on all of `train`, evaluating on all of `test` after every
// epoch; calls on_epoch (if set) as each epoch ends. Throws std::invalid_argument for a bad
// config (epochs < 1, batch < 1, lr not > 0) or a spec that does not fit the data.
std::vector<EpochResult> train_central(
    const ModelSpec& spec, const CentralTrainConfig& config, const data::Dataset& train,
    const data::Dataset& test, const std::function<void(const EpochResult&)>& on_epoch = {});

}  // namespace hermes::nn
