#include "sim/cluster/outage_process.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "base/portable_math.h"

namespace hermes::cluster {

double rate_from_hourly_probability(double p) {
  if (!(p > 0 && p < 1)) throw std::invalid_argument("hourly probability must be in (0, 1)");
  return -portable::log(1.0 - p) / 3600.0;
}

namespace {

double draw_length_s(const OutageModel& m, RandomStream& rng) {
  switch (m.length) {
    case OutageLength::kFixed:
      return m.mean_s;
    case OutageLength::kExponential:
      return rng.exponential(m.mean_s);
    case OutageLength::kLognormal: {
      // The underlying normal's parameters for the requested mean and coefficient of variation.
      const double sigma2 = portable::log(1.0 + m.cv * m.cv);
      const double mu = portable::log(m.mean_s) - sigma2 / 2.0;
      return rng.lognormal(mu, std::sqrt(sigma2));
    }
  }
  throw std::logic_error("unknown outage length distribution");
}

}  // namespace

std::vector<OutageInterval> draw_outages(const OutageModel& model, RandomStream& rng,
                                         engine::SimTime horizon, std::size_t max_count) {
  if (!(model.failures_per_s > 0) || !(model.mean_s > 0) || !(model.cv > 0)) {
    throw std::invalid_argument("draw_outages: rate, mean and cv must be > 0");
  }
  std::vector<OutageInterval> out;
  engine::SimTime up_since{};
  for (;;) {
    const double up_s = rng.exponential(1.0 / model.failures_per_s);
    // Beyond the horizon (or SimTime's range) nothing more happens in the run.
    if (!(up_s < engine::to_seconds(horizon - up_since))) break;
    const engine::SimTime start = up_since + engine::from_seconds(up_s);
    if (start >= horizon) break;
    const double length_s = std::min(draw_length_s(model, rng), 1e9);
    const engine::SimTime end =
        start + std::max(engine::from_seconds(length_s), engine::kNanosecond);
    if (out.size() == max_count) {
      throw std::length_error("more than " + std::to_string(max_count) + " outages");
    }
    out.push_back({start, end});
    up_since = end;
  }
  return out;
}

}  // namespace hermes::cluster
