#include "sim/policies/staleness_weight.h"

#include <algorithm>
#include <cmath>

namespace hermes::protocols {

float staleness_weight(StalenessWeight kind, std::int64_t tau, double exponent) {
  const double t = static_cast<double>(std::max<std::int64_t>(tau, 0));
  switch (kind) {
    case StalenessWeight::kConstant:
      return 1.0f;
    case StalenessWeight::kInverse:
      return static_cast<float>(1.0 / (1.0 + t));
    case StalenessWeight::kPolynomial:
      return static_cast<float>(std::pow(1.0 + t, -exponent));
  }
  return 1.0f;
}

}  // namespace hermes::protocols
