// Micro-benchmark of the flow model: the full and the incremental max-min update side by side
// (`hermes-sim bench network`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <vector>

#include "sim/network/incremental_max_min.h"

namespace hermes::network {

struct FlowBench {
  std::size_t flows = 0;  // completed
  std::uint64_t recomputations = 0;
  std::uint64_t flows_resolved = 0;  // summed over recomputations
  double simulated_seconds = 0;
  double wall_seconds = 0;
  std::uint64_t digest = 0;  // of every completion's worker and time, in order
};

// Star of `workers` workers (NICs cycling 100, 1000, 10000 Mbit/s; PS at 10000), each keeping one
// flow of `bytes` in flight: push to the PS, pull back, a worker-specific pause of 0-99 us, push
// again, until `flows` flows (split evenly over the workers) are done. So about `workers` flows
// move at once. `update` chooses the solver.
FlowBench bench_flows(std::size_t workers, std::size_t flows, double bytes, MaxMinUpdate update);

// Runs bench_flows with both solvers for each worker count W, on max(flows, 10 W) flows, and prints
// one line per count: flows moving at a recomputation (mean), recomputations, the simulated time
// of the last event (the same for both solvers), each solver's wall and flows re-solved per
// recomputation, the speedup, and whether both gave the same completions to the ns.
void bench_solvers(const std::vector<std::size_t>& worker_counts, std::size_t flows, double bytes,
                   std::ostream& out);

}  // namespace hermes::network
