// ASP's descriptor: no barrier, the PS applies each update on arrival (docs/paper.md, "The
// baselines"). It has no parameter of its own: the baselines' and the server step's.
#include "sim/scenario/protocol_descriptor.h"

namespace hermes::scenario {

ProtocolDescriptor describe_asp() {
  ProtocolDescriptor d{
      .id = Protocol::kAsp,
      .name = "asp",
      .label = "ASP",
      .source =
          "Downpour SGD (Dean et al., NIPS 2012); the parameter server of Li et al. (OSDI "
          "2014)",
      .traits = {
          .paper_baseline = true, .evaluates_by_update_count = true, .applies_on_arrival = true}};
  return d;
}

}  // namespace hermes::scenario
