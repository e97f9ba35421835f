// DIR/summary.csv of a sweep: one row per (point, run), ordered by point then run. Columns:
// `point` (NNNN), one per grid key named by its key path (runs.hermes.alpha), then every column of
// the points' own summary.csv (run, protocol, params, seed, status, ...), of any point. Rebuilt
// from the point directories, so it always agrees with them whatever ran where.
#pragma once

#include <string>
#include <vector>

#include "sim/sweep/grid.h"
#include "sim/sweep/points.h"
#include "sim/sweep/sweep_dir.h"

namespace hermes::sweep {

// The summary of the finished points (those with a directory); "" if there are none. Points whose
// summaries have different columns (a grid key that changes a run's protocol) are merged on the
// union of their columns, empty where a point has none. Throws std::runtime_error naming the file
// if a point's summary.csv is missing or a row's field count is not its header's.
std::string sweep_summary_csv(const SweepDir& dir, const std::vector<GridAxis>& grid,
                              const std::vector<SweepPoint>& points);

// Writes it atomically to DIR/summary.csv (nothing while no point has finished). Returns the
// number of data rows.
std::size_t write_sweep_summary(const SweepDir& dir, const std::vector<GridAxis>& grid,
                                const std::vector<SweepPoint>& points);

}  // namespace hermes::sweep
