// What `hermes-sim sweep` will run, worked out before anything runs: the base scenario, the grid
// (file and command line merged), the seeds, the scenario of every grid combination (loaded and
// validated up front, so a bad grid key is reported before the first point starts), what each
// seed changes, and the manifest.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/protocols/skeleton/resources.h"
#include "sim/scenario/scenario.h"
#include "sim/sweep/manifest.h"
#include "sim/sweep/points.h"
#include "sim/sweep/run_variation.h"

namespace hermes::cli {

struct SweepRequest {
  std::string file;                  // the scenario
  std::vector<std::string> sets;     // --set, applied to the base scenario and every point
  std::vector<std::string> grid;     // --grid
  sweep::SeedRequest seeds;          // --seeds / --seed-list
  std::optional<std::string> runs;   // --runs NAME,...: the runs every point executes
  protocols::ResourceLimits limits;  // --max-memory, --max-hours: checked for every point
  std::string data_dir;              // --data-dir: where an own dataset is found and counted
};

struct SweepPlan {
  sweep::SweepDefinition definition;
  // One scenario per grid combination, loaded with the first seed, its "sweep" section removed:
  // point i runs combos[i / seeds] with its own seed (point_scenario). A seed changes only the
  // "seed" of the document and, with availability models, the outages drawn at load.
  std::vector<scenario::Scenario> combos;
  // With availability models, point i's outages, drawn ones included (each point loaded in full
  // when planned, so that a draw that fails is reported before any point runs); else empty, and
  // empty at the points of a combination without models.
  std::vector<std::vector<scenario::OutageSpec>> point_outages;
  sweep::Json manifest;
  // Without --runs: the runs no grid key changes (sweep/run_variation.h), which every grid point
  // of a seed repeats; empty with --runs, or when nothing is repeated.
  std::vector<std::string> unvaried_runs;
  // Which runs of the points are equal (sweep/run_variation.h): computed once each.
  sweep::DistinctRuns distinct;
  // The point whose estimate (memory, then time) is the largest, and that estimate.
  std::size_t heaviest_point = 0;
  protocols::ResourceEstimate heaviest;
};

// Throws InputError naming the option, the file and JSON path, or the point that is wrong.
SweepPlan plan_sweep(const SweepRequest& request);

// Point i's combination (its runs, model, data...: everything but the seed's effects).
const scenario::Scenario& combo_of(const SweepPlan& plan, std::size_t i);

// Point i's scenario: what `hermes-sim run` loads from the file with the point's --set values.
scenario::Scenario point_scenario(const SweepPlan& plan, std::size_t i);

// Without --runs, a note naming the runs no grid key changes, which every grid point of a seed
// repeats: with `reuse`, that each seed computes them once; without, the --runs that leaves them
// out. Empty if there are none.
std::string unvaried_runs_note(const SweepPlan& plan, bool reuse);

// "runs: 126 at 18 points to run, 96 of them equal to a run of another: 30 to compute" for the
// points `todo`; with !reuse (--no-reuse) every run is computed.
std::string runs_line(const SweepPlan& plan, const std::vector<std::size_t>& todo, bool reuse);

// "sweep DIR: 9 points (2 grid keys x 1 seed), 4 done before, 5 to run on 2 threads": `runs_on`
// says where ("2 threads", "2 ranks x 1 thread").
std::string sweep_line(const SweepPlan& plan, const std::string& dir, std::size_t done_before,
                       const std::string& runs_on);

}  // namespace hermes::cli
