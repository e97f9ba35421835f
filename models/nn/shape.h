// Shapes and memory layout of activations.
//
// A batch of activations is one contiguous buffer holding `n` samples one after the other
// (sample-major), i.e. a column-major (features x n) matrix with one sample per column. This
// makes dense layers plain GEMMs (Y = W X) and makes flatten free.
// Inside a sample, the model input keeps the dataset's CHW order; every conv/pool output is HWC
// (channels last, as Keras does), because then a batched conv GEMM writes its result directly in
// that order and im2col copies contiguous runs of k*C floats.
#pragma once

#include <cstddef>
#include <string>

namespace hermes::nn {

enum class Layout { kCHW, kHWC };

struct Shape {
  int c = 1;
  int h = 1;
  int w = 1;
  Layout layout = Layout::kHWC;

  std::size_t size() const {
    return static_cast<std::size_t>(c) * static_cast<std::size_t>(h) * static_cast<std::size_t>(w);
  }
  bool operator==(const Shape&) const = default;
  // How users read it, whatever the layout: channels x height x width ("32x30x30", the order of a
  // dataset's "shape"), or one number for a vector ("128").
  std::string str() const;
};

}  // namespace hermes::nn
