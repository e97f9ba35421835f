// sweep.json: what a sweep directory was started with. Written when the sweep starts; a later run
// of the same command resumes it only if the scenario document, the grid and the seeds are the
// same. The build is recorded: a change of the code version is only reported, a change of the
// math (profile or arch) is refused unless --allow-mixed-math, which then adds the new math to
// "mixed_math" (math_check.h). Manifests written before "build" existed (code_version only) are
// still read.
//
// {
//   "format": 1,
//   "scenario_path": "scenarios/examples/sweep-demo.json",
//   "scenario": { the document as loaded, after --set, defaults filled in },
//   "grid": {"runs.hermes.alpha": ["-1.6", "-1.3"], ...},    (keys in sweep order, values as text)
//   "seeds": [1, 2],
//   "runs": ["bsp", "hermes"],    (the runs every point executes, --runs; absent before --runs
//                                  existed: every run of the scenario)
//   "code_version": "0.1.0 (62337b3-dirty)",
//   "build": {"version": "0.1.0", "commit": "62337b3-dirty", "math_profile": "reproducible",
//             "math_arch": "x86-64-v3", "eigen": "3.4.0", "compiler": "GCC 12.2.0"},
//   "mixed_math": [{"math_profile": "native", "math_arch": "native (rocketlake)"}],  (if any)
//   "points": [{"point": "0000", "dir": "points/0000", "seed": 1,
//               "params": {"runs.hermes.alpha": "-1.6", ...}}, ...]
// }
#pragma once

#include <string>
#include <vector>

#include "sim/common/build_info.h"
#include "sim/sweep/grid.h"
#include "sim/sweep/points.h"

namespace hermes::sweep {

struct SweepDefinition {
  std::string scenario_path;
  Json scenario;  // Scenario::document of the base scenario
  std::vector<GridAxis> grid;
  std::vector<std::uint64_t> seeds;
  std::vector<std::string> runs;  // the runs every point executes (their names in `scenario`)
  std::vector<SweepPoint> points;
};

// The manifest of `sweep` started by `build` (its code_version is build.code_version()).
Json make_manifest(const SweepDefinition& sweep, const BuildInfo& build);

// `manifest` without what depends on the binary that wrote it (code_version, build, mixed_math):
// what every MPI rank of one sweep must agree on.
Json without_build(const Json& manifest);

// What makes `current` a different sweep from `recorded`: one line each for the scenario (with
// the JSON pointers that differ), the grid, the seeds and the runs. Empty if `current` resumes
// `recorded`.
std::vector<std::string> manifest_differences(const Json& recorded, const Json& current);

}  // namespace hermes::sweep
