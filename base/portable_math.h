// exp, log, log1p, sin and cos that give the same bits on every x86-64 machine.
//
// Why: glibc's libm picks its exp/log/sin/cos (and expf/logf) code at run time from the CPU
// (ifunc: an FMA variant on AVX2 machines, an SSE2 variant elsewhere), and the last bit of their
// results has changed between glibc versions. Every simulated time that goes through a jitter draw
// (Box-Muller, log-normal, exponential) and the training loss depended on those last bits, so one
// binary gave different outputs on different hosts. The functions here use only IEEE-754 basic
// operations, which are correctly rounded by definition: +, -, *, /, comparisons, integer
// arithmetic and bit manipulation through std::bit_cast (no libm call, no fused multiply-add, no
// long double, no look-up of CPU features), so they give one result per input whatever the CPU,
// the vector width or the C library. Checked: the same bits from GCC 12 and Clang 14, -O0 to -O3,
// -march=x86-64, x86-64-v3 and native (AVX-512).
//
// They rely on -ffp-contract=off (CMakeLists.txt sets it for every target): a compiler allowed to
// fuse a*b+c (GCC's default in GNU mode, Clang's -ffp-contract=on) gives other bits and breaks the
// exact two-products below. -ffast-math is rejected at compile time. The frozen outputs in
// tests/engine/portable_math_test.cc fail if either happens.
//
// Method: Cody-Waite reduction with a constant split so that the large products are exact
// (ln2 = kLn2Hi + kLn2Lo with 42 bits in kLn2Hi, pi/2 in four parts, three of them with at most
// 33 bits), then Taylor polynomials evaluated by Horner's rule, long enough that truncation is
// below 2^-60 relative. The reduced argument is carried as a double-double, and the leading terms
// are added with exact two-sums and two-products, so the result is rounded essentially once:
//   exp(x)   = 2^k (1 + r + r^2 p(r)),  |r| <= ln2/2, p of degree 12 (Taylor to r^14)
//   log(x)   = e ln2 + log1p(f),  log1p(f) = 2 atanh(f / (2 + f)),  f in [sqrt(1/2)-1, sqrt(2)-1]
//   sin, cos = +-sin(r) or +-cos(r) by quadrant,  |r| <= pi/4, Taylor to r^17 and r^18
//
// Accuracy, measured over 2e6-point sweeps against 113-bit references (libquadmath), and the
// largest difference from glibc 2.36 (whose exp, log, sin and cos are within ~0.52 ulp of exact):
//   exp    [-745, 709.78]; subnormal results        0.62; 0.58 ulp           glibc: <= 1 ulp
//   log    all positive doubles; (0, 2]             0.53; 0.66 ulp           glibc: <= 1 ulp
//   log1p  (-1, 1]; above 1; |x| < 2^-20            0.65; 0.55; 0.50 ulp     glibc: <= 1 ulp
//   sin    [-2 pi, 2 pi]; |x| <= 2^20               0.59; 0.59 ulp           glibc: <= 1 ulp
//   cos    [-2 pi, 2 pi]; |x| <= 2^20               0.56; 0.58 ulp           glibc: <= 1 ulp
// i.e. relative error below 1.5e-16; at most 1.3% of the results (exp) are not the correctly
// rounded ones. Cost per call: about 3x glibc for exp and log (~10 ns), 2x for log1p, 1.6x for
// sin or cos alone (~20 ns); sincos costs about as much as glibc's sin plus cos.
//
// Domains:
//   exp:   all doubles. +inf above 709.782712893384 (ln DBL_MAX), +0 below -746, NaN for NaN;
//          subnormal results are rounded once, to the nearest multiple of 2^-1074.
//   log:   (0, +inf] including subnormals; log(+-0) = -inf, log(x < 0) = NaN, log(+inf) = +inf.
//   log1p: (-1, +inf]; log1p(-1) = -inf, below -1 NaN; |x| < 2^-54 returns x (keeps -0), and
//          |x| < 2^-20 uses the Taylor series directly.
//   sin, cos, sincos: |x| <= 2^20 (kTrigMaxArg, ~1.0e6), where the four-part reduction keeps the
//          accuracy of [-pi/4, pi/4] (pi/2 is carried to 2^-160). Beyond that, and for +-inf and
//          NaN, the result is NaN by design: the simulator only needs [0, 2 pi) (Box-Muller), and
//          a large-argument reduction (Payne-Hanek) would be code nobody exercises.
#pragma once

#include <bit>
#include <cstdint>
#include <limits>

#if defined(__FAST_MATH__)
#error "base/portable_math.h relies on IEEE-754 semantics; do not build with -ffast-math"
#endif

namespace hermes::portable {

// Largest |x| accepted by sin, cos and sincos; NaN beyond.
inline constexpr double kTrigMaxArg = 0x1p20;

namespace detail {

inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ln 2 = kLn2Hi + kLn2Lo (+ 2e-31). kLn2Hi has 42 significant bits, so k * kLn2Hi is exact for
// |k| < 2^11, which covers every exponent of a double.
inline constexpr double kLn2Hi = 0x1.62e42fefa3800p-1;
inline constexpr double kLn2Lo = 0x1.ef35793c76730p-45;
inline constexpr double kInvLn2 = 0x1.71547652b82fep+0;
// pi/2 = kPio2_1 + kPio2_2 + kPio2_3 + kPio2_4 (+ 7e-49). The first three have at most 33
// significant bits, so k * kPio2_i is exact for |k| < 2^20.
inline constexpr double kPio2_1 = 0x1.921fb54400000p+0;
inline constexpr double kPio2_2 = 0x1.0b4611a600000p-34;
inline constexpr double kPio2_3 = 0x1.3198a2e000000p-69;
inline constexpr double kPio2_4 = 0x1.b839a252049c1p-104;
inline constexpr double k2OverPi = 0x1.45f306dc9c883p-1;
inline constexpr double kSqrt2 = 0x1.6a09e667f3bcdp+0;
// The largest x with exp(x) <= DBL_MAX.
inline constexpr double kExpMaxArg = 0x1.62e42fefa39efp+9;

// 1/n!, correctly rounded: n! is exact in a double for n <= 22 and the division rounds once.
constexpr double inv_factorial(int n) {
  double f = 1.0;
  for (int i = 2; i <= n; ++i) f *= i;
  return 1.0 / f;
}

inline std::uint64_t to_bits(double x) { return std::bit_cast<std::uint64_t>(x); }
inline double from_bits(std::uint64_t b) { return std::bit_cast<double>(b); }
// 2^k for a normal exponent, -1022 <= k <= 1023.
inline double pow2(int k) { return from_bits(static_cast<std::uint64_t>(k + 1023) << 52); }

// Nearest integer of x (halves away from zero) for |x| < 2^31.
inline double round_to_int(double x) {
  return static_cast<double>(static_cast<std::int32_t>(x < 0 ? x - 0.5 : x + 0.5));
}

// s + e == a + b exactly, s = fl(a + b) (Knuth's TwoSum; any magnitudes).
inline void two_sum(double a, double b, double& s, double& e) {
  s = a + b;
  const double bb = s - a;
  e = (a - (s - bb)) + (b - bb);
}

// hi + lo == a * b exactly (Dekker's product with Veltkamp's split; no FMA). |a|, |b| < 2^995.
inline void two_prod(double a, double b, double& hi, double& lo) {
  constexpr double kSplit = 0x1p27 + 1.0;
  const double ca = kSplit * a, cb = kSplit * b;
  const double ah = ca - (ca - a), al = a - ah;
  const double bh = cb - (cb - b), bl = b - bh;
  hi = a * b;
  lo = ((ah * bh - hi) + ah * bl + al * bh) + al * bl;
}

// log(u + c) for a finite u > 0 and |c| <= ulp(u) / 2 (c == 0 for a plain log).
inline double log_kernel(double u, double c) {
  std::uint64_t b = to_bits(u);
  int e = 0;
  if (b < (std::uint64_t{1} << 52)) {  // subnormal: make it normal
    u *= 0x1p54;
    c *= 0x1p54;
    b = to_bits(u);
    e = -54;
  }
  e += static_cast<int>(b >> 52) - 1023;
  // u = 2^e * m with m in [sqrt(1/2), sqrt(2)).
  std::uint64_t mb = (b & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1023} << 52);
  if (mb >= to_bits(kSqrt2)) {
    mb -= std::uint64_t{1} << 52;
    ++e;
  }
  const double f = from_bits(mb) - 1.0;  // exact (Sterbenz)
  // log(u + c) = e ln2 + log1p(f) + log1p(c / u), and log1p(c / u) = c / u to 2^-107 absolute,
  // far below an ulp of the result: log1p calls this only for results above 2^-21.
  const double cu = c / u;
  // log1p(f) = 2 atanh(s), s = f / (2 + f), |s| <= 0.1716:
  //   2 atanh(s) = 2s + s R(s^2),  R = sum_{n>=1} 2 s^(2n) / (2n + 1),
  // and 2s = f - f^2/2 + s f^2/2, which keeps f (exact) as the leading term:
  //   log1p(f) = f - hfsq + s (hfsq + R),  hfsq = f^2 / 2.
  const double s = f / (2.0 + f);
  const double z = s * s;
  double q = 2.0 / 21.0;  // truncation after s^20: s^22 / 23 < 2^-60 relative
  q = 2.0 / 19.0 + z * q;
  q = 2.0 / 17.0 + z * q;
  q = 2.0 / 15.0 + z * q;
  q = 2.0 / 13.0 + z * q;
  q = 2.0 / 11.0 + z * q;
  q = 2.0 / 9.0 + z * q;
  q = 2.0 / 7.0 + z * q;
  q = 2.0 / 5.0 + z * q;
  q = 2.0 / 3.0 + z * q;
  const double R = z * q;
  // hfsq = hh + hl exactly; the large terms e kLn2Hi + f - hh are summed exactly, so only the
  // small remainder (|lo| < 0.02) is rounded before the final addition.
  double hh, hl;
  two_prod(f, f, hh, hl);
  hh *= 0.5;
  hl *= 0.5;
  const double ed = static_cast<double>(e);
  double h1, e1, h2, e2;
  two_sum(ed * kLn2Hi, f, h1, e1);  // ed * kLn2Hi is exact
  two_sum(h1, -hh, h2, e2);
  const double lo = (e1 + e2) + ((ed * kLn2Lo + cu) + (s * (hh + R) - hl));
  return h2 + lo;
}

// sin(r) and cos(r) for r = rh + rl, |r| <= pi/4 (+ a little), |rl| <= ulp(rh).
struct SinCosPair {
  double sin;
  double cos;
};
inline SinCosPair sincos_kernel(double rh, double rl) {
  double zh, zl;
  two_prod(rh, rh, zh, zl);  // r^2 = zh + zl + 2 rh rl, exactly enough
  const double z = zh;
  // sin r = r - r^3/6 + r^3 z S(z), S = 1/5! - z/7! + ...; truncation after r^17: r^19/19! <
  // 2^-62 relative. The r^3/6 term (up to 0.08) is formed as a double-double.
  double ps = -inv_factorial(17);
  ps = inv_factorial(15) + z * ps;
  ps = -inv_factorial(13) + z * ps;
  ps = inv_factorial(11) + z * ps;
  ps = -inv_factorial(9) + z * ps;
  ps = inv_factorial(7) + z * ps;
  ps = -inv_factorial(5) + z * ps;  // = -S
  double p3h, p3l;
  two_prod(rh, zh, p3h, p3l);
  p3l += rh * zl;  // rh^3 = p3h + p3l to 2^-104 relative
  // rh^3 / 6 = t6h + t6l: t6h approximates it, the exact residual p3h - 6 t6h gives t6l.
  const double t6h = p3h * inv_factorial(3);
  double mh, ml;
  two_prod(t6h, 6.0, mh, ml);
  const double t6l = (((p3h - mh) - ml) + p3l) * inv_factorial(3);
  double sh, se;
  two_sum(rh, -t6h, sh, se);
  // sin(rh + rl) = sin rh + rl cos rh, and rl cos rh = rl (1 - z/2) to 2^-107.
  const double sin_r = sh + ((se - t6l) + (rl * (1.0 - 0.5 * z) - (p3h * z) * ps));
  // cos r = 1 - r^2/2 + r^4 C(z); truncation after r^18: r^20/20! < 2^-67.
  double pc = inv_factorial(18);
  pc = -inv_factorial(16) + z * pc;
  pc = inv_factorial(14) + z * pc;
  pc = -inv_factorial(12) + z * pc;
  pc = inv_factorial(10) + z * pc;
  pc = -inv_factorial(8) + z * pc;
  pc = inv_factorial(6) + z * pc;
  pc = -inv_factorial(4) + z * pc;  // a factor -1 taken out: C = -pc
  // r^2/2 = hz + hzl exactly; 1 - hz = w + werr exactly (|hz| < 1: Fast2Sum).
  const double hz = 0.5 * zh, hzl = 0.5 * zl + rh * rl;
  const double w = 1.0 - hz;
  const double werr = (1.0 - w) - hz;
  const double cos_r = w + ((werr - hzl) - (z * z) * pc);
  return {sin_r, cos_r};
}

}  // namespace detail

// e^x, within 1 ulp (see the header comment for the domain).
inline double exp(double x) {
  using namespace detail;
  if (x != x) return x;
  if (x > kExpMaxArg) return kInf;
  if (x < -746.0) return 0.0;
  const double kd = round_to_int(x * kInvLn2);
  const int k = static_cast<int>(kd);  // in [-1076, 1024]
  // r = x - k ln2 = rh + rl as a double-double; x - k kLn2Hi is exact (Sterbenz).
  double rh, rl;
  two_sum(x - kd * kLn2Hi, -(kd * kLn2Lo), rh, rl);
  // e^r = 1 + r + r^2 (1/2! + r/3! + ... + r^12/14!), truncation r^15/15! < 2^-63.
  double q = inv_factorial(14);
  for (int n = 13; n >= 2; --n) q = inv_factorial(n) + rh * q;  // Horner, highest power first
  const double p = (rh * rh) * q;
  // 1 + rh = s + se exactly (|rh| < 1); e^(rh + rl) = e^rh (1 + rl) to 2^-106.
  const double s = 1.0 + rh;
  const double se = (1.0 - s) + rh;
  const double t = se + (rl + (rl * rh + p));
  if (k > -1022) {  // normal result: the scaling by 2^k is exact
    const double y = s + t;
    return k > 1023 ? (y * 2.0) * pow2(k - 1) : y * pow2(k);
  }
  // The result may be subnormal: round (s + t) 2^k once, to a multiple of 2^-1074. In units of
  // 2^-1074 the value is Y = Yh + Yl < 2^53; round it to an integer with the 2^52 trick.
  const double scale = pow2(k + 1074);  // k + 1074 in [-2, 52]
  const double yh = s * scale, yl = t * scale;
  if (yh + yl >= 0x1p52) return (s + t) * pow2(k);  // normal after all (k == -1022)
  const double a = yh + 0x1p52;                     // 2^52 + nearest integer of yh
  const double d = (yh - (a - 0x1p52)) + yl;        // |d| <= 1/2 + tiny, first term exact
  const double n = (a + d) - 0x1p52;                // nearest integer of Y, ties to even
  return n > 0 ? n * 0x1p-1074 : 0.0;
}

// Natural logarithm, within 1 ulp, subnormals included.
inline double log(double x) {
  using namespace detail;
  if (!(x > 0)) return x == 0 ? -kInf : kNaN;  // negative or NaN: NaN
  if (x == kInf) return x;
  return log_kernel(x, 0.0);
}

// log(1 + x), accurate for tiny x, within 1 ulp.
inline double log1p(double x) {
  using namespace detail;
  if (x != x || x == kInf) return x;
  if (!(x > -1.0)) return x == -1.0 ? -kInf : kNaN;
  if (x < 0x1p-20 && x > -0x1p-20) {
    if (x < 0x1p-54 && x > -0x1p-54) return x;  // x - x^2/2 rounds to x; keeps -0
    // x - x^2/2 + x^3/3 - x^4/4: the next term is below 2^-80 relative, and the correction to x
    // is below 2^-21 relative, so its rounding errors do not show.
    return x + (x * x) * (-0.5 + x * (1.0 / 3.0 - 0.25 * x));
  }
  // 1 + x = u + c exactly (Fast2Sum with the larger operand first).
  double u, c;
  if (x <= 1.0 && x >= -1.0) {
    u = 1.0 + x;
    c = x - (u - 1.0);
  } else {
    u = x + 1.0;
    c = 1.0 - (u - x);
  }
  return log_kernel(u, c);
}

// sin x and cos x together (one reduction), within 1 ulp for |x| <= kTrigMaxArg, NaN beyond.
struct SinCos {
  double sin;
  double cos;
};
inline SinCos sincos(double x) {
  using namespace detail;
  if (!(x <= kTrigMaxArg && x >= -kTrigMaxArg)) return {kNaN, kNaN};  // NaN, +-inf, too large
  if (x < 0x1p-27 && x > -0x1p-27) return {x, 1.0};  // x - x^3/6 rounds to x; keeps -0
  // x = k pi/2 + r, |r| <= pi/4: r = ((x - k P1) - k P2) - k P3 - k P4, the first difference
  // exact (Sterbenz), k P1..k P3 exact (|k| < 2^20), the others carried as two-sums.
  const double kd = round_to_int(x * k2OverPi);
  const double a = x - kd * kPio2_1;
  double b, e1, cc, e2, rh, rl;
  two_sum(a, -(kd * kPio2_2), b, e1);
  two_sum(b, -(kd * kPio2_3), cc, e2);
  two_sum(cc, (e1 + e2) - kd * kPio2_4, rh, rl);
  const SinCosPair v = sincos_kernel(rh, rl);
  switch (static_cast<std::int32_t>(kd) & 3) {
    case 0:
      return {v.sin, v.cos};
    case 1:
      return {v.cos, -v.sin};
    case 2:
      return {-v.sin, -v.cos};
    default:
      return {-v.cos, v.sin};
  }
}

inline double sin(double x) { return sincos(x).sin; }
inline double cos(double x) { return sincos(x).cos; }

}  // namespace hermes::portable
