// Declarative description of a sequential model: input shape, layers, classes, initialiser.
// A BasicModel is built from one; two models with equal specs have identical parameter layouts.
#pragma once

#include <string>
#include <vector>

#include "models/nn/init.h"
#include "models/nn/shape.h"

namespace hermes::nn {

enum class LayerKind { kDense, kRelu, kConv2D, kMaxPool2, kFlatten };

struct LayerSpec {
  LayerKind kind = LayerKind::kRelu;
  int units = 0;   // dense units or conv filters
  int kernel = 0;  // conv kernel size (k x k)

  static LayerSpec dense(int units) { return {LayerKind::kDense, units, 0}; }
  static LayerSpec relu() { return {LayerKind::kRelu, 0, 0}; }
  static LayerSpec conv2d(int filters, int kernel) { return {LayerKind::kConv2D, filters, kernel}; }
  static LayerSpec maxpool2() { return {LayerKind::kMaxPool2, 0, 0}; }
  static LayerSpec flatten() { return {LayerKind::kFlatten, 0, 0}; }
  bool operator==(const LayerSpec&) const = default;
};

struct ModelSpec {
  std::string name;  // e.g. "mlp", "cnn"
  Shape input;       // one sample as stored in the dataset (layout CHW)
  int num_classes = 10;
  std::vector<LayerSpec> layers;  // the last layer must output num_classes logits
  Init init = Init::kGlorotUniform;
  bool operator==(const ModelSpec&) const = default;
};

}  // namespace hermes::nn
