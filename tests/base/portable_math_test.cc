// hermes::portable (base/portable_math.h): accuracy against the host's libm, special values,
// frozen outputs and monotonicity.
//
// The accuracy measured against exact references is in the header's first comment (at most
// 0.66 ulp). The sweeps here assert what holds whatever the host: within 1 ulp of its libm.
#include "base/portable_math.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include "base/random.h"

namespace hermes::portable {
namespace {

using hermes::RandomStream;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kMax = std::numeric_limits<double>::max();
constexpr double kMinSub = std::numeric_limits<double>::denorm_min();
constexpr double kPi = 3.141592653589793;  // pi rounded to double
constexpr double kLn2 = 0.6931471805599453;

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

// Number of doubles between a and b (0 when equal; +0 and -0 are 0 apart). Finite a, b.
std::uint64_t ulp_distance(double a, double b) {
  const auto key = [](double x) {
    const auto i = std::bit_cast<std::int64_t>(x);
    return i < 0 ? -(i & std::numeric_limits<std::int64_t>::max()) : i;
  };
  const std::int64_t d = key(a) - key(b);
  return static_cast<std::uint64_t>(d < 0 ? -d : d);
}

std::string hex(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", x);
  return buf;
}

constexpr int kPoints = 100000;

// kPoints uniform draws in [lo, hi).
std::vector<double> uniform_points(std::uint64_t stream, double lo, double hi) {
  RandomStream s(20240611, stream);
  std::vector<double> xs(kPoints);
  for (double& x : xs) x = s.uniform(lo, hi);
  return xs;
}

// kPoints doubles with bit patterns uniform between those of lo and hi (0 <= lo < hi): every
// binade is equally represented, subnormals included. negate gives the mirror image.
std::vector<double> bit_points(std::uint64_t stream, double lo, double hi, bool negate = false) {
  RandomStream s(20240611, stream);
  std::vector<double> xs(kPoints);
  for (double& x : xs) {
    x = std::bit_cast<double>(bits(lo) + s.uniform_int(bits(hi) - bits(lo) + 1));
    if (negate) x = -x;
  }
  return xs;
}

struct Domain {
  std::string name;
  double (*mine)(double);
  double (*libm)(double);
  std::vector<double> xs;
  std::uint64_t frozen_digest;  // of the outputs of `mine`, see SweepOutputsAreFrozen
};

std::vector<Domain> domains() {
  const auto pexp = [](double x) { return portable::exp(x); };
  const auto plog = [](double x) { return portable::log(x); };
  const auto plog1p = [](double x) { return portable::log1p(x); };
  const auto psin = [](double x) { return portable::sin(x); };
  const auto pcos = [](double x) { return portable::cos(x); };
  const auto sexp = [](double x) { return std::exp(x); };
  const auto slog = [](double x) { return std::log(x); };
  const auto slog1p = [](double x) { return std::log1p(x); };
  const auto ssin = [](double x) { return std::sin(x); };
  const auto scos = [](double x) { return std::cos(x); };
  const double two_pi = 2 * kPi;
  return {
      {"exp [-745.2, 709.78]", pexp, sexp, uniform_points(1, -745.2, 709.78),
       0x2b102965baedaab6ull},
      {"exp [-2, 2]", pexp, sexp, uniform_points(2, -2, 2), 0x78de41b1de8d6a1dull},
      {"log all positive doubles", plog, slog, bit_points(3, kMinSub, kMax), 0x27a01a7baf6a4089ull},
      {"log [0.5, 2]", plog, slog, uniform_points(4, 0.5, 2), 0xfdf6acf9f3a6a2e2ull},
      {"log1p [-1, 1)", plog1p, slog1p, uniform_points(5, -1, 1), 0x9fdf5652876de8full},
      {"log1p (2^-60, max]", plog1p, slog1p, bit_points(6, 0x1p-60, kMax), 0xc12083eceb2684a0ull},
      {"log1p (-1, -2^-60)", plog1p, slog1p, bit_points(7, 0x1p-60, 0x1.fffffffffffffp-1, true),
       0xd2caa3288050088dull},
      {"sin [-2 pi, 2 pi]", psin, ssin, uniform_points(8, -two_pi, two_pi), 0x22c7d89d39e08eadull},
      {"cos [-2 pi, 2 pi]", pcos, scos, uniform_points(9, -two_pi, two_pi), 0xf6304ee0d103b302ull},
      {"sin [-2^20, 2^20]", psin, ssin, uniform_points(10, -0x1p20, 0x1p20), 0x8cfe3e4c72a94533ull},
      {"cos [-2^20, 2^20]", pcos, scos, uniform_points(11, -0x1p20, 0x1p20), 0x35d66c056a2926cbull},
  };
}

// (a) Within 1 ulp of the host's libm over dense sweeps of every domain.
TEST(PortableMath, WithinOneUlpOfLibmOverSweeps) {
  for (const Domain& d : domains()) {
    std::uint64_t worst = 0;
    double worst_x = 0;
    int differ = 0;
    for (double x : d.xs) {
      const double mine = d.mine(x), libm = d.libm(x);
      ASSERT_TRUE(std::isfinite(mine) || mine == libm) << d.name << " x=" << hex(x);
      const std::uint64_t u = std::isfinite(mine) ? ulp_distance(mine, libm) : 0;
      differ += u != 0;
      if (u > worst) {
        worst = u;
        worst_x = x;
      }
    }
    EXPECT_LE(worst, 1u) << d.name << ": worst at x=" << hex(worst_x);
    // Not systematically 1 ulp away either (a bias would differ on about half the points): most
    // results are the correctly rounded ones, and so are most of glibc's (its log1p differs from
    // the correctly rounded value most often, on ~7% of [-1, 1)).
    EXPECT_LT(differ, kPoints / 4) << d.name;
  }
}

// (b) Special values and exact points.
TEST(PortableMath, ExpSpecialValues) {
  EXPECT_EQ(bits(exp(0.0)), bits(1.0));
  EXPECT_EQ(bits(exp(-0.0)), bits(1.0));
  EXPECT_EQ(exp(1e-300), 1.0);
  EXPECT_EQ(exp(-1e-300), 1.0);
  EXPECT_EQ(exp(kMinSub), 1.0);
  EXPECT_EQ(exp(1.0), 0x1.5bf0a8b145769p+1);  // e, correctly rounded
  EXPECT_EQ(exp(kLn2), 2.0);
  EXPECT_TRUE(std::isnan(exp(kNaN)));
  EXPECT_EQ(exp(kInf), kInf);
  EXPECT_EQ(bits(exp(-kInf)), bits(0.0));
  // Overflow threshold: ln(DBL_MAX) = 709.782712893384.
  EXPECT_EQ(exp(0x1.62e42fefa39efp+9), std::exp(0x1.62e42fefa39efp+9));
  EXPECT_TRUE(std::isfinite(exp(0x1.62e42fefa39efp+9)));
  EXPECT_EQ(exp(0x1.62e42fefa39f0p+9), kInf);
  EXPECT_EQ(exp(1e308), kInf);
  // Subnormal results and underflow: exp(-745.1332191019412) = 2^-1075 (1 + 2e-17).
  EXPECT_EQ(exp(-0x1.74910d52d3051p+9), kMinSub);
  EXPECT_EQ(exp(-0x1.74910d52d3052p+9), 0.0);
  EXPECT_EQ(exp(-745.5), 0.0);
  EXPECT_EQ(bits(exp(-1e308)), bits(0.0));
  EXPECT_EQ(exp(-708.3964185322641), std::exp(-708.3964185322641));  // about 2^-1022
  EXPECT_EQ(exp(-740.0), std::exp(-740.0));
  for (int k = -1075; k <= 1024; ++k) {  // near the switches of the reduction, k ln2
    const double x = k * kLn2;
    EXPECT_LE(ulp_distance(exp(x), std::exp(x)), 1u) << hex(x);
  }
}

TEST(PortableMath, LogSpecialValues) {
  EXPECT_EQ(bits(log(1.0)), bits(0.0));  // +0
  EXPECT_EQ(log(0.0), -kInf);
  EXPECT_EQ(log(-0.0), -kInf);
  EXPECT_TRUE(std::isnan(log(-1.0)));
  EXPECT_TRUE(std::isnan(log(-kMinSub)));
  EXPECT_TRUE(std::isnan(log(-kInf)));
  EXPECT_TRUE(std::isnan(log(kNaN)));
  EXPECT_EQ(log(kInf), kInf);
  EXPECT_EQ(log(2.0), 0x1.62e42fefa39efp-1);  // ln 2, correctly rounded
  EXPECT_EQ(log(kMax), 0x1.62e42fefa39efp+9);
  EXPECT_EQ(log(kMinSub), std::log(kMinSub));  // -744.44007192138126
  EXPECT_EQ(log(0x1p-1022), std::log(0x1p-1022));
  EXPECT_EQ(log(0x1.fffffffffffffp-1023), std::log(0x1.fffffffffffffp-1023));  // largest subnormal
  EXPECT_EQ(log(std::nextafter(1.0, 2.0)), 0x1p-52 - 0x1p-105);
  EXPECT_EQ(log(std::nextafter(1.0, 0.0)), -0x1p-53);  // -2^-53 - 2^-107 rounded
  for (int k = -1074; k <= 1023; ++k) {                // log(2^k) = k ln2 within an ulp
    EXPECT_LE(ulp_distance(log(std::ldexp(1.0, k)), std::log(std::ldexp(1.0, k))), 1u) << k;
  }
}

TEST(PortableMath, Log1pSpecialValues) {
  EXPECT_EQ(bits(log1p(0.0)), bits(0.0));
  EXPECT_EQ(bits(log1p(-0.0)), bits(-0.0));
  EXPECT_EQ(log1p(kMinSub), kMinSub);
  EXPECT_EQ(log1p(-kMinSub), -kMinSub);
  EXPECT_EQ(log1p(1e-300), 1e-300);
  EXPECT_EQ(log1p(0x1p-54), 0x1p-54);
  EXPECT_EQ(log1p(1e-10), std::log1p(1e-10));
  EXPECT_EQ(log1p(-1e-10), std::log1p(-1e-10));
  EXPECT_EQ(log1p(-1.0), -kInf);
  EXPECT_TRUE(std::isnan(log1p(-1.5)));
  EXPECT_TRUE(std::isnan(log1p(-kInf)));
  EXPECT_TRUE(std::isnan(log1p(kNaN)));
  EXPECT_EQ(log1p(kInf), kInf);
  EXPECT_EQ(log1p(1.0), 0x1.62e42fefa39efp-1);  // ln 2
  EXPECT_EQ(log1p(kMax), 0x1.62e42fefa39efp+9);
  EXPECT_EQ(log1p(-0.5), -0x1.62e42fefa39efp-1);
  EXPECT_EQ(log1p(std::nextafter(-1.0, 0.0)), log(0x1p-53));  // 1 + x is exact
  // Where 1 + x is inexact the low part must still count: log1p(2^-30) vs log(1 + 2^-30).
  EXPECT_EQ(log1p(0x1p-30 + 0x1p-80), std::log1p(0x1p-30 + 0x1p-80));
}

TEST(PortableMath, SinCosSpecialValues) {
  EXPECT_EQ(bits(sin(0.0)), bits(0.0));
  EXPECT_EQ(bits(sin(-0.0)), bits(-0.0));
  EXPECT_EQ(cos(0.0), 1.0);
  EXPECT_EQ(cos(-0.0), 1.0);
  EXPECT_EQ(sin(kMinSub), kMinSub);
  EXPECT_EQ(sin(-1e-300), -1e-300);
  EXPECT_EQ(cos(1e-300), 1.0);
  EXPECT_EQ(sin(1e-9), 1e-9);
  EXPECT_EQ(sin(kPi), 0x1.1a62633145c07p-53);      // pi - double(pi)
  EXPECT_EQ(cos(kPi / 2), 0x1.1a62633145c07p-54);  // its half
  EXPECT_EQ(sin(kPi / 2), 1.0);
  EXPECT_EQ(cos(kPi), -1.0);
  EXPECT_EQ(sin(-2 * kPi), 0x1.1a62633145c07p-52);
  EXPECT_EQ(cos(2 * kPi), 1.0);
  EXPECT_EQ(sin(1.0), 0x1.aed548f090ceep-1);  // correctly rounded
  EXPECT_EQ(cos(1.0), 0x1.14a280fb5068cp-1);
  // Domain: |x| <= 2^20, NaN beyond by design.
  EXPECT_LE(ulp_distance(sin(kTrigMaxArg), std::sin(kTrigMaxArg)), 1u);
  EXPECT_LE(ulp_distance(cos(-kTrigMaxArg), std::cos(-kTrigMaxArg)), 1u);
  EXPECT_TRUE(std::isnan(sin(std::nextafter(kTrigMaxArg, kInf))));
  EXPECT_TRUE(std::isnan(cos(-1e7)));
  EXPECT_TRUE(std::isnan(sin(kInf)));
  EXPECT_TRUE(std::isnan(cos(-kInf)));
  EXPECT_TRUE(std::isnan(sin(kNaN)));
  EXPECT_TRUE(std::isnan(cos(kNaN)));
  // sincos is sin and cos, bit for bit.
  RandomStream s(7, 7);
  for (int i = 0; i < 1000; ++i) {
    const double x = s.uniform(-10, 10);
    const SinCos sc = sincos(x);
    ASSERT_EQ(bits(sc.sin), bits(sin(x))) << hex(x);
    ASSERT_EQ(bits(sc.cos), bits(cos(x))) << hex(x);
  }
}

// (c) Frozen outputs: any change of the algorithms (constants, polynomial, reduction, order of
// operations) changes simulated times, so it must show up here. Several inputs are ones whose
// result is not the correctly rounded value, which any other algorithm would likely change.
TEST(PortableMath, FrozenBitPatterns) {
  struct Row {
    const char* fn;
    double x;
    std::uint64_t y;
  };
  const Row rows[] = {
      {"exp", 0x1p+0, 0x4005bf0a8b145769ull},
      {"exp", -0x1.673c31be237eep-2, 0x3fe6881942fc53d8ull},
      {"exp", -0x1.1b50fa196f94cp+9, 0x0cd6f9444496ee8aull},
      {"exp", -0x1.6302cac18b18bp+9, 0x0003263b808de6d0ull},  // subnormal
      {"exp", 0x1.5ep+9, 0x7f0d945df4f8ec8eull},
      {"log", 0x1.4p+3, 0x40026bb1bbb55516ull},
      {"log", 0x1.672c3c02a095bp-1, 0xbfd6b07905799048ull},
      {"log", 0x1.678a0a0926067p-1, 0xbfd69fc435d19be6ull},
      {"log", 0x0.0000000003039p-1022, 0xc086f8270bd2b960ull},  // subnormal
      {"log", 0x1.7e43c8800759cp+996, 0x4085963447f87fb5ull},
      {"log1p", -0x1.3231a275ba544p-2, 0xbfd6bcc8101e494cull},
      {"log1p", 0x1.b7cdfd9d7bdbbp-34, 0x3ddb7cdfd9d1d693ull},
      {"log1p", 0x1.8p+1, 0x3ff62e42fefa39efull},
      {"log1p", 0x1.da2cd70445341p-2, 0x3fd85a9fdcadf974ull},
      {"sin", 0x1.2d03e95fb3ad4p+1, 0x3fe6bab315f60240ull},
      {"sin", 0x1p+0, 0x3feaed548f090ceeull},
      {"sin", 0x1.41cde234ec16cp+19, 0xbfe70cf51f82b3deull},
      {"cos", -0x1.606210d2f4f08p+2, 0x3fe6cfe9caee815aull},
      {"cos", 0x1p+0, 0x3fe14a280fb5068cull},
      {"cos", 0x1.c105cb119cf9p+19, 0xbfe6fe2517221992ull},
  };
  for (const Row& r : rows) {
    const std::string fn = r.fn;
    const double y = fn == "exp"     ? exp(r.x)
                     : fn == "log"   ? log(r.x)
                     : fn == "log1p" ? log1p(r.x)
                     : fn == "sin"   ? sin(r.x)
                                     : cos(r.x);
    EXPECT_EQ(bits(y), r.y) << r.fn << "(" << hex(r.x) << ") = " << hex(y);
  }
}

// (c) Frozen digests of every output of the sweeps above: catches a change anywhere in a domain.
TEST(PortableMath, SweepOutputsAreFrozen) {
  for (const Domain& d : domains()) {
    std::uint64_t h = 0;
    for (double x : d.xs) h = mix64(h ^ bits(d.mine(x)));
    EXPECT_EQ(h, d.frozen_digest) << d.name << ": 0x" << std::hex << h;
  }
}

// (d) Monotonicity across the places where the algorithms switch (reduction interval, series,
// subnormal handling): 2000 consecutive doubles around each point.
void expect_monotone(const char* fn, double (*f)(double), double at, int direction) {
  double x = at;
  for (int i = 0; i < 1000; ++i) x = std::nextafter(x, -kInf);
  double prev = f(x);
  for (int i = 0; i < 2000; ++i) {
    x = std::nextafter(x, kInf);
    const double y = f(x);
    if (direction > 0) {
      ASSERT_GE(y, prev) << fn << " not increasing at x=" << hex(x);
    } else {
      ASSERT_LE(y, prev) << fn << " not decreasing at x=" << hex(x);
    }
    prev = y;
  }
}

TEST(PortableMath, MonotoneAcrossBreakpoints) {
  const auto pexp = [](double x) { return portable::exp(x); };
  const auto plog = [](double x) { return portable::log(x); };
  const auto plog1p = [](double x) { return portable::log1p(x); };
  const auto psin = [](double x) { return portable::sin(x); };
  const auto pcos = [](double x) { return portable::cos(x); };
  // exp: k switches at (j + 1/2) ln2; subnormal results below -708.4; the last finite values.
  for (double j :
       {-1075.0, -1023.0, -1022.0, -1021.0, -100.0, -2.0, -1.0, 0.0, 1.0, 50.0, 1023.0}) {
    expect_monotone("exp", pexp, (j + 0.5) * kLn2, +1);
  }
  for (double at : {0.0, 1.0, -708.3964185322641, -745.1332191019412, -720.0}) {
    expect_monotone("exp", pexp, at, +1);
  }
  expect_monotone("exp", pexp, 0x1.62e42fefa39efp+9 - 1000 * 0x1p-43, +1);
  // log: the mantissa interval switches at sqrt(2); 1; the subnormal boundary.
  for (double at : {1.0, 1.4142135623730951, 0.7071067811865476, 2.0, 0.5, 0x1p-1022, 1e300,
                    2.718281828459045, 2.8284271247461903}) {
    expect_monotone("log", plog, at, +1);
  }
  // log1p: the series below 2^-20, the Fast2Sum branch at |x| = 1, sqrt(2) - 1.
  for (double at : {0.0, 0x1p-54, -0x1p-54, 0x1p-20, -0x1p-20, 1.0, -0.5, 0.41421356237309503,
                    -0.2928932188134524, 1e10}) {
    expect_monotone("log1p", plog1p, at, +1);
  }
  // sin and cos: the quadrant switches at odd multiples of pi/4, the tiny-argument cut-off.
  for (double at : {0.0, 0x1p-27, -0x1p-27, kPi / 4, -kPi / 4}) {
    expect_monotone("sin", psin, at, +1);
  }
  for (double at : {3 * kPi / 4, kPi, 5 * kPi / 4}) expect_monotone("sin", psin, at, -1);
  for (double at : {kPi / 4, kPi / 2, 3 * kPi / 4}) expect_monotone("cos", pcos, at, -1);
  for (double at : {5 * kPi / 4, 3 * kPi / 2, 7 * kPi / 4}) expect_monotone("cos", pcos, at, +1);
  for (double j : {1001.0, 123457.0, 667001.0}) {  // large arguments, still odd multiples of pi/4
    const double at = j * (kPi / 4);
    expect_monotone("sin", psin, at, std::cos(at) > 0 ? +1 : -1);
    expect_monotone("cos", pcos, at, std::sin(at) > 0 ? -1 : +1);
  }
}

}  // namespace
}  // namespace hermes::portable
