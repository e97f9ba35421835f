// What a scenario will cost, checked before any work (issue 12): every simulated duration must
// fit the exact clock, and the memory and time a run needs are estimated and refused above limits
// the user can raise (hermes-sim validate/run/sweep --max-memory GB, --max-hours H). The numbers
// behind the estimates are documented in scenarios/README.md, "Limits".
#pragma once

#include <string>

#include "base/diagnostics.h"
#include "sim/scenario/scenario.h"

namespace hermes::protocols {

// Longest single simulated duration accepted: a worker iteration's compute (at the largest chunk,
// the highest jitter the random streams can draw and, on B-series, the throttled baseline speed), a
// PS job, or a transfer sharing the slowest link with every worker. The clock is exact up to
// 9.2e9 s and a run stops at max_sim_time_s <= 1e9 s, so durations up to 1e9 s never overflow it.
inline constexpr double kMaxDurationSeconds = 1e9;

struct ResourceLimits {
  double max_memory_bytes = 16e9;  // --max-memory 16 (GB)
  double max_hours = 24;           // --max-hours 24
};

struct ResourceEstimate {
  double memory_bytes = 0;      // peak: dataset + the largest run's workers
  double dataset_bytes = 0;     // the dataset in memory (0 for demo-only scenarios)
  double per_worker_bytes = 0;  // model copies and index lists of one worker
  double round_flops = 0;       // math of one iteration of every worker and one PS evaluation
  double hours = 0;             // one core: the largest of a protocol round and a demo run
  std::string memory_text;      // how the memory estimate is made up
  std::string time_text;        // how the time estimate is made up
};

// Estimates memory and time of `sc` (with `trace`: --trace keeps every event in memory).
ResourceEstimate estimate_resources(const scenario::Scenario& sc, bool trace = false);

// Reports into diags (at the JSON path of the node or link, naming the values) every duration
// above kMaxDurationSeconds, and estimates above `limits` (at /cluster/workers or /runs, with the
// estimate and the option that raises the limit).
void check_resources(const scenario::Scenario& sc, const ResourceLimits& limits, bool trace,
                     Diagnostics& diags);

// "2.6 GB of memory (12 workers x 2.6 MB + mnist 0.22 GB); 3.2 TFLOP per round (~0.02 h)": the
// line `validate` prints for a large scenario.
std::string estimate_text(const ResourceEstimate& e);
// Whether the estimate is worth printing (memory above 1 GB or more than a minute).
bool is_large(const ResourceEstimate& e);

}  // namespace hermes::protocols
