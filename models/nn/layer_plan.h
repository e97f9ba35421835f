// The shapes, parameter counts and FLOPs of a model's layers, worked out from its spec without
// building the model (no parameter or activation is allocated): what a scenario checks before a
// run, and what BasicModel builds from. A layer that cannot follow the one before it (a kernel
// larger than its input, a pool on a 1x1 map, a last layer that does not output one logit per
// class) is a LayerError naming the layer's index and the mismatch.
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/nn/layer.h"
#include "models/nn/model_spec.h"

namespace hermes::nn {

// The largest model the simulator builds: 1e9 parameters (4 GB per copy, and every worker keeps
// copies) and 1e8 activation values per sample at any layer.
inline constexpr double kMaxModelParams = 1e9;
inline constexpr double kMaxActivationsPerSample = 1e8;
// The largest dense units or conv filters one layer may have.
inline constexpr int kMaxLayerWidth = 1 << 20;

class LayerError : public std::invalid_argument {
 public:
  // `layer` is the index in ModelSpec::layers, or layers.size() for a problem of the model as a
  // whole (no layer at all).
  LayerError(std::size_t layer, const std::string& what)
      : std::invalid_argument(what), layer_(layer) {}
  std::size_t layer() const { return layer_; }

 private:
  std::size_t layer_;
};

struct LayerPlan {
  std::string name;  // the layer's own name: "dense 128", "conv2d 32 3x3", "maxpool 2x2"
  Shape in;
  Shape out;
  std::size_t params = 0;
  double flops_forward = 0;   // per sample, as Model::flops_forward_per_sample counts them
  double flops_backward = 0;  // per sample; no input gradient below the first parameters
};

// A model's totals per sample, as BasicModel counts them (model.h), from its plan.
struct ModelPlanTotals {
  std::size_t params = 0;
  double flops_forward = 0;
  double flops_train = 0;  // forward + backward
};
ModelPlanTotals plan_totals(const std::vector<LayerPlan>& plans);

// The layer of `spec` on input `in` (Dense, Conv2D, ...). Throws std::invalid_argument if it does
// not fit.
template <typename T>
std::unique_ptr<Layer<T>> make_layer(const LayerSpec& spec, const Shape& in, Init init);

// One entry per layer of `spec`. Throws LayerError for the first layer that does not fit its input,
// for a last layer whose output is not spec.num_classes values, and for a model beyond the limits
// above.
std::vector<LayerPlan> plan_layers(const ModelSpec& spec);

// "dense", "relu", "conv2d", "maxpool", "flatten": the layer's type as a scenario writes it.
std::string layer_type_name(LayerKind kind);

// "flatten, dense 128, relu, dense 64, relu, dense 10": the spec's layers in one line.
std::string layers_text(const std::vector<LayerSpec>& layers);

}  // namespace hermes::nn
