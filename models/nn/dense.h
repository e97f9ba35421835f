// Fully connected layer: y = W x + b for each sample.
// Parameters in the model's flat buffer: W as a column-major (units x in) matrix, then b (units).
// That is the same memory order as a Keras Dense kernel of shape (in, units) in C order.
#pragma once

#include "models/nn/init.h"
#include "models/nn/layer.h"

namespace hermes::nn {

template <typename T>
class Dense final : public Layer<T> {
 public:
  // Flattens any input shape (the input buffer is used as is).
  Dense(Shape in, int units, Init init = Init::kGlorotUniform);

  std::string name() const override;
  std::size_t num_params() const override;
  void init_params(RandomStream& rng) override;
  void forward(const T* x, T* y, int n) override;
  void backward(const T* x, const T* y, T* dy, T* dx, int n) override;
  double flops_forward() const override;
  double flops_backward(bool need_dx) const override;

  int in_features() const { return in_features_; }
  int units() const { return units_; }

 private:
  int in_features_;
  int units_;
  Init init_;
};

}  // namespace hermes::nn
