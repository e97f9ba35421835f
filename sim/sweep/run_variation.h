// Which runs of a sweep the grid leaves alone. A run's results depend only on its own entry in
// the scenario and on the rest of the scenario (the cluster, training, seed...), never on the
// other runs; so a run whose part of the scenario is the same at every point of a seed computes
// the same results at every grid point of that seed: the sweep repeats it.
#pragma once

#include <cstddef>
#include <vector>

#include "sim/sweep/grid.h"
#include "sim/sweep/points.h"

namespace hermes::sweep {

// A sweep's scenarios come as one document per grid combination ("combos", in the order of the
// points: point i is combination i / seeds, with seed seeds[i % seeds]); a point's document is its
// combination's with its own "seed". The functions below ignore the combinations' "seed".

// The positions (in each point's "runs") of the runs that no grid key changes. Empty when there
// is a single grid combination (nothing is repeated), when a grid key changes anything outside
// "runs" (every run then differs), or when the combinations do not all have the same number of
// runs.
std::vector<std::size_t> unvaried_runs(const std::vector<const Json*>& combos);

// Which runs of a sweep are the same run: ids[i][r] numbers point i's run r so that two runs share
// a number exactly when their part of the scenario (everything but "runs", the seed included, and
// their own entry of "runs") is equal, whatever their position; numbers count from 0 in order of
// first appearance. Such runs compute the same results, so a sweep computes each number once
// (run_reuse.h).
struct DistinctRuns {
  std::vector<std::vector<std::size_t>> ids;  // per point, per run
  std::size_t count = 0;                      // distinct runs
};
DistinctRuns distinct_runs(const std::vector<const Json*>& combos,
                           const std::vector<std::uint64_t>& seeds);

// How many of the runs of `points` (indices into `runs.ids`) repeat a run of an earlier one of
// them: the runs a sweep of those points does not compute.
std::size_t repeated_runs(const DistinctRuns& runs, const std::vector<std::size_t>& points);

}  // namespace hermes::sweep
