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

inline void write_blocks_mnist(const std::string& root) {
  using data::testing::Bytes;
  const std::pair<const char*, data::DatasetPtr> sets[] = {
      {"train", protocols::testing::blocks(1500, 1, "blocks/train")},
      {"t10k", protocols::testing::blocks(300, 2, "blocks/test")}};
  for (const auto& [prefix, set] : sets) {
    Bytes pixels;
    for (const float p : set->pixels) {
      pixels.push_back(static_cast<std::uint8_t>(std::lround(std::min(p, 1.0f) * 255.0f)));
    }
    const Bytes labels(set->labels.begin(), set->labels.end());
    const std::string dir = root + "/mnist/" + prefix;
    data::testing::write_file(
        dir + "-images-idx3-ubyte",
        data::testing::idx_images(static_cast<std::uint32_t>(set->size()), 28, 28, pixels));
    data::testing::write_file(dir + "-labels-idx1-ubyte", data::testing::idx_labels(labels));
  }
}

}  // namespace hermes::sweep::testing
