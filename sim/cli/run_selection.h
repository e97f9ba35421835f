// `--runs NAME,...`: the runs of a scenario a command executes (run, bench run).
#pragma once

#include <string>

#include "sim/scenario/scenario.h"

namespace hermes::cli {

// Keeps the runs named in `names` (comma-separated), in file order, also in the recorded
// document. An unknown name is an InputError naming `file` and its runs.
void select_runs(scenario::Scenario& sc, const std::string& names, const std::string& file);

}  // namespace hermes::cli
