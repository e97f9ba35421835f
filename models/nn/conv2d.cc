#include "models/nn/conv2d.h"

#include <algorithm>
#include <stdexcept>

#include "models/nn/columns.h"
#include "models/nn/gemm.h"

namespace hermes::nn {

template <typename T>
Conv2D<T>::Conv2D(Shape in, int filters, int kernel, Init init)
    : Layer<T>(in), filters_(filters), kernel_(kernel), init_(init) {
  if (filters <= 0 || kernel <= 0) throw std::invalid_argument("Conv2D: filters, kernel > 0");
  if (in.h < kernel || in.w < kernel) {
    throw std::invalid_argument("Conv2D: kernel " + std::to_string(kernel) + " larger than input " +
                                in.str());
  }
  this->out_ = Shape{filters, in.h - kernel + 1, in.w - kernel + 1, Layout::kHWC};
  patch_ = kernel * kernel * in.c;
  out_hw_ = this->out_.h * this->out_.w;
}

template <typename T>
std::string Conv2D<T>::name() const {
  return "conv2d " + std::to_string(filters_) + " " + std::to_string(kernel_) + "x" +
         std::to_string(kernel_);
}

template <typename T>
std::size_t Conv2D<T>::num_params() const {
  return static_cast<std::size_t>(filters_) * static_cast<std::size_t>(patch_ + 1);
}

template <typename T>
void Conv2D<T>::init_params(RandomStream& rng) {
  const std::size_t nw = static_cast<std::size_t>(filters_) * static_cast<std::size_t>(patch_);
  // Keras' fans for a conv kernel: receptive field times input / output channels.
  const double fan_in = patch_;
  const double fan_out = static_cast<double>(kernel_) * kernel_ * filters_;
  fill_uniform(this->params_, nw, init_limit(init_, fan_in, fan_out), rng);
  std::fill_n(this->params_ + nw, filters_, T(0));
}

template <typename T>
void Conv2D<T>::reserve(int capacity) {
  if (capacity <= capacity_) return;
  capacity_ = capacity;
  cols_.assign(static_cast<std::size_t>(patch_) * static_cast<std::size_t>(out_hw_) *
                   static_cast<std::size_t>(capacity),
               T(0));
}

template <typename T>
void Conv2D<T>::release() {
  capacity_ = 0;
  std::vector<T>().swap(cols_);
}

template <typename T>
void Conv2D<T>::im2col(const T* x, int n) {
  const Shape& in = this->in_;
  const Shape& out = this->out_;
  const int k = kernel_;
  const std::size_t in_size = in.size();
  T* col = cols_.data();
  if (in.layout == Layout::kHWC) {
    // A kernel row (k pixels x C channels) is one contiguous run of the input.
    const std::size_t run = static_cast<std::size_t>(k) * static_cast<std::size_t>(in.c);
    for (int b = 0; b < n; ++b) {
      const T* xb = x + static_cast<std::size_t>(b) * in_size;
      for (int oy = 0; oy < out.h; ++oy) {
        for (int ox = 0; ox < out.w; ++ox, col += patch_) {
          for (int ky = 0; ky < k; ++ky) {
            const T* src = xb + (static_cast<std::size_t>(oy + ky) * in.w + ox) * in.c;
            std::copy_n(src, run, col + static_cast<std::size_t>(ky) * run);
          }
        }
      }
    }
  } else {
    // CHW (the model input): for one output row, each (c, ky, kx) row of the patch matrix
    // reads a contiguous run of the input row; the strided writes stay within an L1-sized block.
    const int C = in.c, W = in.w, OH = out.h, OW = out.w, P = patch_;
    const std::size_t plane = static_cast<std::size_t>(in.h) * static_cast<std::size_t>(W);
    for (int b = 0; b < n; ++b) {
      const T* xb = x + static_cast<std::size_t>(b) * in_size;
      for (int oy = 0; oy < OH; ++oy, col += static_cast<std::size_t>(OW) * P) {
        for (int ky = 0; ky < k; ++ky) {
          for (int kx = 0; kx < k; ++kx) {
            for (int c = 0; c < C; ++c) {
              const T* src = xb + c * plane + static_cast<std::size_t>(oy + ky) * W + kx;
              T* dst = col + (ky * k + kx) * C + c;
              for (int ox = 0; ox < OW; ++ox) dst[static_cast<std::size_t>(ox) * P] = src[ox];
            }
          }
        }
      }
    }
  }
}

template <typename T>
void Conv2D<T>::col2im(T* dx, int n) const {
  const Shape& in = this->in_;
  const Shape& out = this->out_;
  const int k = kernel_;
  const std::size_t in_size = in.size();
  std::fill_n(dx, in_size * static_cast<std::size_t>(n), T(0));
  const T* col = cols_.data();
  if (in.layout == Layout::kHWC) {
    const std::size_t run = static_cast<std::size_t>(k) * static_cast<std::size_t>(in.c);
    for (int b = 0; b < n; ++b) {
      T* xb = dx + static_cast<std::size_t>(b) * in_size;
      for (int oy = 0; oy < out.h; ++oy) {
        for (int ox = 0; ox < out.w; ++ox, col += patch_) {
          for (int ky = 0; ky < k; ++ky) {
            T* dst = xb + (static_cast<std::size_t>(oy + ky) * in.w + ox) * in.c;
            const T* src = col + static_cast<std::size_t>(ky) * run;
            for (std::size_t i = 0; i < run; ++i) dst[i] += src[i];
          }
        }
      }
    }
  } else {
    const std::size_t plane = static_cast<std::size_t>(in.h) * static_cast<std::size_t>(in.w);
    for (int b = 0; b < n; ++b) {
      T* xb = dx + static_cast<std::size_t>(b) * in_size;
      for (int oy = 0; oy < out.h; ++oy) {
        for (int ox = 0; ox < out.w; ++ox, col += patch_) {
          const T* src = col;
          for (int ky = 0; ky < k; ++ky) {
            for (int kx = 0; kx < k; ++kx) {
              T* dst = xb + static_cast<std::size_t>(oy + ky) * in.w + (ox + kx);
              for (int c = 0; c < in.c; ++c) dst[c * plane] += *src++;
            }
          }
        }
      }
    }
  }
}

template <typename T>
void Conv2D<T>::forward(const T* x, T* y, int n) {
  if (n > capacity_) throw std::logic_error("Conv2D::forward: batch above reserved capacity");
  im2col(x, n);
  const int cols = n * out_hw_;
  const T* W = this->params_;  // filters x patch
  const T* bias = W + static_cast<std::ptrdiff_t>(filters_) * patch_;
  fill_columns(bias, filters_, cols, y);
  gemm(Transpose::kNo, Transpose::kNo, filters_, cols, patch_, W, filters_, cols_.data(), patch_, y,
       filters_, true);
}

template <typename T>
void Conv2D<T>::backward(const T* /*x*/, const T* /*y*/, T* dy, T* dx, int n) {
  const int cols = n * out_hw_;
  const T* W = this->params_;
  T* dW = this->grads_;
  T* db = dW + static_cast<std::ptrdiff_t>(filters_) * patch_;
  gemm(Transpose::kNo, Transpose::kYes, filters_, patch_, cols, dy, filters_, cols_.data(), patch_,
       dW, filters_, false);  // dW = dY X^T
  sum_columns(dy, filters_, cols, db);
  if (dx != nullptr) {
    // dX columns = W^T dY; the im2col columns are no longer needed: reuse them.
    gemm(Transpose::kYes, Transpose::kNo, patch_, cols, filters_, W, filters_, dy, filters_,
         cols_.data(), patch_, false);
    col2im(dx, n);
  }
}

template <typename T>
double Conv2D<T>::flops_forward() const {
  return 2.0 * filters_ * patch_ * out_hw_ + static_cast<double>(filters_) * out_hw_;
}

template <typename T>
double Conv2D<T>::flops_backward(bool need_dx) const {
  const double gemm = 2.0 * filters_ * patch_ * out_hw_;
  return gemm + static_cast<double>(filters_) * out_hw_ + (need_dx ? gemm : 0.0);
}

template class Conv2D<float>;
template class Conv2D<double>;

}  // namespace hermes::nn
