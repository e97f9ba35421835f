#include "sim/protocols/skeleton/workload.h"

#include <algorithm>
#include <cmath>

#include "models/data/data_dir.h"
#include "models/nn/layer_plan.h"
#include "models/nn/zoo.h"

namespace hermes::protocols {

namespace {

nn::ModelSpec sized_model_spec(const scenario::ModelSpec& model, const nn::Shape& input,
                               int classes) {
  nn::ModelSpec spec;
  if (model.is_preset()) {
    spec = model.name == "cnn" ? nn::cnn_spec(input, classes) : nn::mlp_spec(input, classes);
  } else {
    spec = nn::ModelSpec{model.name, input, classes, model.layers, model.init};
  }
  spec.init = model.init;
  return spec;
}

}  // namespace

nn::ModelSpec scenario_model_spec(const scenario::Scenario& s) {
  const data::DatasetFiles& d = s.dataset.files;
  return sized_model_spec(
      s.model, nn::Shape{d.shape.channels, d.shape.height, d.shape.width, nn::Layout::kCHW},
      d.classes);
}

nn::ModelSpec scenario_model_spec(const scenario::Scenario& s, const data::Dataset& data) {
  return sized_model_spec(s.model,
                          nn::Shape{data.channels, data.height, data.width, nn::Layout::kCHW},
                          data.num_classes);
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
  // From the layers' plan: the model itself (up to nn::kMaxModelParams) is never allocated here.
  const nn::ModelSpec spec = scenario_model_spec(s);
  const nn::ModelPlanTotals t = nn::plan_totals(nn::plan_layers(spec));
  ModelCost c;
  c.flops_forward_per_sample = t.flops_forward;
  c.flops_train_per_sample = t.flops_train;
  c.flops_update_per_step = 2.0 * static_cast<double>(t.params);
  c.params = static_cast<std::int64_t>(t.params);
  c.sample_floats = static_cast<std::int64_t>(spec.input.size());
  return c;
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
