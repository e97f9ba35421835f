#include "sim/protocols/skeleton/workload.h"

#include <algorithm>
#include <cmath>

#include "models/nn/zoo.h"

namespace hermes::protocols {

nn::ModelSpec scenario_model_spec(const scenario::Scenario& s) {
  // Sample shapes of the accepted datasets (models/data/loaders.h).
  const bool cifar = s.dataset.name == "cifar10";
  const nn::Shape input =
      cifar ? nn::Shape{3, 32, 32, nn::Layout::kCHW} : nn::Shape{1, 28, 28, nn::Layout::kCHW};
  return s.model.name == "cnn" ? nn::cnn_spec(input) : nn::mlp_spec(input);
}

std::vector<std::size_t> layer_params(const nn::Model& model) {
  std::vector<std::size_t> counts;
  for (std::size_t i = 0; i < model.num_layers(); ++i)
    counts.push_back(model.layer(i).num_params());
  return counts;
}

ModelCost model_cost(const nn::Model& model) {
  ModelCost c;
  c.flops_forward_per_sample = model.flops_forward_per_sample();
  c.flops_train_per_sample = model.flops_train_per_sample();
  c.flops_update_per_step = model.flops_update_per_step();
  c.params = static_cast<std::int64_t>(model.num_params());
  c.sample_floats = static_cast<std::int64_t>(model.input_dim());
  return c;
}

ModelCost model_cost(const scenario::Scenario& s) {
  return model_cost(nn::make_model(scenario_model_spec(s), s.seed));
}

double model_bytes(const ModelCost& cost) { return 4.0 * static_cast<double>(cost.params); }

IterationWork iteration_work(const scenario::TrainingSpec& t, const ModelCost& cost,
                             std::int64_t chunk) {
  IterationWork w;
  w.chunk = chunk;
  const auto split =
      static_cast<std::int64_t>(std::floor(static_cast<double>(chunk) * t.train_fraction));
  w.dropped = t.drop_first_row && split > 0 ? 1 : 0;
  w.train = split - w.dropped;
  w.test = chunk - split;
  const std::int64_t batches = (w.train + t.batch_size - 1) / t.batch_size;
  w.steps = batches * t.local_epochs;
  w.flops = static_cast<double>(w.train) * t.local_epochs * cost.flops_train_per_sample +
            static_cast<double>(w.steps) * cost.flops_update_per_step +
            static_cast<double>(w.test) * cost.flops_forward_per_sample;
  w.chunk_bytes =
      static_cast<double>(chunk) * (4.0 * static_cast<double>(cost.sample_floats) + 1.0);
  w.model_bytes = model_bytes(cost);
  return w;
}

IterationWork steps_work(const scenario::TrainingSpec& t, const ModelCost& cost, std::int64_t chunk,
                         const nn::EpochCursor& pass, std::int64_t steps) {
  IterationWork w = iteration_work(t, cost, chunk);
  const std::int64_t samples = pass.samples_in_next(steps);
  w.steps = std::min(steps, pass.total_steps() - pass.steps_done());
  w.ends_chunk = pass.steps_done() + w.steps >= pass.total_steps();
  w.flops = static_cast<double>(samples) * cost.flops_train_per_sample +
            static_cast<double>(w.steps) * cost.flops_update_per_step +
            (w.ends_chunk ? static_cast<double>(w.test) * cost.flops_forward_per_sample : 0.0);
  return w;
}

}  // namespace hermes::protocols
