// "link" events: a host's links degraded (a bandwidth factor, an added latency) or lost for an
// interval (scenarios/README.md, "events"). Read by the events reader (event_reader.h), checked
// once the hosts and the network are known, applied by the run's FlowNetwork
// (sim/network/link_faults.h).
#pragma once

#include <string>
#include <vector>

#include "base/diagnostics.h"
#include "sim/network/network_spec.h"
#include "sim/scenario/scenario.h"

namespace hermes::scenario {

// A link fault as declared, with where to report a problem of it.
struct DeclaredLinkFault {
  network::LinkFault fault;
  std::string node_path;  // JSON pointer for a bad node: /events/3/node
  std::string item_path;  // JSON pointer for an overlap, and its name in messages: /events/3
};

// Every fault names an existing host (when the host list is reliable) and no two faults overlap
// on one link: those of one host, and those of two hosts with a cable between them (custom
// networks).
void check_link_faults(const std::vector<DeclaredLinkFault>& faults,
                       const std::vector<NodeSpec>& nodes, const network::NetworkSpec& network,
                       bool hosts_known, Diagnostics& diags);

}  // namespace hermes::scenario
