#include "models/nn/relu.h"

#include "models/nn/eigen_config.h"

namespace hermes::nn {

template <typename T>
void Relu<T>::forward(const T* x, T* y, int n) {
  const auto len = static_cast<Eigen::Index>(this->in_.size()) * n;
  ArrayMap<T>(y, len) = ConstArrayMap<T>(x, len).max(T(0));
}

template <typename T>
void Relu<T>::backward(const T* /*x*/, const T* y, T* dy, T* dx, int n) {
  if (dx == nullptr) return;
  const auto len = static_cast<Eigen::Index>(this->in_.size()) * n;
  const ConstArrayMap<T> Y(y, len);
  ArrayMap<T>(dx, len) = (Y > T(0)).select(ConstArrayMap<T>(dy, len), T(0));
}

template class Relu<float>;
template class Relu<double>;

}  // namespace hermes::nn
