// The demo's descriptor: workers only time their chunks and pushes, with no training math and no
// synchronisation (sim/protocols/algorithms/demo.h): no data, and no outages (nothing says what a
// departure means).
#include "sim/scenario/protocol_descriptor.h"

namespace hermes::scenario {

ProtocolDescriptor describe_demo() {
  ProtocolDescriptor d{.id = Protocol::kDemo,
                       .name = "demo",
                       .label = "demo",
                       .source = "hermes-sim's own: chunks and pushes timed, no training math",
                       .traits = {.trains = false, .takes_outages = false}};
  using P = ParamType;
  d.params = {
      {.key = "iterations",
       .position = 190,
       .type = P::kInt,
       .fallback = defaults::kDemoIterations,
       .range = Range::at_least(1).up_to(limits::kMaxDemoIterations),
       .help = "iterations per worker: workers only compute their chunks and send updates to the "
               "PS, no training math; for looking at timing",
       .field = run_field<&RunSpec::demo_iterations>()},
  };
  return d;
}

}  // namespace hermes::scenario
