// Max pooling over 2x2 windows with stride 2, 'valid' (Keras' MaxPooling2D() default): an odd
// last row/column is dropped and gets zero gradient. Ties go to the first element in window order
// (top-left, top-right, bottom-left, bottom-right). Input CHW or HWC; output HWC.
#pragma once

#include <cstdint>
#include <vector>

#include "models/nn/layer.h"

namespace hermes::nn {

template <typename T>
class MaxPool2 final : public Layer<T> {
 public:
  explicit MaxPool2(Shape in);

  std::string name() const override;
  void reserve(int capacity) override;
  void release() override;
  void forward(const T* x, T* y, int n) override;
  void backward(const T* x, const T* y, T* dy, T* dx, int n) override;

 private:
  int capacity_ = 0;
  std::vector<std::int32_t> argmax_;  // per output element: offset of the max within its sample
};

}  // namespace hermes::nn
