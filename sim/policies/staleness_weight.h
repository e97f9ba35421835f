// The weight of an update that arrives at the PS with staleness tau, tau being the number of
// global updates applied since the worker pulled the model its update was computed from
// (docs/staleness.md). The weightings of FedAsync (Xie, Koyejo and Gupta, "Asynchronous Federated
// Optimization", arXiv 1903.03934, section 5.2, s(t - tau)):
//   constant     1 (today's ASP and SSP)
//   inverse      1 / (1 + tau)            (FedAsync's polynomial with a = 1)
//   polynomial   (1 + tau)^-a, a >= 0     (FedAsync's polynomial; FedBuff, arXiv 2106.06639,
//                                          section 6, runs it with a = 1/2)
// The asynchronous protocols (sim/protocols/algorithms/asp_ssp.cc) multiply it into their server
// step. Pure: no simulator, no time.
#pragma once

#include <cstdint>
#include <vector>

namespace hermes::protocols {

enum class StalenessWeight { kConstant, kInverse, kPolynomial };

namespace staleness_defaults {
// FedBuff's experiments use 1/sqrt(1 + tau); FedAsync's polynomial family is (1 + tau)^-a.
inline constexpr double kExponent = 0.5;
// One arrival per server step: ASP's and SSP's rule without a buffer.
inline constexpr int kBufferSize = 1;
}  // namespace staleness_defaults

// s(tau) for tau >= 0 (a negative tau, which no run gives, counts as 0). `exponent` is read only
// by kPolynomial. Computed in double and rounded once, so that the weight of a given tau does not
// depend on the order of anything else.
float staleness_weight(StalenessWeight kind, std::int64_t tau, double exponent);

// The PS's count of global updates (its model's version) and the version of the model each
// worker pulled last: the staleness of an update is the version when it is applied minus that of
// the model it was computed from.
class StalenessClock {
 public:
  explicit StalenessClock(std::size_t workers) : pulled_(workers, 0) {}
  // The PS sends worker w the model as it is now.
  void pull(std::size_t w) { pulled_[w] = version_; }
  // The version of worker w's latest pull (an update keeps it from its push on: w may pull
  // again, after going and coming back, before the PS applies it).
  std::int64_t pulled(std::size_t w) const { return pulled_[w]; }
  // One global update applied (an update, or a FedBuff buffer).
  void applied() { ++version_; }
  std::int64_t version() const { return version_; }
  // tau of an update computed from the model of version `pulled_at`, applied now.
  std::int64_t staleness(std::int64_t pulled_at) const { return version_ - pulled_at; }

 private:
  std::int64_t version_ = 0;
  std::vector<std::int64_t> pulled_;
};

}  // namespace hermes::protocols
