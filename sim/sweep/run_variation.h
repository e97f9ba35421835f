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

// The positions (in each point's "runs") of the runs that no grid key changes, given every
// point's scenario document (documents[i] is points[i]'s). Empty when each seed has a single
// grid point (nothing is repeated), when a grid key changes anything outside "runs" (every run
// then differs), or when the points do not all have the same number of runs.
std::vector<std::size_t> unvaried_runs(const std::vector<const Json*>& documents,
                                       const std::vector<SweepPoint>& points);

}  // namespace hermes::sweep
