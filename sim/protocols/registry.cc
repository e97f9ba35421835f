#include "sim/protocols/registry.h"

#include <memory>
#include <string>

#include "base/diagnostics.h"
#include "sim/protocols/algorithms/factories.h"

namespace hermes::protocols {

RunResult run_protocol(const scenario::Scenario& scenario, const scenario::RunSpec& run,
                       const data::TrainTestSplit& data, const ProgressFn& progress,
                       parallel::ThreadPool* pool, RunObserver* observer) {
  std::unique_ptr<ProtocolRun> p;
  switch (run.protocol) {
    case scenario::Protocol::kBsp:
      p = make_bsp(scenario, run, data);
      break;
    case scenario::Protocol::kAsp:
      p = make_asp(scenario, run, data);
      break;
    case scenario::Protocol::kSsp:
      p = make_ssp(scenario, run, data);
      break;
    case scenario::Protocol::kEbsp:
      p = make_ebsp(scenario, run, data);
      break;
    case scenario::Protocol::kHermes:
      p = make_hermes(scenario, run, data);
      break;
    default:
      throw InputError(
          "run '" + run.name + "': protocol '" +
          std::string(scenario::protocol_name(run.protocol)) +
          "' is not simulated yet (this version simulates: bsp, asp, ssp, ebsp, hermes, demo)");
  }
  p->set_observer(observer);
  return p->run(progress, pool);
}

}  // namespace hermes::protocols

namespace hermes::protocols {

bool is_simulated(scenario::Protocol protocol) {
  switch (protocol) {
    case scenario::Protocol::kBsp:
    case scenario::Protocol::kAsp:
    case scenario::Protocol::kSsp:
    case scenario::Protocol::kEbsp:
    case scenario::Protocol::kHermes:
      return true;
    default:
      return false;
  }
}

}  // namespace hermes::protocols
