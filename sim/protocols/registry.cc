#include "sim/protocols/registry.h"

#include <memory>

#include "sim/protocols/algorithms/demo.h"
#include "sim/protocols/algorithms/factories.h"
#include "sim/protocols/reporting/api_counting.h"

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
    case scenario::Protocol::kDemo:
      return run_demo(scenario, run, observer);  // no math: no data, progress or pool
  }
  p->set_observer(observer);
  RunResult result = p->run(progress, pool);
  result.api = count_api_calls(scenario.api, result);  // from the run's records, once it is over
  return result;
}

}  // namespace hermes::protocols
