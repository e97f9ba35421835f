// What `hermes-sim sweep` will run, worked out before anything runs: the base scenario, the grid
// (file and command line merged), the seeds, every point's scenario (loaded and validated up
// front, so a bad grid key is reported before the first point starts) and the manifest.
#pragma once

#include <string>
#include <vector>

#include "sim/protocols/skeleton/resources.h"
#include "sim/scenario/scenario.h"
#include "sim/sweep/manifest.h"
#include "sim/sweep/points.h"

namespace hermes::cli {

struct SweepRequest {
  std::string file;                  // the scenario
  std::vector<std::string> sets;     // --set, applied to the base scenario and every point
  std::vector<std::string> grid;     // --grid
  sweep::SeedRequest seeds;          // --seeds / --seed-list
  protocols::ResourceLimits limits;  // --max-memory, --max-hours: checked for every point
};

struct SweepPlan {
  sweep::SweepDefinition definition;
  std::vector<scenario::Scenario> points;  // point i's scenario, its "sweep" section removed
  sweep::Json manifest;
};

// Throws InputError naming the option, the file and JSON path, or the point that is wrong.
SweepPlan plan_sweep(const SweepRequest& request);

}  // namespace hermes::cli
