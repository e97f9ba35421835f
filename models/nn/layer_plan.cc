#include "models/nn/layer_plan.h"

#include <algorithm>

#include "base/number_text.h"
#include "models/nn/conv2d.h"
#include "models/nn/dense.h"
#include "models/nn/flatten.h"
#include "models/nn/maxpool.h"
#include "models/nn/relu.h"

namespace hermes::nn {

template <typename T>
std::unique_ptr<Layer<T>> make_layer(const LayerSpec& spec, const Shape& in, Init init) {
  switch (spec.kind) {
    case LayerKind::kDense:
      return std::make_unique<Dense<T>>(in, spec.units, init);
    case LayerKind::kRelu:
      return std::make_unique<Relu<T>>(in);
    case LayerKind::kConv2D:
      return std::make_unique<Conv2D<T>>(in, spec.units, spec.kernel, init);
    case LayerKind::kMaxPool2:
      return std::make_unique<MaxPool2<T>>(in);
    case LayerKind::kFlatten:
      return std::make_unique<Flatten<T>>(in);
  }
  throw std::logic_error("make_layer: unknown layer kind");
}

template std::unique_ptr<Layer<float>> make_layer(const LayerSpec&, const Shape&, Init);
template std::unique_ptr<Layer<double>> make_layer(const LayerSpec&, const Shape&, Init);

namespace {

// "8x5x5 (channels x height x width)" or "10 values".
std::string shape_text(const Shape& s) {
  return s.h == 1 && s.w == 1 ? s.str() + " values" : s.str() + " (channels x height x width)";
}

// Why `spec` cannot follow an output of shape `in`; empty if it can.
std::string misfit(const LayerSpec& spec, const Shape& in) {
  switch (spec.kind) {
    case LayerKind::kDense:
      if (spec.units < 1 || spec.units > kMaxLayerWidth) {
        return "units " + std::to_string(spec.units) + " out of range (accepted: 1 to " +
               std::to_string(kMaxLayerWidth) + ")";
      }
      return "";
    case LayerKind::kConv2D:
      if (spec.units < 1 || spec.units > kMaxLayerWidth) {
        return "filters " + std::to_string(spec.units) + " out of range (accepted: 1 to " +
               std::to_string(kMaxLayerWidth) + ")";
      }
      if (spec.kernel < 1 || in.h < spec.kernel || in.w < spec.kernel) {
        return "a " + std::to_string(spec.kernel) + "x" + std::to_string(spec.kernel) +
               " kernel does not fit its input of " + shape_text(in) +
               " (accepted: kernel from 1 to " + std::to_string(std::min(in.h, in.w)) +
               ", as the convolution is 'valid')";
      }
      return "";
    case LayerKind::kMaxPool2:
      if (in.h < 2 || in.w < 2) {
        return "a 2x2 pool does not fit its input of " + shape_text(in) +
               " (accepted: an input of at least 2x2)";
      }
      return "";
    case LayerKind::kRelu:
    case LayerKind::kFlatten:
      return "";
  }
  return "unknown layer kind";
}

}  // namespace

std::vector<LayerPlan> plan_layers(const ModelSpec& spec) {
  if (spec.layers.empty()) throw LayerError(0, "a model needs at least one layer");
  std::vector<LayerPlan> plans;
  Shape shape = spec.input;
  double params = 0;
  bool params_below = false;  // as BasicModel::build's needs_dx_
  for (std::size_t i = 0; i < spec.layers.size(); ++i) {
    const LayerSpec& ls = spec.layers[i];
    const std::string why = misfit(ls, shape);
    if (!why.empty()) throw LayerError(i, layer_type_name(ls.kind) + ": " + why);
    const auto layer = make_layer<float>(ls, shape, spec.init);
    LayerPlan p{layer->name(),          shape,
                layer->out_shape(),     layer->num_params(),
                layer->flops_forward(), layer->flops_backward(params_below)};
    params_below = params_below || p.params > 0;
    params += static_cast<double>(p.params);
    if (params > kMaxModelParams) {
      throw LayerError(i, layer_type_name(ls.kind) + ": the model reaches " +
                              format_number(params) + " parameters here (accepted: at most " +
                              format_number(kMaxModelParams) + ")");
    }
    if (static_cast<double>(p.out.size()) > kMaxActivationsPerSample) {
      throw LayerError(i, layer_type_name(ls.kind) + ": outputs " +
                              format_number(static_cast<double>(p.out.size())) +
                              " values per sample (accepted: at most " +
                              format_number(kMaxActivationsPerSample) + ")");
    }
    shape = p.out;
    plans.push_back(std::move(p));
  }
  if (shape.size() != static_cast<std::size_t>(spec.num_classes)) {
    throw LayerError(spec.layers.size() - 1,
                     layer_type_name(spec.layers.back().kind) + ": the last layer outputs " +
                         shape_text(shape) + ", but the dataset has " +
                         std::to_string(spec.num_classes) +
                         " classes (accepted: a last dense layer of " +
                         std::to_string(spec.num_classes) + " units, one logit per class)");
  }
  return plans;
}

ModelPlanTotals plan_totals(const std::vector<LayerPlan>& plans) {
  ModelPlanTotals t;
  for (const LayerPlan& p : plans) {
    t.params += p.params;
    t.flops_forward += p.flops_forward;
  }
  // In BasicModel::flops_train_per_sample's order, so the sums agree to the bit.
  t.flops_train = t.flops_forward;
  for (const LayerPlan& p : plans) t.flops_train += p.flops_backward;
  return t;
}

std::string layer_type_name(LayerKind kind) {
  switch (kind) {
    case LayerKind::kDense:
      return "dense";
    case LayerKind::kRelu:
      return "relu";
    case LayerKind::kConv2D:
      return "conv2d";
    case LayerKind::kMaxPool2:
      return "maxpool";
    case LayerKind::kFlatten:
      return "flatten";
  }
  return "?";
}

std::string layers_text(const std::vector<LayerSpec>& layers) {
  std::string text;
  for (const LayerSpec& l : layers) {
    if (!text.empty()) text += ", ";
    text += layer_type_name(l.kind);
    if (l.kind == LayerKind::kDense) text += " " + std::to_string(l.units);
    if (l.kind == LayerKind::kConv2D) {
      text += " " + std::to_string(l.units) + " " + std::to_string(l.kernel) + "x" +
              std::to_string(l.kernel);
    }
  }
  return text;
}

}  // namespace hermes::nn
