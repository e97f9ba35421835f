// Subcommands of the hermes-sim command line. Each takes the arguments after its name and
// returns the process exit status. main.cc dispatches; each command lives in its own file.
#pragma once

#include <string>
#include <vector>

#include "sim/common/home_dir.h"

namespace hermes::cli {

using Args = std::vector<std::string>;

int cmd_run(const Args& args);       // cmd_run.cc
int cmd_validate(const Args& args);  // cmd_validate.cc
int cmd_profiles(const Args& args);  // cmd_profiles.cc
int cmd_train(const Args& args);     // cmd_train.cc: central training, no cluster
int cmd_bench(const Args& args);     // cmd_bench.cc: dispatches to the benches below
int cmd_compare(const Args& args);   // cmd_compare.cc: a summary beside the paper's table
int cmd_sweep(const Args& args);     // cmd_sweep.cc: a grid of runs, resumable, MPI
int cmd_keys(const Args& args);      // cmd_keys.cc: every scenario key, from the reader's tables
int bench_engine(const Args& args);  // bench_engine.cc
int bench_math(const Args& args);    // bench_math.cc
int bench_run(const Args& args);     // bench_run.cc: a scenario's wall time, threads, workers

// hermes-sim's home (sim/common/home_dir.h): $HERMES_HOME, else the installed share directory
// beside the executable, else the source tree of a build-tree binary (base/build_tree.h). Throws
// InputError for a HERMES_HOME that is not a directory, or when none of the three is found.
HomeDir home_dir();  // paths.cc
// home_dir().path: where scenarios/, scenarios/profiles/ and results/reference/ are read from.
std::string source_dir();

}  // namespace hermes::cli
