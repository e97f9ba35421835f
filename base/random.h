// Random streams that give the same numbers on every platform and standard library.
//
// std::uniform_real_distribution & co. are implementation-defined, so a scenario would give other
// results with libc++ than with libstdc++. Every random number here comes from Philox4x32-10
// (Salmon et al., SC'11), a counter-based generator: stream k of seed s is the sequence
// Philox(key = f(s, k), counter = 0, 1, 2, ...), so streams are independent of each other and of
// the order in which entities draw. The distributions are coded here explicitly.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace hermes {

// One Philox4x32-10 block: 4 x 32-bit outputs for a 128-bit counter and a 64-bit key.
std::array<std::uint32_t, 4> philox4x32_10(std::array<std::uint32_t, 4> counter,
                                           std::array<std::uint32_t, 2> key);

// SplitMix64 finaliser: a bijective 64-bit mixer used to derive stream keys.
std::uint64_t mix64(std::uint64_t x);
// FNV-1a of a label, to name streams ("worker", "jitter", ...) instead of numbering them by hand.
std::uint64_t hash_label(std::string_view label);

class RandomStream {
 public:
  // Stream `stream` of `seed`. Distinct (seed, stream) pairs give independent sequences.
  RandomStream(std::uint64_t seed, std::uint64_t stream);
  // Stream for an entity: e.g. RandomStream::named(seed, "compute-jitter", worker_index).
  static RandomStream named(std::uint64_t seed, std::string_view label, std::uint64_t index = 0);

  std::uint32_t next_u32();
  std::uint64_t next_u64();
  // Uniform in [0, 1) with 53 random bits.
  double uniform01();
  // Uniform in [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform01(); }
  // Uniform integer in [0, n), unbiased (Lemire's multiply-and-reject). n must be > 0.
  std::uint64_t uniform_int(std::uint64_t n);
  // Standard normal, Box-Muller (both values of a pair are used).
  double normal();
  double normal(double mean, double stddev) { return mean + stddev * normal(); }
  // Log-normal with the given mean of the underlying normal's exp, i.e. exp(N(mu, sigma)).
  double lognormal(double mu, double sigma);
  // Exponential with the given mean.
  double exponential(double mean);

  std::uint64_t draws() const { return counter_; }

 private:
  void refill();
  std::array<std::uint32_t, 2> key_;
  std::uint64_t counter_ = 0;  // index of the next 128-bit block
  std::array<std::uint32_t, 4> block_{};
  int used_ = 4;  // outputs of block_ already consumed
  bool have_spare_normal_ = false;
  double spare_normal_ = 0.0;
};

}  // namespace hermes
