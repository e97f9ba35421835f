// `--runs NAME,...`: the runs of a scenario a command executes (run, bench run, sweep).
#pragma once

#include <string>
#include <vector>

#include "sim/scenario/scenario.h"

namespace hermes::cli {

// The positions in sc.runs of the runs named in `names` (comma-separated), in file order. An
// unknown name, or no name at all, is an InputError naming `file` and its runs.
std::vector<std::size_t> find_runs(const scenario::Scenario& sc, const std::string& names,
                                   const std::string& file);

// Keeps the runs at `positions` (ascending, from find_runs), also in the recorded document. A
// sweep keeps the same positions at every point: an unnamed run's default name may change with
// the grid's values ("hermes-1.6" at one point, "hermes-1.3" at the next).
void keep_runs(scenario::Scenario& sc, const std::vector<std::size_t>& positions);

// find_runs, then keep_runs.
void select_runs(scenario::Scenario& sc, const std::string& names, const std::string& file);

}  // namespace hermes::cli
