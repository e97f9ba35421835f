// Simulated time: an exact integer count of nanoseconds. Doubles drift when summed over millions of
// events; int64 nanoseconds cover 292 years exactly, far beyond any training run.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace hermes::engine {

using SimTime = std::int64_t;  // nanoseconds since the start of the simulation

inline constexpr SimTime kNanosecond = 1;
inline constexpr SimTime kMicrosecond = 1'000;
inline constexpr SimTime kMillisecond = 1'000'000;
inline constexpr SimTime kSecond = 1'000'000'000;
inline constexpr SimTime kTimeInfinity = std::numeric_limits<SimTime>::max();

// Rounds a duration in seconds to the nearest nanosecond. Rejects NaN, negative and overflowing
// values: a model that produces them is broken and must fail loudly, not schedule in the past.
inline SimTime from_seconds(double seconds) {
  if (!(seconds >= 0.0) || seconds > 9.2e9) {
    throw std::domain_error("simulated duration out of range: " + std::to_string(seconds) + " s");
  }
  return static_cast<SimTime>(std::llround(seconds * 1e9));
}

inline double to_seconds(SimTime t) { return static_cast<double>(t) * 1e-9; }

}  // namespace hermes::engine
