// The demo protocol: no training math and no synchronisation. Every worker repeats `iterations`
// times: receive a chunk from the PS, compute the iteration's FLOPs on its node, send its update
// to the PS, receive the model back. It exercises the compute model, burst credits and the flow
// network together, so the timeline of a heterogeneous cluster can be inspected before the real
// protocols exist (and it stays as a cheap smoke scenario).
//
// It reports like every protocol run: a RunResult (its per-worker activity, local_iterations,
// sim_time, bytes, events) and its spans to a RunObserver (chunk, compute, update and model
// spans with the iteration and, for transfers, the bytes; the credits after each compute).
// run_protocol() (sim/protocols/registry.h) dispatches to its runner (factories.h).
#pragma once

#include "sim/protocols/skeleton/run_observer.h"
#include "sim/protocols/skeleton/run_result.h"
#include "sim/scenario/scenario.h"

namespace hermes::protocols {

// Runs a demo run until every worker did its iterations; `observer` (optional) receives its
// timeline.
RunResult run_demo(const scenario::Scenario& scenario, const scenario::RunSpec& run,
                   RunObserver* observer = nullptr);

}  // namespace hermes::protocols
