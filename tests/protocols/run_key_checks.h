// What the tests of a run key look at besides the runs: the header of a summary of a scenario's
// runs (which columns a key adds, and where) and the errors of a run object (its key named with
// what is accepted). Shared by the staleness and compression tests.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "base/diagnostics.h"
#include "sim/protocols/reporting/result_csv.h"
#include "sim/scenario/scenario.h"

namespace hermes::protocols::testing {

// summary.csv's header for `sc`'s runs (their results left empty: the columns depend on the runs'
// parameters only).
inline std::string summary_header(const scenario::Scenario& sc) {
  std::vector<FinishedRun> runs;
  for (const auto& spec : sc.runs) runs.push_back(FinishedRun{&spec, RunResult{}});
  std::ostringstream out;
  const scenario::Scenario no_nodes;  // no costs to compute for these empty results
  write_summary_csv(out, no_nodes, runs);
  return out.str().substr(0, out.str().find('\n'));
}

// The errors of a scenario of one worker and the run object `run` ("" when it is valid).
inline std::string run_errors(const std::string& run) {
  const std::string text = R"({"name": "bad", "cluster": {"ps": {"profile": "DS3_v2"},
    "workers": [{"profile": "DS2_v2"}]}, "runs": [)" +
                           run + "]}";
  Diagnostics diags("bad");
  (void)scenario::check_scenario_text(text, {}, HERMES_SOURCE_DIR, diags);
  return diags.format();
}

}  // namespace hermes::protocols::testing
