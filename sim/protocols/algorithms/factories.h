// The runners of the protocols, one per line of sim/scenario/protocols.def: run_<name>() runs one
// run of the scenario to its end. Each is defined in its algorithm's file; registry.cc finds them
// through the same list. The factories of the ProtocolRun subclasses that tests build directly
// are declared here too.
#pragma once

#include <memory>

#include "sim/protocols/skeleton/protocol_run.h"

namespace hermes::protocols {

// Runs `run` of `scenario` on `data` (unused by protocols that do not train), its math on `pool`
// (null: on this thread); `observer` (optional) receives its timeline.
#define HERMES_PROTOCOL(id, name)                                                        \
  RunResult run_##name(const scenario::Scenario& scenario, const scenario::RunSpec& run, \
                       const data::TrainTestSplit& data, const ProgressFn& progress,     \
                       parallel::ThreadPool* pool, RunObserver* observer);
#include "sim/scenario/protocols.def"
#undef HERMES_PROTOCOL

// A ProtocolRun run to its end: what a runner of a ProtocolRun subclass does with its instance.
inline RunResult run_to_end(std::unique_ptr<ProtocolRun> run, const ProgressFn& progress,
                            parallel::ThreadPool* pool, RunObserver* observer) {
  run->set_observer(observer);
  return run->run(progress, pool);
}

std::unique_ptr<ProtocolRun> make_ebsp(const scenario::Scenario&, const scenario::RunSpec&,
                                       const data::TrainTestSplit&);

}  // namespace hermes::protocols
