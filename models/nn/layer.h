// Base class of the layers of a sequential model. T is float for training and double for the
// finite-difference gradient checks (both are instantiated explicitly in the .cc files).
//
// Contract (n = samples in the batch, n <= the capacity given to reserve()):
// - forward(x, y, n): x holds n samples of in_shape(), y receives n samples of out_shape().
// - backward(x, y, dy, dx, n): dy is dLoss/dy; writes this layer's parameter gradients into its
//   slice of the model's gradient buffer (overwriting, not accumulating) and, if dx != nullptr,
//   dLoss/dx into dx. The model passes dx == nullptr when no layer below has parameters.
// - Layers with in_place() == true accept y == x and dx == dy (the model uses that for ReLU and
//   flatten, so they cost no extra buffer).
// No layer allocates in forward/backward: workspaces are sized by reserve().
#pragma once

#include <cstddef>
#include <string>

#include "models/nn/shape.h"

namespace hermes {
class RandomStream;
}  // namespace hermes

namespace hermes::nn {

template <typename T>
class Layer {
 public:
  explicit Layer(Shape in) : in_(in), out_(in) {}
  virtual ~Layer() = default;
  Layer(const Layer&) = delete;
  Layer& operator=(const Layer&) = delete;

  virtual std::string name() const = 0;
  const Shape& in_shape() const { return in_; }
  const Shape& out_shape() const { return out_; }

  virtual std::size_t num_params() const { return 0; }
  // Points the layer at its slices of the model's flat parameter and gradient buffers.
  virtual void bind(T* params, T* grads) {
    params_ = params;
    grads_ = grads;
  }
  // Draws the initial weights into the bound parameter slice (biases zero).
  virtual void init_params(RandomStream& /*rng*/) {}
  // Sizes the layer's private workspaces for batches of up to `capacity` samples.
  virtual void reserve(int /*capacity*/) {}
  virtual void release() {}
  virtual bool in_place() const { return false; }

  virtual void forward(const T* x, T* y, int n) = 0;
  virtual void backward(const T* x, const T* y, T* dy, T* dx, int n) = 0;

  // FLOPs per sample (multiply-add = 2, bias add = 1; comparisons and copies count 0).
  virtual double flops_forward() const { return 0.0; }
  // Backward FLOPs per sample: parameter gradients, plus the input gradient when need_dx.
  virtual double flops_backward(bool /*need_dx*/) const { return 0.0; }

 protected:
  Shape in_;
  Shape out_;
  T* params_ = nullptr;
  T* grads_ = nullptr;
};

}  // namespace hermes::nn
