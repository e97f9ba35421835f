// Local SGD's PS-side math; the rules, their sources and the choices are in local_sgd_rule.h.
#include "sim/policies/local_sgd_rule.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace hermes::protocols {

namespace {

std::string number(double v) {
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

}  // namespace

void check_local_sgd_params(const LocalSgdParams& p) {
  if (p.local_steps < 1) {
    throw std::invalid_argument("local SGD: local_steps must be >= 1, got " +
                                std::to_string(p.local_steps));
  }
  if (!(p.participation > 0.0 && p.participation <= 1.0)) {
    throw std::invalid_argument("local SGD: participation must be in (0, 1], got " +
                                number(p.participation));
  }
  if (!(p.outer_lr > 0.0 && std::isfinite(p.outer_lr))) {
    throw std::invalid_argument("local SGD: outer_lr must be > 0, got " + number(p.outer_lr));
  }
  if (!(p.outer_momentum >= 0.0 && p.outer_momentum < 1.0)) {
    throw std::invalid_argument("local SGD: outer_momentum must be in [0, 1), got " +
                                number(p.outer_momentum));
  }
}

std::size_t participant_count(double participation, std::size_t available) {
  if (available == 0) return 0;
  const double m = std::floor(participation * static_cast<double>(available) + 1e-9);
  return std::clamp<std::size_t>(static_cast<std::size_t>(std::max(m, 1.0)), 1, available);
}

std::vector<std::size_t> draw_participants(std::span<const std::size_t> candidates,
                                           std::size_t count, RandomStream& rng) {
  std::vector<std::size_t> pool(candidates.begin(), candidates.end());
  if (count >= pool.size()) return pool;
  // Partial Fisher-Yates: position i takes a uniform pick of the positions i .. n-1.
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t j = i + static_cast<std::size_t>(rng.uniform_int(pool.size() - i));
    std::swap(pool[i], pool[j]);
  }
  pool.resize(count);
  std::sort(pool.begin(), pool.end());
  return pool;
}

OuterStep::OuterStep(double lr, double momentum, std::size_t params)
    : lr_(static_cast<float>(lr)),
      mu_(static_cast<float>(momentum)),
      plain_(lr == 1.0 && momentum == 0.0) {
  if (!plain_) momentum_.assign(params, 0.0f);
}

void OuterStep::apply(std::span<const float> sum, std::size_t k, std::span<float> global) {
  if (sum.size() != global.size() || (!plain_ && momentum_.size() != global.size())) {
    throw std::invalid_argument("OuterStep::apply: sizes differ");
  }
  const float inv_k = 1.0f / static_cast<float>(k);
  if (plain_) {
    // BSP's mean, operation for operation (nn::axpy(1/k, sum, global); the build never fuses a
    // multiply and an add): local SGD of H = 1 gives BSP's models bit for bit.
    for (std::size_t i = 0; i < global.size(); ++i) global[i] = global[i] + inv_k * sum[i];
    return;
  }
  for (std::size_t i = 0; i < global.size(); ++i) {
    const float d = inv_k * sum[i];
    momentum_[i] = mu_ * momentum_[i] + d;
    global[i] += lr_ * (d + mu_ * momentum_[i]);
  }
}

void OuterStep::set_momentum(std::span<const float> m) { momentum_.assign(m.begin(), m.end()); }

}  // namespace hermes::protocols
