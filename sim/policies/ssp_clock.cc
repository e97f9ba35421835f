// SSP clock bookkeeping; the rule and its choices are documented in ssp_clock.h.
#include "sim/policies/ssp_clock.h"

#include <stdexcept>
#include <string>

namespace hermes::protocols {

SspClocks::SspClocks(int workers, std::int64_t staleness)
    : staleness_(staleness), at_min_(workers) {
  if (workers < 1) {
    throw std::invalid_argument("SspClocks: workers must be >= 1, got " + std::to_string(workers));
  }
  if (staleness < 0) {
    throw std::invalid_argument("SspClocks: staleness must be >= 0, got " +
                                std::to_string(staleness));
  }
  clocks_.assign(static_cast<std::size_t>(workers), 0);
  blocked_.assign(static_cast<std::size_t>(workers), false);
  live_.assign(static_cast<std::size_t>(workers), true);
}

std::size_t SspClocks::index(int w) const {
  if (w < 0 || w >= workers()) {
    throw std::out_of_range("SspClocks: worker " + std::to_string(w) + " out of [0, " +
                            std::to_string(workers()) + ")");
  }
  return static_cast<std::size_t>(w);
}

bool SspClocks::may_start(int w) const {
  // Written as a comparison of c_w - min (>= 0) so a huge s (ASP) cannot overflow.
  return clocks_[index(w)] - min_ <= staleness_;
}

bool SspClocks::try_start(int w) {
  const std::size_t i = index(w);
  if (!live_[i]) return false;
  if (blocked_[i]) throw std::logic_error("SspClocks: worker " + std::to_string(w) + " blocked");
  if (may_start(w)) return true;
  blocked_[i] = true;
  ++blocked_count_;
  return false;
}

std::vector<int> SspClocks::advance(int w) {
  const std::size_t i = index(w);
  if (!live_[i]) return {};
  if (blocked_[i]) {
    throw std::logic_error("SspClocks: blocked worker " + std::to_string(w) + " cannot advance");
  }
  const std::int64_t before = clocks_[i]++;
  if (clocks_[i] > max_) max_ = clocks_[i];
  std::vector<int> woken;
  if (before != min_ || --at_min_ > 0) return woken;  // the minimum did not rise

  // w was the last worker at the minimum: the minimum rises by exactly one (w is now there).
  return recount();
}

std::vector<int> SspClocks::remove(int w) {
  const std::size_t i = index(w);
  if (!live_[i]) return {};
  live_[i] = false;
  if (blocked_[i]) {
    blocked_[i] = false;
    --blocked_count_;
  }
  return recount();
}

void SspClocks::add(int w) {
  const std::size_t i = index(w);
  if (live_[i]) return;
  live_[i] = true;
  // With nobody else live min_ is what it was when the last one left: its clock stays its own.
  if (at_min_ > 0) clocks_[i] = min_;
  recount();
}

std::vector<int> SspClocks::recount() {
  bool any = false;
  for (std::size_t j = 0; j < clocks_.size(); ++j) {
    if (!live_[j]) continue;
    if (!any || clocks_[j] < min_) min_ = clocks_[j];
    if (!any || clocks_[j] > max_) max_ = clocks_[j];
    any = true;
  }
  at_min_ = 0;
  std::vector<int> woken;
  for (std::size_t j = 0; j < clocks_.size(); ++j) {
    if (live_[j] && clocks_[j] == min_) ++at_min_;
    if (blocked_[j] && clocks_[j] - min_ <= staleness_) {
      blocked_[j] = false;
      --blocked_count_;
      woken.push_back(static_cast<int>(j));
    }
  }
  return woken;
}

}  // namespace hermes::protocols
