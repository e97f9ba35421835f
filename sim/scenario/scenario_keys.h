// Every key of a scenario with its type, default, accepted values and help, from the declaration
// tables the section readers read with (sim/config/key_table.h, sections.h) and the run
// parameters' table (run_params.h): what `hermes-sim keys` prints.
#pragma once

#include <vector>

#include "sim/config/key_table.h"

namespace hermes::scenario {

// The declared objects in schema order, each section after its top-level key.
std::vector<const config::ObjectDecl*> scenario_objects();

// Every key, in the same order: "seed", "cluster", "cluster.ps", "cluster.ps.profile", ...
std::vector<config::KeyHelp> scenario_keys();

}  // namespace hermes::scenario
