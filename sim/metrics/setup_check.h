// Is a run the paper's setup? The differences between the resolved scenario document a run
// recorded (RUN_DIR/scenario.json) and the paper's scenario, resolved the same way, on everything
// that shapes the experiment: cluster, network, dataset, model, training (stop rule and caps
// included), API accounting, profiles. Names, descriptions, seeds, the runs themselves and output
// settings are not the setup. `compare` warns with these before printing the paper's numbers.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/metrics/comparison.h"

namespace hermes::metrics {

// In document order (nlohmann's JSON Patch diff from the paper to the run: one entry per changed,
// added or removed value; an array that differs in length lists its extra elements).
std::vector<SetupDifference> setup_differences(const nlohmann::ordered_json& run,
                                               const nlohmann::ordered_json& paper);

// "cluster.workers.0.count 2 (paper 4), training.stop.max_iterations 40 (paper 200000)": the
// differences as --set paths, for a warning; at most `limit` of them, then "and N more".
std::string setup_differences_text(const std::vector<SetupDifference>& differences,
                                   std::size_t limit = 6);

}  // namespace hermes::metrics
