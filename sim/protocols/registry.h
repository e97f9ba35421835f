// The one entry point of the protocol runs: maps a run's protocol to the factory of its
// subclass (sim/protocols/algorithms/), so the skeleton (sim/protocols/skeleton/) knows none of
// them.
#pragma once

#include "sim/protocols/skeleton/protocol_run.h"

namespace hermes::protocols {

// Whether this version simulates `protocol` (all but the demo workload, which has its own runner).
bool is_simulated(scenario::Protocol protocol);

// Runs one run of a scenario (any protocol but demo) on the given data, its math on `pool` (null:
// on this thread); `observer` (optional) receives its timeline.
RunResult run_protocol(const scenario::Scenario& scenario, const scenario::RunSpec& run,
                       const data::TrainTestSplit& data, const ProgressFn& progress = {},
                       parallel::ThreadPool* pool = nullptr, RunObserver* observer = nullptr);

}  // namespace hermes::protocols
