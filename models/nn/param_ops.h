// Whole-model vector operations on flat parameter / gradient buffers (Model::params(),
// Model::grads(), snapshots of them). All sizes must match, else std::invalid_argument.
#pragma once

#include <span>

namespace hermes::nn {

// y += a * x
void axpy(float a, std::span<const float> x, std::span<float> y);
// x *= a
void scale(float a, std::span<float> x);
// out = sum_i w_i * xs[i] / sum_i w_i. `out` may alias any of the inputs (computed block-wise,
// every input read before out is written). Weights must be finite with a positive sum.
void weighted_average(std::span<const std::span<const float>> xs, std::span<const double> weights,
                      std::span<float> out);
// Two-input form, e.g. Hermes' G <- (G/L_prev + S/L_i) / (1/L_prev + 1/L_i):
//   weighted_average(G, 1/L_prev, S, 1/L_i, G).
void weighted_average(std::span<const float> a, double wa, std::span<const float> b, double wb,
                      std::span<float> out);

}  // namespace hermes::nn
