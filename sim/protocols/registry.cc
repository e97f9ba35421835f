// The runner of each protocol, gathered from sim/scenario/protocols.def: a new protocol's line
// there registers its runner here too.
#include "sim/protocols/registry.h"

#include <array>
#include <stdexcept>
#include <string>

#include "sim/protocols/algorithms/factories.h"
#include "sim/protocols/reporting/api_counting.h"
#include "sim/scenario/protocol_descriptor.h"

namespace hermes::protocols {

namespace {

using Runner = RunResult (*)(const scenario::Scenario&, const scenario::RunSpec&,
                             const data::TrainTestSplit&, const ProgressFn&, parallel::ThreadPool*,
                             RunObserver*);

struct Registered {
  scenario::Protocol protocol;
  Runner run;
};

// In protocols.def's order, which is the enum's.
constexpr Registered kRunners[] = {
#define HERMES_PROTOCOL(id, name) {scenario::Protocol::k##id, &run_##name},
#include "sim/scenario/protocols.def"
#undef HERMES_PROTOCOL
};

}  // namespace

bool has_runner(scenario::Protocol protocol) {
  const auto i = static_cast<std::size_t>(protocol);
  return i < std::size(kRunners) && kRunners[i].protocol == protocol;
}

RunResult run_protocol(const scenario::Scenario& scenario, const scenario::RunSpec& run,
                       const data::TrainTestSplit& data, const ProgressFn& progress,
                       parallel::ThreadPool* pool, RunObserver* observer) {
  if (!has_runner(run.protocol)) {
    throw std::logic_error("run_protocol: protocol " +
                           std::string(scenario::protocol_name(run.protocol)) + " has no runner");
  }
  RunResult result = kRunners[static_cast<std::size_t>(run.protocol)].run(scenario, run, data,
                                                                          progress, pool, observer);
  // The API calls from the run's records, once it is over (the demo makes none it counts).
  if (scenario::trains(run.protocol)) result.api = count_api_calls(scenario.api, result);
  return result;
}

}  // namespace hermes::protocols
