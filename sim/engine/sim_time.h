// Simulated time: an exact integer count of nanoseconds. Doubles drift when summed over millions of
// events; int64 nanoseconds cover 292 years exactly, far beyond any training run.
//
// SimTime is a type of its own (ns-3's Time is the model), not an integer: a time never mixes with
// a count or a number of seconds by accident. Times add and subtract; a time scales by an integer
// count; a time divided by a time is a count only through whole_periods, which says so.
#pragma once

#include <cmath>
#include <compare>
#include <concepts>
#include <cstdint>
#include <iosfwd>
#include <limits>
#include <stdexcept>
#include <string>

namespace hermes::engine {

class SimTime {
 public:
  constexpr SimTime() = default;  // the start of the simulation (or a zero duration)

  // Named constructors from exact counts; from_seconds / from_microseconds below take doubles.
  static constexpr SimTime nanoseconds(std::int64_t n) { return SimTime(n); }
  static constexpr SimTime microseconds(std::int64_t n) { return SimTime(n * 1'000); }
  static constexpr SimTime milliseconds(std::int64_t n) { return SimTime(n * 1'000'000); }
  static constexpr SimTime seconds(std::int64_t n) { return SimTime(n * 1'000'000'000); }
  static constexpr SimTime infinity() { return SimTime(std::numeric_limits<std::int64_t>::max()); }

  // Nanoseconds since the start of the simulation (or in the duration).
  constexpr std::int64_t ns() const { return ns_; }

  friend constexpr SimTime operator+(SimTime a, SimTime b) { return SimTime(a.ns_ + b.ns_); }
  friend constexpr SimTime operator-(SimTime a, SimTime b) { return SimTime(a.ns_ - b.ns_); }
  constexpr SimTime operator-() const { return SimTime(-ns_); }
  constexpr SimTime& operator+=(SimTime b) { return *this = *this + b; }
  constexpr SimTime& operator-=(SimTime b) { return *this = *this - b; }
  // Scaling by a count: integers only (a double factor would round silently; use from_seconds).
  template <std::integral Count>
  friend constexpr SimTime operator*(SimTime t, Count k) {
    return SimTime(t.ns_ * static_cast<std::int64_t>(k));
  }
  template <std::integral Count>
  friend constexpr SimTime operator*(Count k, SimTime t) {
    return t * k;
  }
  // A time split into k equal parts, rounded toward zero like integer division.
  template <std::integral Count>
  friend constexpr SimTime operator/(SimTime t, Count k) {
    return SimTime(t.ns_ / static_cast<std::int64_t>(k));
  }
  // What is left of a after whole periods of b.
  friend constexpr SimTime operator%(SimTime a, SimTime b) { return SimTime(a.ns_ % b.ns_); }
  friend constexpr auto operator<=>(SimTime a, SimTime b) = default;
  friend constexpr bool operator==(SimTime a, SimTime b) = default;

 private:
  explicit constexpr SimTime(std::int64_t ns) : ns_(ns) {}
  std::int64_t ns_ = 0;
};

// How many whole periods fit in span (rounded toward zero): the one way a time divided by a time
// becomes a count.
constexpr std::int64_t whole_periods(SimTime span, SimTime period) {
  return span.ns() / period.ns();
}

inline constexpr SimTime kNanosecond = SimTime::nanoseconds(1);
inline constexpr SimTime kMicrosecond = SimTime::microseconds(1);
inline constexpr SimTime kMillisecond = SimTime::milliseconds(1);
inline constexpr SimTime kSecond = SimTime::seconds(1);
inline constexpr SimTime kTimeInfinity = SimTime::infinity();

// Literals for exact times in code and tests: 30_ns, 500_us, 8_ms, 2_s.
namespace time_literals {
constexpr SimTime operator""_ns(unsigned long long n) {
  return SimTime::nanoseconds(static_cast<std::int64_t>(n));
}
constexpr SimTime operator""_us(unsigned long long n) {
  return SimTime::microseconds(static_cast<std::int64_t>(n));
}
constexpr SimTime operator""_ms(unsigned long long n) {
  return SimTime::milliseconds(static_cast<std::int64_t>(n));
}
constexpr SimTime operator""_s(unsigned long long n) {
  return SimTime::seconds(static_cast<std::int64_t>(n));
}
}  // namespace time_literals

// Rounds a duration in seconds to the nearest nanosecond. Rejects NaN, negative and overflowing
// values: a model that produces them is broken and must fail loudly, not schedule in the past.
inline SimTime from_seconds(double seconds) {
  if (!(seconds >= 0.0) || seconds > 9.2e9) {
    throw std::domain_error("simulated duration out of range: " + std::to_string(seconds) + " s");
  }
  return SimTime::nanoseconds(std::llround(seconds * 1e9));
}

// Rounds a duration in microseconds to the nearest nanosecond, with from_seconds's checks. Not
// from_seconds(us * 1e-6): scaling by 1e3 directly rounds some inputs to another nanosecond.
inline SimTime from_microseconds(double microseconds) {
  if (!(microseconds >= 0.0) || microseconds > 9.2e12) {
    throw std::domain_error("simulated duration out of range: " + std::to_string(microseconds) +
                            " us");
  }
  return SimTime::nanoseconds(std::llround(microseconds * 1e3));
}

inline double to_seconds(SimTime t) { return static_cast<double>(t.ns()) * 1e-9; }

// How GoogleTest prints a time in a failed check ("7300000000 ns"). There is deliberately no
// operator<<: output formats choose their own unit (to_seconds, ns()), never a default one.
void PrintTo(SimTime t, std::ostream* out);

}  // namespace hermes::engine
