// Finite-difference gradient checks in double precision (the layers and models are templates,
// instantiated for double just for this). Central differences with step 1e-5; an analytic and a
// numeric derivative agree if |a - n| <= 1e-6 * max(1, |a|, |n|): in double the truncation error
// is ~1e-10 and the rounding error ~1e-11, so a real bug (a wrong index, a missing term) shows
// up as an O(1) relative error while exact gradients pass with orders of magnitude to spare.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "base/random.h"
#include "models/nn/layer.h"

namespace hermes::nn::testing {

constexpr double kStep = 1e-5;
constexpr double kTolerance = 1e-6;

inline bool close(double analytic, double numeric) {
  const double scale = std::max({1.0, std::abs(analytic), std::abs(numeric)});
  return std::abs(analytic - numeric) <= kTolerance * scale;
}

// d loss / d v[i] by central differences, restoring v[i].
inline double numeric_derivative(const std::function<double()>& loss, double& v) {
  const double saved = v;
  v = saved + kStep;
  const double up = loss();
  v = saved - kStep;
  const double down = loss();
  v = saved;
  return (up - down) / (2.0 * kStep);
}

inline std::vector<double> random_vector(std::size_t n, RandomStream& rng, double lo = -1,
                                         double hi = 1) {
  std::vector<double> v(n);
  for (double& x : v) x = rng.uniform(lo, hi);
  return v;
}

// Checks a layer's parameter and input gradients for the scalar loss L = sum(r .* y), whose
// gradient with respect to y is r (random). Returns the number of values checked.
inline int check_layer(Layer<double>& layer, int n, std::uint64_t seed) {
  RandomStream rng(seed, 7);
  std::vector<double> p = random_vector(layer.num_params(), rng, -0.5, 0.5);
  std::vector<double> g(p.size(), 0.0);
  layer.bind(p.data(), g.data());
  layer.reserve(n);
  const std::size_t in = layer.in_shape().size() * static_cast<std::size_t>(n);
  const std::size_t out = layer.out_shape().size() * static_cast<std::size_t>(n);
  std::vector<double> x = random_vector(in, rng);
  const std::vector<double> r = random_vector(out, rng);
  std::vector<double> y(out);
  auto loss = [&] {
    layer.forward(x.data(), y.data(), n);
    double s = 0.0;
    for (std::size_t i = 0; i < out; ++i) s += r[i] * y[i];
    return s;
  };
  loss();
  std::vector<double> dy = r;
  std::vector<double> dx(in, 0.0);
  layer.backward(x.data(), y.data(), dy.data(), dx.data(), n);
  int checked = 0;
  for (std::size_t i = 0; i < p.size(); ++i, ++checked) {
    const double num = numeric_derivative(loss, p[i]);
    EXPECT_TRUE(close(g[i], num)) << layer.name() << " param " << i << ": analytic " << g[i]
                                  << " numeric " << num;
  }
  for (std::size_t i = 0; i < in; ++i, ++checked) {
    const double num = numeric_derivative(loss, x[i]);
    EXPECT_TRUE(close(dx[i], num))
        << layer.name() << " input " << i << ": analytic " << dx[i] << " numeric " << num;
  }
  return checked;
}

}  // namespace hermes::nn::testing
