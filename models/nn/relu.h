// ReLU, y = max(x, 0). Works in place; backward masks dy by y > 0 (the gradient at 0 is 0).
#pragma once

#include "models/nn/layer.h"

namespace hermes::nn {

template <typename T>
class Relu final : public Layer<T> {
 public:
  explicit Relu(Shape in) : Layer<T>(in) {}

  std::string name() const override { return "relu"; }
  bool in_place() const override { return true; }
  void forward(const T* x, T* y, int n) override;
  void backward(const T* x, const T* y, T* dy, T* dx, int n) override;
};

}  // namespace hermes::nn
