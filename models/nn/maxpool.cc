#include "models/nn/maxpool.h"

#include <algorithm>
#include <stdexcept>
#include <type_traits>

namespace hermes::nn {

template <typename T>
MaxPool2<T>::MaxPool2(Shape in) : Layer<T>(in) {
  if (in.h < 2 || in.w < 2) throw std::invalid_argument("MaxPool2: input smaller than 2x2");
  this->out_ = Shape{in.c, in.h / 2, in.w / 2, Layout::kHWC};
}

template <typename T>
std::string MaxPool2<T>::name() const {
  return "maxpool 2x2";
}

template <typename T>
void MaxPool2<T>::reserve(int capacity) {
  if (capacity <= capacity_) return;
  capacity_ = capacity;
  argmax_.assign(this->out_.size() * static_cast<std::size_t>(capacity), 0);
}

template <typename T>
void MaxPool2<T>::release() {
  capacity_ = 0;
  std::vector<std::int32_t>().swap(argmax_);
}

template <typename T>
void MaxPool2<T>::forward(const T* x, T* y, int n) {
  if (n > capacity_) throw std::logic_error("MaxPool2::forward: batch above reserved capacity");
  // Shape fields as locals: the arg-max stores are int32 and could alias them otherwise, which
  // forces a reload per element and blocks vectorisation.
  const int C = this->in_.c, W = this->in_.w, OH = this->out_.h, OW = this->out_.w;
  const bool hwc = this->in_.layout == Layout::kHWC;
  // Element strides of the input for row and column; the channel stride is passed to `pool` as
  // a compile-time 1 for HWC input so that its channel loop vectorises.
  const int sh = hwc ? W * C : W;
  const int sw = hwc ? C : 1;
  const std::size_t in_size = this->in_.size();
  auto pool = [&, C, OH, OW, sh, sw](auto sc) {
    std::int32_t* __restrict arg = argmax_.data();
    T* __restrict yo = y;
    for (int b = 0; b < n; ++b) {
      const T* __restrict xb = x + static_cast<std::size_t>(b) * in_size;
      for (int oy = 0; oy < OH; ++oy) {
        for (int ox = 0; ox < OW; ++ox, yo += C, arg += C) {
          const int o0 = 2 * oy * sh + 2 * ox * sw;
          const int o1 = o0 + sw, o2 = o0 + sh, o3 = o0 + sh + sw;
          // Branch-free selects: data-dependent branches would mispredict half the time.
          for (int c = 0; c < C; ++c) {
            const int cs = c * sc;
            const T v0 = xb[o0 + cs], v1 = xb[o1 + cs], v2 = xb[o2 + cs], v3 = xb[o3 + cs];
            const bool b01 = v1 > v0, b23 = v3 > v2;
            const T m01 = b01 ? v1 : v0, m23 = b23 ? v3 : v2;
            const int a01 = b01 ? o1 : o0, a23 = b23 ? o3 : o2;
            const bool hi = m23 > m01;  // ties keep the earlier window element
            yo[c] = hi ? m23 : m01;
            arg[c] = (hi ? a23 : a01) + cs;
          }
        }
      }
    }
  };
  if (hwc) {
    pool(std::integral_constant<int, 1>{});
  } else {
    pool(this->in_.h * W);
  }
}

template <typename T>
void MaxPool2<T>::backward(const T* /*x*/, const T* /*y*/, T* dy, T* dx, int n) {
  if (dx == nullptr) return;
  const std::size_t in_size = this->in_.size();
  const std::size_t out_size = this->out_.size();
  std::fill_n(dx, in_size * static_cast<std::size_t>(n), T(0));
  for (int b = 0; b < n; ++b) {
    T* dxb = dx + static_cast<std::size_t>(b) * in_size;
    const T* dyb = dy + static_cast<std::size_t>(b) * out_size;
    const std::int32_t* arg = argmax_.data() + static_cast<std::size_t>(b) * out_size;
    for (std::size_t i = 0; i < out_size; ++i) dxb[arg[i]] += dyb[i];
  }
}

template class MaxPool2<float>;
template class MaxPool2<double>;

}  // namespace hermes::nn
