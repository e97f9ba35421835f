#include "models/nn/init.h"

#include <cmath>

#include "base/random.h"

namespace hermes::nn {

double init_limit(Init init, double fan_in, double fan_out) {
  switch (init) {
    case Init::kGlorotUniform:
      return std::sqrt(6.0 / (fan_in + fan_out));
    case Init::kHeUniform:
      return std::sqrt(6.0 / fan_in);
  }
  return 0.0;
}

template <typename T>
void fill_uniform(T* w, std::size_t n, double limit, RandomStream& rng) {
  for (std::size_t i = 0; i < n; ++i) w[i] = static_cast<T>(rng.uniform(-limit, limit));
}

template void fill_uniform<float>(float*, std::size_t, double, RandomStream&);
template void fill_uniform<double>(double*, std::size_t, double, RandomStream&);

}  // namespace hermes::nn
