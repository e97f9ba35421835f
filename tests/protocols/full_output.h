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

}  // namespace hermes::protocols::testing
