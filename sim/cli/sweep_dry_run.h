// `hermes-sim sweep --dry-run`: everything a sweep checks before its first point (scenario, grid,
// the sweep directory, the data, the resource estimates), then the points it would run, printed
// without creating or changing anything on disk.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sim/cli/sweep_plan.h"

namespace hermes::cli {

// Up to this many points, --dry-run lists every one; beyond, the first and last kDryRunEnds.
inline constexpr std::size_t kDryRunListed = 100;
inline constexpr std::size_t kDryRunEnds = 10;

// One line per point: its name, grid values (shown as summary.csv shows them), seed and state
// ("done" if `done[i]`, else "to run"), under a header naming the grid keys. Beyond kDryRunListed
// points, the first and last kDryRunEnds, a "..." row between them, and a line after the table
// saying how many are not shown and how many of those are done.
std::string point_table(const SweepPlan& plan, const std::vector<bool>& done);

// What the sweep would do, for --dry-run (after the build line): the notes of checking DIR, the
// sweep line, `runs_line` (sweep_plan.h), the runs of each point, the largest resource estimate
// and point_table().
void print_dry_run(std::ostream& os, const SweepPlan& plan, const std::string& out,
                   const std::vector<std::string>& dir_notes, const std::vector<bool>& done,
                   const std::string& runs_on, const std::string& runs_line);

}  // namespace hermes::cli
