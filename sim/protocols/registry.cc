// The runner of each protocol (protocol_descriptor.h gives its name and traits): one row each.
#include "sim/protocols/registry.h"

#include <array>
#include <memory>
#include <stdexcept>
#include <string>

#include "sim/protocols/algorithms/demo.h"
#include "sim/protocols/algorithms/factories.h"
#include "sim/scenario/protocol_descriptor.h"

namespace hermes::protocols {

namespace {

using Factory = std::unique_ptr<ProtocolRun> (*)(const scenario::Scenario&,
                                                 const scenario::RunSpec&,
                                                 const data::TrainTestSplit&);
using Runner = RunResult (*)(const scenario::Scenario&, const scenario::RunSpec&,
                             const data::TrainTestSplit&, const ProgressFn&, parallel::ThreadPool*,
                             RunObserver*);

// A ProtocolRun subclass's factory as a runner.
template <Factory make>
RunResult run_with(const scenario::Scenario& scenario, const scenario::RunSpec& run,
                   const data::TrainTestSplit& data, const ProgressFn& progress,
                   parallel::ThreadPool* pool, RunObserver* observer) {
  std::unique_ptr<ProtocolRun> p = make(scenario, run, data);
  p->set_observer(observer);
  return p->run(progress, pool);
}

// The demo computes no math: no data, progress or pool.
RunResult demo_runner(const scenario::Scenario& scenario, const scenario::RunSpec& run,
                      const data::TrainTestSplit& /*data*/, const ProgressFn& /*progress*/,
                      parallel::ThreadPool* /*pool*/, RunObserver* observer) {
  return run_demo(scenario, run, observer);
}

struct Registered {
  scenario::Protocol protocol;
  Runner run;
};

constexpr std::array<Registered, 6> kRunners = {{
    {scenario::Protocol::kBsp, &run_with<make_bsp>},
    {scenario::Protocol::kAsp, &run_with<make_asp>},
    {scenario::Protocol::kSsp, &run_with<make_ssp>},
    {scenario::Protocol::kEbsp, &run_with<make_ebsp>},
    {scenario::Protocol::kHermes, &run_with<make_hermes>},
    {scenario::Protocol::kDemo, &demo_runner},
}};

}  // namespace

bool has_runner(scenario::Protocol protocol) {
  for (const Registered& r : kRunners) {
    if (r.protocol == protocol) return true;
  }
  return false;
}

RunResult run_protocol(const scenario::Scenario& scenario, const scenario::RunSpec& run,
                       const data::TrainTestSplit& data, const ProgressFn& progress,
                       parallel::ThreadPool* pool, RunObserver* observer) {
  for (const Registered& r : kRunners) {
    if (r.protocol == run.protocol) return r.run(scenario, run, data, progress, pool, observer);
  }
  throw std::logic_error("run_protocol: protocol " +
                         std::string(scenario::protocol_name(run.protocol)) +
                         " has no runner in sim/protocols/registry.cc");
}

}  // namespace hermes::protocols
