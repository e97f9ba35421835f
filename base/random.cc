#include "base/random.h"

#include <cmath>

#include "base/portable_math.h"

namespace hermes {

namespace {
__extension__ typedef unsigned __int128 u128;  // GCC/Clang extension; exact 64x64->128 product
constexpr std::uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;
constexpr std::uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;

inline void mulhilo(std::uint32_t a, std::uint32_t b, std::uint32_t& hi, std::uint32_t& lo) {
  const std::uint64_t p = static_cast<std::uint64_t>(a) * b;
  hi = static_cast<std::uint32_t>(p >> 32);
  lo = static_cast<std::uint32_t>(p);
}
}  // namespace

std::array<std::uint32_t, 4> philox4x32_10(std::array<std::uint32_t, 4> c,
                                           std::array<std::uint32_t, 2> k) {
  for (int round = 0; round < 10; ++round) {
    std::uint32_t hi0, lo0, hi1, lo1;
    mulhilo(kM0, c[0], hi0, lo0);
    mulhilo(kM1, c[2], hi1, lo1);
    c = {hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0};
    k[0] += kW0;
    k[1] += kW1;
  }
  return c;
}

std::uint64_t mix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

std::uint64_t hash_label(std::string_view label) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char ch : label) {
    h ^= ch;
    h *= 0x100000001b3ull;
  }
  return h;
}

RandomStream::RandomStream(std::uint64_t seed, std::uint64_t stream) {
  const std::uint64_t k = mix64(mix64(seed) ^ mix64(stream + 0x632BE59BD9B4E019ull));
  key_ = {static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(k >> 32)};
}

RandomStream RandomStream::named(std::uint64_t seed, std::string_view label, std::uint64_t index) {
  return RandomStream(seed, mix64(hash_label(label)) ^ index);
}

void RandomStream::refill() {
  block_ = philox4x32_10(
      {static_cast<std::uint32_t>(counter_), static_cast<std::uint32_t>(counter_ >> 32), 0u, 0u},
      key_);
  ++counter_;
  used_ = 0;
}

std::uint32_t RandomStream::next_u32() {
  if (used_ == 4) refill();
  return block_[used_++];
}

std::uint64_t RandomStream::next_u64() {
  const std::uint64_t hi = next_u32();
  return (hi << 32) | next_u32();
}

double RandomStream::uniform01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

std::uint64_t RandomStream::uniform_int(std::uint64_t n) {
  // Lemire (2019), "Fast random integer generation in an interval", with rejection: unbiased.
  u128 m = static_cast<u128>(next_u64()) * n;
  auto low = static_cast<std::uint64_t>(m);
  if (low < n) {
    const std::uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      m = static_cast<u128>(next_u64()) * n;
      low = static_cast<std::uint64_t>(m);
    }
  }
  return static_cast<std::uint64_t>(m >> 64);
}

double RandomStream::normal() {
  if (have_spare_normal_) {
    have_spare_normal_ = false;
    return spare_normal_;
  }
  // 1 - u keeps the argument of log in (0, 1]. log, sin and cos are hermes::portable's, not
  // libm's: libm's last bit depends on the host (base/portable_math.h); sqrt is IEEE-exact.
  const double u1 = 1.0 - uniform01();
  const double u2 = uniform01();
  const double r = std::sqrt(-2.0 * portable::log(u1));
  const double theta = 6.283185307179586476925 * u2;  // in [0, 2 pi)
  const portable::SinCos sc = portable::sincos(theta);
  spare_normal_ = r * sc.sin;
  have_spare_normal_ = true;
  return r * sc.cos;
}

double RandomStream::lognormal(double mu, double sigma) { return portable::exp(normal(mu, sigma)); }

double RandomStream::exponential(double mean) { return -mean * portable::log(1.0 - uniform01()); }

}  // namespace hermes
