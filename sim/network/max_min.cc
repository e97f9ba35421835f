#include "sim/network/max_min.h"

#include <algorithm>
#include <limits>

namespace hermes::network {
MaxMinSolver::MaxMinSolver(std::vector<double> capacity)
    : capacity_(std::move(capacity)),
      remaining_(capacity_.size(), 0.0),
      unfixed_(capacity_.size(), 0),
      version_(capacity_.size(), 0),
      flows_on_(capacity_.size()) {}

void MaxMinSolver::solve(const std::vector<const std::vector<LinkId>*>& routes,
                         std::vector<double>& rates) {
  // Min-heap on share; ties by link index so the order of floating-point subtractions, and hence
  // every last bit of the rates, is reproducible.
  const auto later = [](const HeapEntry& a, const HeapEntry& b) {
    return a.share != b.share ? a.share > b.share : a.link > b.link;
  };
  const std::size_t n = routes.size();
  rates.assign(n, std::numeric_limits<double>::infinity());
  fixed_.assign(n, 0);
  touched_.clear();
  heap_.clear();

  for (std::uint32_t f = 0; f < n; ++f) {
    for (const LinkId l : *routes[f]) {
      if (unfixed_[l] == 0) {
        touched_.push_back(l);
        remaining_[l] = capacity_[l];
      }
      ++unfixed_[l];
      flows_on_[l].push_back(f);
    }
  }
  for (const LinkId l : touched_) {
    heap_.push_back({remaining_[l] / unfixed_[l], l, version_[l]});
  }
  std::make_heap(heap_.begin(), heap_.end(), later);

  // Flows crossing at least one link not yet fixed; once none is left, the entries still in the
  // heap are all stale and need not be popped.
  std::size_t unfixed_flows = 0;
  for (std::uint32_t f = 0; f < n; ++f) unfixed_flows += routes[f]->empty() ? 0 : 1;
  while (unfixed_flows > 0 && !heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const HeapEntry top = heap_.back();
    heap_.pop_back();
    const LinkId l = top.link;
    if (unfixed_[l] == 0 || top.version != version_[l]) continue;  // stale entry
    const double share = top.share;
    for (const std::uint32_t f : flows_on_[l]) {
      if (fixed_[f]) continue;
      fixed_[f] = 1;
      --unfixed_flows;
      rates[f] = share;
      for (const LinkId m : *routes[f]) {
        // Clamp: rounding must never leave a link with negative capacity for later flows.
        remaining_[m] = std::max(0.0, remaining_[m] - share);
        --unfixed_[m];
        ++version_[m];
      }
    }
    // Each other link touched got a fresh version above; re-offer those that still have flows.
    for (const std::uint32_t f : flows_on_[l]) {
      for (const LinkId m : *routes[f]) {
        if (unfixed_[m] > 0 && m != l) {
          heap_.push_back({remaining_[m] / unfixed_[m], m, version_[m]});
          std::push_heap(heap_.begin(), heap_.end(), later);
        }
      }
    }
  }

  for (const LinkId l : touched_) {
    flows_on_[l].clear();
    unfixed_[l] = 0;
  }
}

}  // namespace hermes::network
