#include "models/nn/shape.h"

namespace hermes::nn {

std::string Shape::str() const {
  if (h == 1 && w == 1) return std::to_string(c);
  return std::to_string(c) + "x" + std::to_string(h) + "x" + std::to_string(w);
}

}  // namespace hermes::nn
