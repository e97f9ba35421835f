#include "models/nn/softmax_ce.h"

#include <cstddef>
#include <stdexcept>
#include <string>

#include "base/portable_math.h"

namespace hermes::nn {

namespace {
// exp and log of libm give host-dependent last bits (base/portable_math.h); these compute
// in double with hermes::portable and round once to T.
template <typename T>
T exp_of(T x) {
  return static_cast<T>(portable::exp(static_cast<double>(x)));
}
template <typename T>
T log_of(T x) {
  return static_cast<T>(portable::log(static_cast<double>(x)));
}
}  // namespace

template <typename T>
SoftmaxCeResult softmax_cross_entropy(const T* logits, const std::uint8_t* labels, int classes,
                                      int n, T* dlogits, T grad_scale) {
  SoftmaxCeResult r;
  for (int j = 0; j < n; ++j) {
    const T* z = logits + static_cast<std::ptrdiff_t>(j) * classes;
    const int y = labels[j];
    if (y >= classes) {
      throw std::out_of_range("softmax_cross_entropy: label " + std::to_string(y) +
                              " >= number of classes " + std::to_string(classes));
    }
    int arg = 0;
    for (int i = 1; i < classes; ++i) {
      if (z[i] > z[arg]) arg = i;
    }
    const T m = z[arg];
    T sum = 0;  // in [1, classes]: no overflow whatever the logits
    for (int i = 0; i < classes; ++i) sum += exp_of(z[i] - m);
    // logsumexp(z) - z_y = (m - z_y) + log(sum): both terms are exact-ish and small, so the loss
    // keeps full relative precision even when the logits are ~1000 (lse - z_y would lose it).
    r.loss_sum += static_cast<double>(m - z[y]) + static_cast<double>(log_of(sum));
    r.correct += (arg == y) ? 1 : 0;
    if (dlogits != nullptr) {
      T* g = dlogits + static_cast<std::ptrdiff_t>(j) * classes;
      const T scale = grad_scale / sum;
      for (int i = 0; i < classes; ++i) g[i] = scale * exp_of(z[i] - m);
      g[y] -= grad_scale;
    }
  }
  return r;
}

template SoftmaxCeResult softmax_cross_entropy<float>(const float*, const std::uint8_t*, int, int,
                                                      float*, float);
template SoftmaxCeResult softmax_cross_entropy<double>(const double*, const std::uint8_t*, int, int,
                                                       double*, double);

}  // namespace hermes::nn
