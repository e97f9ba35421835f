#include "models/nn/dense.h"

#include <algorithm>
#include <stdexcept>

#include "models/nn/columns.h"
#include "models/nn/gemm.h"

namespace hermes::nn {

template <typename T>
Dense<T>::Dense(Shape in, int units, Init init)
    : Layer<T>(in), in_features_(static_cast<int>(in.size())), units_(units), init_(init) {
  if (units <= 0) throw std::invalid_argument("Dense: units must be > 0");
  this->out_ = Shape{units, 1, 1, Layout::kHWC};
}

template <typename T>
std::string Dense<T>::name() const {
  return "dense " + std::to_string(units_);
}

template <typename T>
std::size_t Dense<T>::num_params() const {
  return static_cast<std::size_t>(units_) * static_cast<std::size_t>(in_features_ + 1);
}

template <typename T>
void Dense<T>::init_params(RandomStream& rng) {
  const std::size_t nw = static_cast<std::size_t>(units_) * static_cast<std::size_t>(in_features_);
  fill_uniform(this->params_, nw, init_limit(init_, in_features_, units_), rng);
  std::fill_n(this->params_ + nw, units_, T(0));
}

template <typename T>
void Dense<T>::forward(const T* x, T* y, int n) {
  const T* W = this->params_;  // units x in
  const T* b = W + static_cast<std::ptrdiff_t>(units_) * in_features_;
  // Bias first, then the product accumulates into it: one pass over Y instead of two.
  fill_columns(b, units_, n, y);
  gemm(Transpose::kNo, Transpose::kNo, units_, n, in_features_, W, units_, x, in_features_, y,
       units_, true);
}

template <typename T>
void Dense<T>::backward(const T* x, const T* /*y*/, T* dy, T* dx, int n) {
  const T* W = this->params_;
  T* dW = this->grads_;
  T* db = dW + static_cast<std::ptrdiff_t>(units_) * in_features_;
  gemm(Transpose::kNo, Transpose::kYes, units_, in_features_, n, dy, units_, x, in_features_, dW,
       units_, false);  // dW = dY X^T
  sum_columns(dy, units_, n, db);
  if (dx != nullptr) {
    gemm(Transpose::kYes, Transpose::kNo, in_features_, n, units_, W, units_, dy, units_, dx,
         in_features_, false);  // dX = W^T dY
  }
}

template <typename T>
double Dense<T>::flops_forward() const {
  return 2.0 * units_ * in_features_ + units_;
}

template <typename T>
double Dense<T>::flops_backward(bool need_dx) const {
  const double gemm = 2.0 * units_ * in_features_;
  return gemm + units_ + (need_dx ? gemm : 0.0);
}

template class Dense<float>;
template class Dense<double>;

}  // namespace hermes::nn
