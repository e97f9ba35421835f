// Column-wise helpers of the dense and conv layers on column-major (rows x cols) matrices: the
// bias broadcast of the forward pass and the bias gradient of the backward pass. Plain loops over
// rows (vectorised by the compiler); the column sums run in increasing column order for every row,
// so no sum is split across vector lanes.
#pragma once

#include <cstddef>

namespace hermes::nn {

// Every column of y (rows x cols) becomes b (rows).
template <typename T>
void fill_columns(const T* b, int rows, std::ptrdiff_t cols, T* y) {
  for (std::ptrdiff_t j = 0; j < cols; ++j) {
    T* yj = y + j * rows;
    for (int i = 0; i < rows; ++i) yj[i] = b[i];
  }
}

// out[i] = ((y(i,0) + y(i,1)) + y(i,2)) + ... (from out[i] = 0).
template <typename T>
void sum_columns(const T* y, int rows, std::ptrdiff_t cols, T* out) {
  for (int i = 0; i < rows; ++i) out[i] = T(0);
  for (std::ptrdiff_t j = 0; j < cols; ++j) {
    const T* yj = y + j * rows;
    for (int i = 0; i < rows; ++i) out[i] += yj[i];
  }
}

}  // namespace hermes::nn
