// Flatten: (C, H, W) -> (C*H*W). Activations are already one contiguous run per sample, so this
// only changes the shape; forward/backward copy only when the model gives distinct buffers.
// The flattened order is the input's memory order: HWC after a conv/pool (as Keras' Flatten on
// channels-last data), CHW when applied directly to the model input.
#pragma once

#include "models/nn/layer.h"

namespace hermes::nn {

template <typename T>
class Flatten final : public Layer<T> {
 public:
  explicit Flatten(Shape in) : Layer<T>(in) {
    this->out_ = Shape{static_cast<int>(in.size()), 1, 1, Layout::kHWC};
  }

  std::string name() const override { return "flatten"; }
  bool in_place() const override { return true; }
  void forward(const T* x, T* y, int n) override;
  void backward(const T* x, const T* y, T* dy, T* dx, int n) override;
};

}  // namespace hermes::nn
