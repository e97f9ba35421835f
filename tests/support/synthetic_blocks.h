// Small synthetic classification data for the protocol and sweep tests: 28x28 "images" whose class
// is a bright block at one of 10 positions, plus noise. Learnable in a few iterations, made in
// milliseconds.
#pragma once

#include <memory>

#include "base/random.h"
#include "models/data/dataset.h"

namespace hermes::protocols::testing {

inline data::DatasetPtr blocks(std::size_t n, std::uint64_t seed, const char* name) {
  auto d = std::make_shared<data::Dataset>();
  d->name = name;
  d->channels = 1;
  d->height = 28;
  d->width = 28;
  d->pixels.assign(n * 784, 0.0f);
  d->labels.resize(n);
  RandomStream rng(seed, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const int label = static_cast<int>(rng.uniform_int(10));
    d->labels[i] = static_cast<std::uint8_t>(label);
    float* px = d->pixels.data() + i * 784;
    for (int p = 0; p < 784; ++p) px[p] = static_cast<float>(0.3 * rng.uniform01());
    const int r0 = (label / 5) * 14, c0 = (label % 5) * 5;
    for (int r = r0; r < r0 + 8; ++r) {
      for (int c = c0; c < c0 + 5; ++c) px[r * 28 + c] += 0.7f;
    }
  }
  return d;
}

inline data::TrainTestSplit blocks_split() {
  return {blocks(1500, 1, "blocks/train"), blocks(300, 2, "blocks/test")};
}

}  // namespace hermes::protocols::testing
