// A sequential classifier (layers + fused softmax/cross-entropy loss) whose parameters are ONE
// flat buffer and whose gradients are ONE flat buffer of the same layout. Each layer works on a
// view of its slice, so snapshots, gradient sums and weighted averages of models
// are single vector operations on params() / grads() (see param_ops.h).
//
// Workspaces (activations, gradients, im2col columns, pool arg-max) are allocated by
// reserve_batch(capacity) and reused by every batch of up to `capacity` samples: forward,
// forward_backward and sgd_step never allocate (checked by a malloc-counting test).
// Not thread-safe: one model per thread; distinct models share nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "models/nn/layer.h"
#include "models/nn/model_spec.h"
#include "models/nn/softmax_ce.h"

namespace hermes::nn {

template <typename T>
class BasicModel {
 public:
  // Builds the layers; parameters are zero until init_params() or set_params().
  // Throws std::invalid_argument if the layers do not fit the input or the class count.
  explicit BasicModel(ModelSpec spec);
  // Copies spec and parameters (not gradients or workspaces).
  BasicModel(const BasicModel& other);
  // Same spec: copies parameters only, keeping this model's workspaces. Else rebuilds.
  BasicModel& operator=(const BasicModel& other);
  BasicModel(BasicModel&&) noexcept = default;
  BasicModel& operator=(BasicModel&&) noexcept = default;
  ~BasicModel();

  const ModelSpec& spec() const { return spec_; }
  // Glorot/He-uniform weights (spec().init) drawn layer by layer in parameter order; biases 0.
  void init_params(RandomStream& rng);

  std::size_t num_params() const { return params_.size(); }
  std::span<T> params() { return params_; }
  std::span<const T> params() const { return params_; }
  std::span<T> grads() { return grads_; }
  std::span<const T> grads() const { return grads_; }
  // Copies `p` (size num_params(), else std::invalid_argument) into the parameters.
  void set_params(std::span<const T> p);

  std::size_t num_layers() const { return layers_.size(); }
  const Layer<T>& layer(std::size_t i) const { return *layers_[i]; }
  // Offset of layer i's slice in params()/grads().
  std::size_t param_offset(std::size_t i) const { return offsets_[i]; }
  const Shape& input_shape() const { return spec_.input; }
  std::size_t input_dim() const { return spec_.input.size(); }
  int num_classes() const { return spec_.num_classes; }

  // FLOPs per sample, counting multiply-add = 2 and bias add = 1 in dense and conv layers only
  // (ReLU, pooling, flatten, softmax/CE are comparisons, copies or O(classes): not counted).
  double flops_forward_per_sample() const;
  // forward + backward: parameter gradients of every layer, and input gradients of the layers
  // above the first one with parameters (below it nothing needs a gradient).
  double flops_train_per_sample() const;
  // The SGD update params -= lr * grads, once per step: 2 FLOPs per parameter.
  double flops_update_per_step() const { return 2.0 * static_cast<double>(num_params()); }

  // Sizes every workspace for batches of up to `capacity` samples (grows only).
  void reserve_batch(int capacity);
  // Frees the workspaces (an idle model then holds only parameters and gradients).
  void release_workspace();
  int batch_capacity() const { return capacity_; }
  // Bytes held by workspaces (for tests and memory accounting).
  std::size_t workspace_bytes() const;

  // Input buffer: input_dim() x batch_capacity(), sample-major; fill the first n samples.
  T* input() { return input_.data(); }

  // Forward pass of the first n input samples; returns the logits (num_classes x n).
  const T* forward(int n);
  // Forward + loss + backward: grads() becomes the gradient of the mean cross-entropy over the
  // n samples. Returns the loss sum and the number of correct arg-max predictions.
  SoftmaxCeResult forward_backward(const std::uint8_t* labels, int n);
  // Forward + loss only.
  SoftmaxCeResult forward_loss(const std::uint8_t* labels, int n);
  // Plain SGD: params -= lr * grads.
  void sgd_step(T lr);
  // SGD with momentum and weight decay as PyTorch's torch.optim.SGD takes one step (dampening 0,
  // not Nesterov):
  //   d = grads + weight_decay * params;  v = momentum * v + d;  params -= lr * v.
  // The velocity v starts at 0 (so the first step's v is d, as PyTorch's buffer starts as a copy
  // of d) and stays with the model from step to step, whatever set_params installs (a worker's
  // optimiser state is its own, not the pulled model's) until reset_velocity(). With momentum 0 v
  // is not kept; momentum 0 and weight_decay 0 is sgd_step(lr), bit for bit.
  void sgd_step(T lr, T momentum, T weight_decay);
  // Forgets the velocity (a worker process that starts again).
  void reset_velocity() { velocity_.clear(); }
  // The velocity (empty before the first step with momentum, or after reset_velocity()).
  std::span<const T> velocity() const { return velocity_; }

  // One line per layer: kind, output shape, parameter count.
  std::string summary() const;

 private:
  void build();
  void check_batch(int n) const;

  ModelSpec spec_;
  std::vector<T> params_;
  std::vector<T> grads_;
  std::vector<T> velocity_;  // sgd_step with momentum: allocated at its first step
  std::vector<std::unique_ptr<Layer<T>>> layers_;
  std::vector<std::size_t> offsets_;
  std::vector<bool> needs_dx_;  // some layer below has parameters

  int capacity_ = 0;
  std::vector<T> input_;
  std::vector<std::vector<T>> act_storage_;  // outputs of layers that are not in place
  std::vector<T*> out_;                      // output buffer of each layer
  std::vector<T> grad_a_, grad_b_;           // ping-pong buffers for activation gradients
};

using Model = BasicModel<float>;

}  // namespace hermes::nn
