// The one entry point of the protocol runs: maps a run's protocol (its descriptor:
// sim/scenario/protocol_descriptor.h) to its runner (the factories of the ProtocolRun subclasses
// and the demo, sim/protocols/algorithms/), so the skeleton (sim/protocols/skeleton/) knows none
// of them.
#pragma once

#include "sim/protocols/skeleton/protocol_run.h"

namespace hermes::protocols {

// Runs one run of a scenario on the given data (unused by demo runs, which compute no math), its
// math on `pool` (null: on this thread); `observer` (optional) receives its timeline.
// Whether `protocol` has a runner (every descriptor must: tests/protocols/registry_test.cc).
bool has_runner(scenario::Protocol protocol);

RunResult run_protocol(const scenario::Scenario& scenario, const scenario::RunSpec& run,
                       const data::TrainTestSplit& data, const ProgressFn& progress = {},
                       parallel::ThreadPool* pool = nullptr, RunObserver* observer = nullptr);

}  // namespace hermes::protocols
