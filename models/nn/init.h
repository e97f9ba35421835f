// Weight initialisation drawn from hermes::RandomStream, so that a seed gives the same
// model on every platform and standard library.
#pragma once

#include <cstddef>

namespace hermes {
class RandomStream;
}  // namespace hermes

namespace hermes::nn {

enum class Init {
  kGlorotUniform,  // U(-l, l), l = sqrt(6 / (fan_in + fan_out)): Keras' default for Dense, Conv2D
  kHeUniform,      // U(-l, l), l = sqrt(6 / fan_in): He et al. 2015, suited to ReLU
};

// The half-width l of the uniform distribution for `init`.
double init_limit(Init init, double fan_in, double fan_out);

// w[0..n) <- U(-limit, limit), drawn in index order (one uniform01() per weight).
template <typename T>
void fill_uniform(T* w, std::size_t n, double limit, RandomStream& rng);

}  // namespace hermes::nn
