#include "models/nn/flatten.h"

#include <algorithm>

namespace hermes::nn {

template <typename T>
void Flatten<T>::forward(const T* x, T* y, int n) {
  if (x != y) std::copy_n(x, this->in_.size() * static_cast<std::size_t>(n), y);
}

template <typename T>
void Flatten<T>::backward(const T* /*x*/, const T* /*y*/, T* dy, T* dx, int n) {
  if (dx != nullptr && dx != dy)
    std::copy_n(dy, this->in_.size() * static_cast<std::size_t>(n), dx);
}

template class Flatten<float>;
template class Flatten<double>;

}  // namespace hermes::nn
