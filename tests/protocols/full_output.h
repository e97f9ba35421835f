// Every CSV a protocol run writes (summary, global, workers), for a scenario given as JSON text
// and run on the synthetic blocks data: what the frozen regression and the thread-count
// determinism tests compare byte for byte.
#pragma once

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "sim/parallel/thread_pool.h"
#include "sim/protocols/registry.h"
#include "sim/protocols/reporting/result_csv.h"
#include "tests/support/synthetic_blocks.h"

namespace hermes::protocols::testing {

inline scenario::Scenario scenario_from_text(const std::string& text,
                                             const std::vector<std::string>& sets = {}) {
  Diagnostics diags("test scenario");
  auto sc = scenario::check_scenario_text(text, sets, HERMES_SOURCE_DIR, diags);
  EXPECT_TRUE(diags.ok()) << diags.format();
  return sc ? *sc : scenario::Scenario{};
}

// The math runs on `pool` (null: inline).
inline std::string full_output(const scenario::Scenario& sc, parallel::ThreadPool* pool = nullptr) {
  const auto data = blocks_split();
  std::vector<FinishedRun> runs;
  for (const auto& r : sc.runs) runs.push_back({&r, run_protocol(sc, r, data, {}, pool)});
  std::ostringstream os;
  os << "== summary.csv\n";
  write_summary_csv(os, sc, runs);
  os << "== global.csv\n";
  write_global_csv(os, runs);
  os << "== workers.csv\n";
  write_workers_csv(os, sc, runs);
  os << "== api.csv\n";
  write_api_csv(os, runs);
  os << "== nodes.csv\n";
  write_nodes_csv(os, sc, runs);
  return os.str();
}

// The CSVs of one run's result, written as if it were run `spec` (so that two runs of different
// protocols compare: global.csv, workers.csv, api.csv), and its simulated time and bytes: what
// the tests that pin one protocol's rule to another's compare byte for byte.
inline std::string run_outputs(const scenario::Scenario& sc, const scenario::RunSpec& spec,
                               const RunResult& r) {
  std::vector<FinishedRun> runs{{&spec, r}};
  std::ostringstream os;
  write_global_csv(os, runs);
  write_workers_csv(os, sc, runs);
  write_api_csv(os, runs);
  os << std::hexfloat << engine::to_seconds(r.sim_time) << " " << r.bytes << "\n";
  return os.str();
}

}  // namespace hermes::protocols::testing
