// A tiny MNIST-layout data root for end-to-end sweeps: the protocol tests' learnable "blocks"
// images written as IDX files into <root>/mnist/, so that the real hermes-sim binary (and mpirun
// ranks of it) can load it with --data-dir <root> in milliseconds.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>

#include "tests/support/synthetic_blocks.h"
#include "tests/support/test_files.h"

namespace hermes::sweep::testing {

// The blocks images (`train` of them for training, 300 for testing) whose label is below `classes`
// as IDX files with MNIST's names in `dir`.
inline void write_blocks_idx(const std::string& dir, int classes = 10, std::size_t train = 1500) {
  using data::testing::Bytes;
  const std::pair<const char*, data::DatasetPtr> sets[] = {
      {"train", protocols::testing::blocks(train, 1, "blocks/train")},
      {"t10k", protocols::testing::blocks(300, 2, "blocks/test")}};
  for (const auto& [prefix, set] : sets) {
    Bytes pixels;
    Bytes labels;
    for (std::size_t i = 0; i < set->size(); ++i) {
      if (set->labels[i] >= classes) continue;
      labels.push_back(set->labels[i]);
      for (std::size_t k = 0; k < set->sample_dim(); ++k) {
        const float p = set->sample(i)[k];
        pixels.push_back(static_cast<std::uint8_t>(std::lround(std::min(p, 1.0f) * 255.0f)));
      }
    }
    const std::string base = dir + "/" + prefix;
    data::testing::write_file(
        base + "-images-idx3-ubyte",
        data::testing::idx_images(static_cast<std::uint32_t>(labels.size()), 28, 28, pixels));
    data::testing::write_file(base + "-labels-idx1-ubyte", data::testing::idx_labels(labels));
  }
}

inline void write_blocks_mnist(const std::string& root) { write_blocks_idx(root + "/mnist"); }

}  // namespace hermes::sweep::testing
