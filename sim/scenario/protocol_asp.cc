// ASP's descriptor: no barrier, the PS applies each update on arrival (docs/paper.md, "The
// baselines"). Its own parameters are the staleness-aware weighting and FedBuff's buffer
// (docs/staleness.md), shared with SSP; the baselines' and the server step's come with its traits.
#include "sim/scenario/protocol_descriptor.h"
#include "sim/scenario/staleness_params.h"

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
  d.params = staleness_params();
  return d;
}

}  // namespace hermes::scenario
