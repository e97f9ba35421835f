// 2-D convolution, stride 1, 'valid' padding (Keras' default), k x k kernels, bias per filter.
// Implemented as im2col + one GEMM over the whole batch: the columns of all samples side by side
// form a (k*k*C) x (n*Ho*Wo) matrix, so the GEMM is large enough to run near peak, and its
// (F x n*Ho*Wo) column-major result is exactly the batch in HWC order.
// Parameters: the kernel as a column-major F x (k*k*C) matrix whose column index is
// (ky*k + kx)*C + c (same memory order as a Keras kernel (k, k, C, F) in C order), then F biases.
// Input may be CHW (the model input) or HWC (after another conv/pool); output is HWC.
#pragma once

#include <vector>

#include "models/nn/init.h"
#include "models/nn/layer.h"

namespace hermes::nn {

template <typename T>
class Conv2D final : public Layer<T> {
 public:
  Conv2D(Shape in, int filters, int kernel, Init init = Init::kGlorotUniform);

  std::string name() const override;
  std::size_t num_params() const override;
  void init_params(RandomStream& rng) override;
  void reserve(int capacity) override;
  void release() override;
  void forward(const T* x, T* y, int n) override;
  // Reuses the im2col workspace for the column gradients: call once after each forward.
  void backward(const T* x, const T* y, T* dy, T* dx, int n) override;
  double flops_forward() const override;
  double flops_backward(bool need_dx) const override;

  int filters() const { return filters_; }
  int kernel() const { return kernel_; }
  std::size_t workspace_capacity() const { return cols_.capacity(); }

 private:
  void im2col(const T* x, int n);
  void col2im(T* dx, int n) const;

  int filters_;
  int kernel_;
  Init init_;
  int patch_;   // k*k*C: rows of the column matrix
  int out_hw_;  // Ho*Wo
  int capacity_ = 0;
  std::vector<T> cols_;  // patch_ x (capacity * out_hw_)
};

}  // namespace hermes::nn
