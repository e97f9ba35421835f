#include "models/nn/relu.h"

#include <cstddef>

namespace hermes::nn {

// max(x, 0) as std::max(x, 0) computes it: (x < 0) ? 0 : x, so NaN stays NaN and -0 stays -0.
template <typename T>
void Relu<T>::forward(const T* x, T* y, int n) {
  const std::size_t len = this->in_.size() * static_cast<std::size_t>(n);
  for (std::size_t i = 0; i < len; ++i) y[i] = x[i] < T(0) ? T(0) : x[i];
}

template <typename T>
void Relu<T>::backward(const T* /*x*/, const T* y, T* dy, T* dx, int n) {
  if (dx == nullptr) return;
  const std::size_t len = this->in_.size() * static_cast<std::size_t>(n);
  for (std::size_t i = 0; i < len; ++i) dx[i] = y[i] > T(0) ? dy[i] : T(0);
}

template class Relu<float>;
template class Relu<double>;

}  // namespace hermes::nn
