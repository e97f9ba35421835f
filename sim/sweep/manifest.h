// sweep.json: what a sweep directory was started with. Written once when the sweep starts; a
// later run of the same command resumes it only if the scenario document, the grid and the seeds
// are the same (the code version is recorded, and a change of it is only reported).
//
// {
//   "format": 1,
//   "scenario_path": "scenarios/examples/sweep-demo.json",
//   "scenario": { the document as loaded, after --set, defaults filled in },
//   "grid": {"runs.hermes.alpha": ["-1.6", "-1.3"], ...},    (keys in sweep order, values as text)
//   "seeds": [1, 2],
//   "code_version": "0.1.0 (62337b3-dirty)",
//   "points": [{"point": "0000", "dir": "points/0000", "seed": 1,
//               "params": {"runs.hermes.alpha": "-1.6", ...}}, ...]
// }
#pragma once

#include <string>
#include <vector>

#include "sim/sweep/grid.h"
#include "sim/sweep/points.h"

namespace hermes::sweep {

struct SweepDefinition {
  std::string scenario_path;
  Json scenario;  // Scenario::document of the base scenario
  std::vector<GridAxis> grid;
  std::vector<std::uint64_t> seeds;
  std::vector<SweepPoint> points;
};

Json make_manifest(const SweepDefinition& sweep, const std::string& code_version);

// What makes `current` a different sweep from `recorded`: one line each for the scenario (with
// the JSON pointers that differ), the grid and the seeds. Empty if `current` resumes `recorded`.
std::vector<std::string> manifest_differences(const Json& recorded, const Json& current);

}  // namespace hermes::sweep
