#include "models/nn/param_ops.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace hermes::nn {

namespace {

void check_size(std::size_t got, std::size_t want, const char* what) {
  if (got != want) {
    throw std::invalid_argument(std::string(what) + ": size mismatch (" + std::to_string(got) +
                                " vs " + std::to_string(want) + ")");
  }
}

}  // namespace

void axpy(float a, std::span<const float> x, std::span<float> y) {
  check_size(x.size(), y.size(), "axpy");
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = y[i] + a * x[i];
}

void scale(float a, std::span<float> x) {
  for (float& v : x) v = v * a;
}

void weighted_average(std::span<const std::span<const float>> xs, std::span<const double> weights,
                      std::span<float> out) {
  if (xs.empty()) throw std::invalid_argument("weighted_average: no inputs");
  check_size(weights.size(), xs.size(), "weighted_average weights");
  double total = 0.0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    check_size(xs[i].size(), out.size(), "weighted_average");
    if (!std::isfinite(weights[i]))
      throw std::invalid_argument("weighted_average: weight not finite");
    total += weights[i];
  }
  if (!(total > 0.0)) throw std::invalid_argument("weighted_average: weights must sum to > 0");
  // Block-wise with a stack accumulator so that `out` may alias an input.
  constexpr std::size_t kBlock = 512;
  alignas(64) float acc[kBlock];
  for (std::size_t begin = 0; begin < out.size(); begin += kBlock) {
    const std::size_t len = std::min(kBlock, out.size() - begin);
    const float w0 = static_cast<float>(weights[0] / total);
    const float* x0 = xs[0].data() + begin;
    for (std::size_t j = 0; j < len; ++j) acc[j] = w0 * x0[j];
    for (std::size_t i = 1; i < xs.size(); ++i) {
      const float wi = static_cast<float>(weights[i] / total);
      const float* xi = xs[i].data() + begin;
      for (std::size_t j = 0; j < len; ++j) acc[j] = acc[j] + wi * xi[j];
    }
    std::copy_n(acc, len, out.data() + begin);
  }
}

void weighted_average(std::span<const float> a, double wa, std::span<const float> b, double wb,
                      std::span<float> out) {
  const std::span<const float> xs[2] = {a, b};
  const double ws[2] = {wa, wb};
  weighted_average(xs, ws, out);
}

}  // namespace hermes::nn
