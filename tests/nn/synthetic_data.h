// Small synthetic classification data for training tests: Gaussian blobs around random
// per-class prototypes in [0, 1]^dim. Seed picks the prototypes, sample_stream the samples.
#pragma once

#include <cstdint>
#include <numeric>
#include <vector>

#include "base/random.h"
#include "models/data/dataset.h"

namespace hermes::nn::testing {

inline data::Dataset blobs(int channels, int height, int width, int classes, int samples,
                           double noise, std::uint64_t seed, std::uint64_t sample_stream = 0) {
  data::Dataset ds;
  ds.name = "blobs";
  ds.channels = channels;
  ds.height = height;
  ds.width = width;
  ds.num_classes = classes;
  RandomStream rng(seed, 0);
  const std::size_t dim = ds.sample_dim();
  std::vector<double> proto(dim * static_cast<std::size_t>(classes));
  for (double& p : proto) p = rng.uniform01();
  // Prototypes depend on the seed only; samples also on sample_stream (train vs test sets).
  rng = RandomStream(seed, 1 + sample_stream);
  ds.pixels.resize(dim * static_cast<std::size_t>(samples));
  ds.labels.resize(static_cast<std::size_t>(samples));
  for (int s = 0; s < samples; ++s) {
    const auto c = static_cast<std::size_t>(rng.uniform_int(static_cast<std::uint64_t>(classes)));
    ds.labels[s] = static_cast<std::uint8_t>(c);
    for (std::size_t i = 0; i < dim; ++i) {
      ds.pixels[s * dim + i] = static_cast<float>(proto[c * dim + i] + noise * rng.normal());
    }
  }
  return ds;
}

// Images with spatial structure for CNN tests: class k (0..3) has a bright 3x3 square at a
// random place inside quadrant k of a noisy size x size image (CHW, identical in all channels).
inline data::Dataset quadrant_images(int channels, int size, int samples, std::uint64_t seed) {
  data::Dataset ds;
  ds.name = "quadrants";
  ds.channels = channels;
  ds.height = ds.width = size;
  ds.num_classes = 4;
  RandomStream rng(seed, 0);
  const std::size_t dim = ds.sample_dim();
  const int half = size / 2;
  ds.pixels.resize(dim * static_cast<std::size_t>(samples));
  ds.labels.resize(static_cast<std::size_t>(samples));
  for (int s = 0; s < samples; ++s) {
    const int k = static_cast<int>(rng.uniform_int(4));
    ds.labels[s] = static_cast<std::uint8_t>(k);
    float* img = ds.pixels.data() + s * dim;
    for (std::size_t i = 0; i < dim; ++i) img[i] = static_cast<float>(0.2 * rng.uniform01());
    const int y0 = (k / 2) * half + static_cast<int>(rng.uniform_int(half - 2));
    const int x0 = (k % 2) * half + static_cast<int>(rng.uniform_int(half - 2));
    for (int c = 0; c < channels; ++c) {
      for (int y = y0; y < y0 + 3; ++y) {
        for (int x = x0; x < x0 + 3; ++x) img[(c * size + y) * size + x] = 1.0f;
      }
    }
  }
  return ds;
}

// Sample indices 0 .. n-1: a whole dataset in file order.
inline std::vector<std::uint32_t> iota(std::size_t n) {
  std::vector<std::uint32_t> v(n);
  std::iota(v.begin(), v.end(), 0u);
  return v;
}

}  // namespace hermes::nn::testing
