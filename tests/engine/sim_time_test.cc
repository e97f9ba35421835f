// SimTime as a type: what mixes with what, and the exact rounding of its named constructors.
#include "sim/engine/sim_time.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

namespace hermes::engine {
namespace {

using namespace time_literals;

// Counts and seconds never become times, nor times counts, by accident.
static_assert(!std::is_convertible_v<std::int64_t, SimTime>);
static_assert(!std::is_convertible_v<int, SimTime>);
static_assert(!std::is_convertible_v<double, SimTime>);
static_assert(!std::is_convertible_v<SimTime, std::int64_t>);
static_assert(!std::is_convertible_v<SimTime, double>);
static_assert(!std::is_constructible_v<SimTime, std::int64_t>);
template <typename A, typename B>
concept Multipliable = requires(A a, B b) {
  a* b;
};
template <typename A, typename B>
concept Divisible = requires(A a, B b) {
  a / b;
};
template <typename A, typename B>
concept Addable = requires(A a, B b) {
  a + b;
};
static_assert(Multipliable<SimTime, int> && Multipliable<std::int64_t, SimTime>);
static_assert(!Multipliable<SimTime, double> && !Multipliable<SimTime, SimTime>);
static_assert(Divisible<SimTime, int> && !Divisible<SimTime, SimTime>);
static_assert(!Divisible<SimTime, double> && !Divisible<int, SimTime>);
static_assert(!Addable<SimTime, int> && !Addable<SimTime, double>);

TEST(SimTime, ArithmeticStaysInTimes) {
  static_assert(3 * kMillisecond + 500_us == 3'500'000_ns);
  static_assert(2_s - 1_ms == 1'999'000'000_ns);
  static_assert(7_ns / 2 == 3_ns);  // like integer division
  static_assert(7_ns % 3_ns == 1_ns);
  static_assert(-(5_ns) < SimTime{});
  static_assert(SimTime{}.ns() == 0 && kSecond.ns() == 1'000'000'000);
  static_assert(kTimeInfinity > SimTime::seconds(292LL * 365 * 24 * 3600));
  EXPECT_EQ(whole_periods(10_ms, 3_ms), 3);
  EXPECT_EQ(whole_periods(9_ms, 3_ms), 3);
  EXPECT_EQ(whole_periods(SimTime{}, 3_ms), 0);
  SimTime t = 1_us;
  t += 2_us;
  t -= 500_ns;
  EXPECT_EQ(t, 2'500_ns);
  EXPECT_EQ(SimTime::milliseconds(4), 4'000'000_ns);
  EXPECT_EQ(SimTime::microseconds(4), 4 * kMicrosecond);
}

TEST(SimTime, MicrosecondsRoundLikeTheScenarioAlwaysDid) {
  // The value the network section computed before it used this function, for inputs where
  // scaling by 1e3 and by 1e-6 then 1e9 can differ in the last bit.
  for (const double us : {0.0, 0.0005, 0.0015, 2.5, 7.0, 100.0, 123.4565, 1e9}) {
    EXPECT_EQ(from_microseconds(us).ns(), std::llround(us * 1e3)) << us;
  }
  EXPECT_THROW(from_microseconds(-1.0), std::domain_error);
  EXPECT_THROW(from_microseconds(std::nan("")), std::domain_error);
  EXPECT_THROW(from_seconds(9.3e9), std::domain_error);
}

}  // namespace
}  // namespace hermes::engine
