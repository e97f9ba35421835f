// The update codecs of docs/compression.md (see update_compression.h).
#include "sim/policies/update_compression.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

namespace hermes::protocols {

namespace {

constexpr std::uint32_t kSignBit = 0x80000000u;
constexpr std::uint32_t kAbsMask = 0x7fffffffu;
constexpr std::uint32_t kInfBits = 0x7f800000u;
constexpr std::uint32_t kQuietNan = 0x7fc00000u;

float from_bits(std::uint32_t bits) { return std::bit_cast<float>(bits); }

// |x| as a sort key: NaN above infinity, so that a diverged update still has one top k.
float magnitude(float x) { return std::isnan(x) ? INFINITY : std::fabs(x); }

// Rounds `m` right by `shift` bits (1..31), to nearest, ties to even.
std::uint32_t shift_round_even(std::uint32_t m, int shift) {
  const std::uint32_t q = m >> shift;
  const std::uint32_t rest = m & ((1u << shift) - 1u);
  const std::uint32_t half = 1u << (shift - 1);
  return (rest > half || (rest == half && (q & 1u) != 0)) ? q + 1 : q;
}

}  // namespace

float round_to_fp16(float x) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(x);
  const std::uint32_t sign = bits & kSignBit;
  const std::uint32_t abs = bits & kAbsMask;
  if (abs > kInfBits) return from_bits(sign | kQuietNan | abs);  // NaN stays NaN
  // From 65520 (halfway between 65504, the largest half, and 2^16) on: infinity.
  if (abs >= 0x477ff000u) return from_bits(sign | kInfBits);
  if (abs >= 0x38800000u) {  // a normal half (>= 2^-14): keep 10 of float32's 23 mantissa bits
    const std::uint32_t kept = shift_round_even(abs, 13) << 13;
    return from_bits(sign | kept);
  }
  // A subnormal half: a multiple q of 2^-24. |x| = m x 2^(e - 150) for a normal float (a float32
  // subnormal is below 2^-126, far under half of 2^-24: 0), so q = m x 2^(e - 126) rounded.
  const int e = static_cast<int>(abs >> 23);
  const int shift = 126 - e;
  if (e == 0 || shift > 24) return from_bits(sign);  // under 2^-25: rounds to (signed) zero
  const std::uint32_t m = (abs & 0x007fffffu) | 0x00800000u;
  const std::uint32_t q = shift_round_even(m, shift);
  return std::copysign(std::ldexp(static_cast<float>(q), -24), x);  // exact: q <= 2^10
}

float round_to_bf16(float x) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(x);
  if ((bits & kAbsMask) > kInfBits) return from_bits((bits | kQuietNan) & 0xffff0000u);
  // The carry of the rounding runs into the exponent: past bfloat16's largest, infinity.
  const std::uint32_t lsb = (bits >> 16) & 1u;
  return from_bits((bits + 0x7fffu + lsb) & 0xffff0000u);
}

std::size_t kept_count(std::size_t n, double fraction) {
  if (n == 0) return 0;
  const double k = std::round(fraction * static_cast<double>(n));
  return std::clamp<std::size_t>(static_cast<std::size_t>(std::max(k, 1.0)), 1, n);
}

std::vector<std::uint32_t> top_k_indices(std::span<const float> values, std::size_t k) {
  std::vector<std::uint32_t> order(values.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::uint32_t>(i);
  k = std::min(k, values.size());
  // A strict total order (magnitude down, then index up): nth_element's k first are the same set
  // whatever the implementation.
  const auto before = [values](std::uint32_t a, std::uint32_t b) {
    const float ma = magnitude(values[a]);
    const float mb = magnitude(values[b]);
    return ma != mb ? ma > mb : a < b;
  };
  if (k < order.size()) {
    std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                     before);
  }
  order.resize(k);
  std::sort(order.begin(), order.end());
  return order;
}

std::vector<std::uint32_t> random_k_indices(std::size_t n, std::size_t k, RandomStream& draws) {
  // Floyd's algorithm: for j = n - k .. n - 1 draw t in [0, j]; take t, or j if t is taken. Each
  // k-subset is equally likely, with exactly k draws whatever the values.
  k = std::min(k, n);
  std::vector<bool> taken(n, false);
  std::vector<std::uint32_t> out;
  out.reserve(k);
  for (std::size_t j = n - k; j < n; ++j) {
    auto t = static_cast<std::size_t>(draws.uniform_int(j + 1));
    if (taken[t]) t = j;
    taken[t] = true;
    out.push_back(static_cast<std::uint32_t>(t));
  }
  std::sort(out.begin(), out.end());
  return out;
}

double compressed_bytes(Compression kind, std::size_t n, std::size_t k) {
  switch (kind) {
    case Compression::kNone:
      return 4.0 * static_cast<double>(n);
    case Compression::kFp16:
    case Compression::kBf16:
      return kHalfBytes * static_cast<double>(n);
    case Compression::kTopK:
    case Compression::kRandK:
      return kSparseEntryBytes * static_cast<double>(k);
  }
  return 0;
}

double compress_update(const CompressionSpec& spec, std::span<float> update,
                       std::span<float> residual, RandomStream& draws) {
  const std::size_t n = update.size();
  if (spec.error_feedback) {
    if (residual.size() != n) throw std::invalid_argument("compress_update: residual size");
    for (std::size_t i = 0; i < n; ++i) update[i] += residual[i];  // corrected = update + e
    std::copy(update.begin(), update.end(), residual.begin());     // e = corrected - sent, below
  }
  std::size_t k = n;
  switch (spec.kind) {
    case Compression::kNone:
      break;
    case Compression::kFp16:
      for (float& v : update) v = round_to_fp16(v);
      break;
    case Compression::kBf16:
      for (float& v : update) v = round_to_bf16(v);
      break;
    case Compression::kTopK:
    case Compression::kRandK: {
      k = kept_count(n, spec.fraction);
      const std::vector<std::uint32_t> kept = spec.kind == Compression::kTopK
                                                  ? top_k_indices(update, k)
                                                  : random_k_indices(n, k, draws);
      // Zero all but the kept values, walking the ascending indices once.
      std::size_t next = 0;
      for (std::size_t i = 0; i < n; ++i) {
        if (next < kept.size() && kept[next] == i) {
          ++next;
        } else {
          update[i] = 0.0f;
        }
      }
      break;
    }
  }
  if (spec.error_feedback) {
    for (std::size_t i = 0; i < n; ++i) residual[i] -= update[i];
  }
  return compressed_bytes(spec.kind, n, k);
}

}  // namespace hermes::protocols
