// Max-min fair sharing of directed links among flows (progressive filling / water-filling), the
// flow-level model SimGrid uses: repeatedly take the most constrained link (least remaining
// capacity per unfixed flow), give each of its unfixed flows that share, subtract it from every
// link those flows cross, and repeat. The result is the unique max-min fair allocation.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/network/link_graph.h"

namespace hermes::network {

// Keeps per-link scratch between calls so a recomputation allocates nothing in steady state.
// Cost per solve: O(sum of route lengths * log(links touched)).
class MaxMinSolver {
 public:
  // capacity[l]: bandwidth of directed link l (>= 0), bytes/s. A flow crossing a link of
  // capacity 0 (a lost link) gets rate 0 and leaves the other links' shares to the other flows.
  explicit MaxMinSolver(std::vector<double> capacity);

  // Changes one link's capacity (>= 0) for the following solves.
  void set_capacity(LinkId link, double capacity) { capacity_.at(link) = capacity; }

  // routes[f] lists the links flow f crosses (each at most once). On return rates[f] holds its
  // rate, bytes/s; a flow with an empty route gets +infinity (nothing limits it).
  void solve(const std::vector<const std::vector<LinkId>*>& routes, std::vector<double>& rates);

  std::size_t link_count() const { return capacity_.size(); }

 private:
  struct HeapEntry {
    double share;
    LinkId link;
    std::uint32_t version;
  };

  std::vector<double> capacity_;
  std::vector<double> remaining_;                     // capacity not yet given to fixed flows
  std::vector<std::uint32_t> unfixed_;                // unfixed flows crossing the link
  std::vector<std::uint32_t> version_;                // bumps when remaining_/unfixed_ change
  std::vector<std::vector<std::uint32_t>> flows_on_;  // flow indices crossing the link
  std::vector<LinkId> touched_;
  std::vector<HeapEntry> heap_;
  std::vector<char> fixed_;
};

}  // namespace hermes::network
