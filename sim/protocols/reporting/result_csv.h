// CSV files of protocol runs (columns documented in README.md, "Outputs of a run"):
//   summary.csv  one row per run (the paper's table; read back by `hermes-sim compare`)
//   global.csv   one row per aggregation: the global model's test loss and accuracy over time
//   workers.csv  one row per worker iteration
//   api.csv      one row per run and kind of control call (the paper's API calls, by kind; the
//                total is theirs to sum: summary.csv's api_calls)
//   nodes.csv    one row per run and node: what outages did to it (docs/churn.md)
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sim/metrics/csv_writer.h"
#include "sim/protocols/skeleton/run_result.h"
#include "sim/scenario/scenario.h"

namespace hermes::protocols {

struct FinishedRun {
  const scenario::RunSpec* spec;
  RunResult result;
};

void write_summary_csv(std::ostream& out, const scenario::Scenario& scenario,
                       const std::vector<FinishedRun>& runs);
void write_global_csv(std::ostream& out, const std::vector<FinishedRun>& runs);
void write_workers_csv(std::ostream& out, const scenario::Scenario& scenario,
                       const std::vector<FinishedRun>& runs);
void write_api_csv(std::ostream& out, const std::vector<FinishedRun>& runs);
void write_nodes_csv(std::ostream& out, const scenario::Scenario& scenario,
                     const std::vector<FinishedRun>& runs);

}  // namespace hermes::protocols
