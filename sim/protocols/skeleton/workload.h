// The size of one worker iteration, in FLOPs, optimizer steps and bytes: the bridge between the
// training settings, the model's FLOP counts and the simulated cluster's compute and network.
#pragma once

#include <cstdint>
#include <vector>

#include "models/data/dataset.h"
#include "models/nn/model.h"
#include "models/nn/model_spec.h"
#include "models/nn/train.h"
#include "sim/scenario/scenario.h"

namespace hermes::protocols {

struct ModelCost {
  double flops_forward_per_sample = 0;
  double flops_train_per_sample = 0;
  double flops_update_per_step = 0;  // the SGD update of all parameters
  std::int64_t params = 0;
  std::int64_t sample_floats = 0;  // floats per input sample
};

// FLOP counts and sizes of a model.
ModelCost model_cost(const nn::Model& model);
// The same for the scenario's model on its dataset's sample shape (no data needed).
ModelCost model_cost(const scenario::Scenario& scenario);
// The scenario's model (its preset or its layer list) on its dataset's sample shape and classes.
nn::ModelSpec scenario_model_spec(const scenario::Scenario& scenario);
// The same on the samples of `data` (a run sizes its model from the data it trains on).
nn::ModelSpec scenario_model_spec(const scenario::Scenario& scenario, const data::Dataset& data);
// The parameters of each of the model's layers, in order (0 for layers without any): what a PS
// sharded by layers splits (ps_sharding.h).
std::vector<std::size_t> layer_params(const nn::Model& model);

struct IterationWork {
  std::int64_t chunk = 0;    // samples received
  std::int64_t dropped = 0;  // first sample(s) of the training part left out (drop_first_row)
  std::int64_t train = 0;    // first part, after the dropped row: trained on
  std::int64_t test = 0;     // rest: local test loss
  std::int64_t steps = 0;    // optimizer steps over all local epochs
  double flops = 0;          // training + local evaluation
  double chunk_bytes = 0;    // pixels as float32 plus one label byte per sample
  double model_bytes = 0;    // parameters (or a gradient) as float32
  bool ends_chunk = true;    // the chunk's last iteration (always, but per step)
};

// Bytes of the model's parameters (or a gradient, an update) as float32: one transfer of it.
double model_bytes(const ModelCost& cost);

// Work of one iteration on a chunk of `chunk` samples: the first floor(chunk * train_fraction)
// (without its first row if training.drop_first_row) train for local_epochs at batch_size (the last
// partial batch is a step too), the rest are evaluated once (forward only).
IterationWork iteration_work(const scenario::TrainingSpec& training, const ModelCost& cost,
                             std::int64_t chunk);

// Work of one iteration of update_unit "steps": the next `steps` mini-batches of `pass` (fewer if
// it ends first) over a chunk of `chunk` samples split as iteration_work does; the iteration that
// ends the pass also evaluates the chunk's held-out part (ends_chunk).
IterationWork steps_work(const scenario::TrainingSpec& training, const ModelCost& cost,
                         std::int64_t chunk, const nn::EpochCursor& pass, std::int64_t steps);

}  // namespace hermes::protocols
