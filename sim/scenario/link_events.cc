#include "sim/scenario/link_events.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "sim/scenario/event_reader.h"

namespace hermes::scenario {

namespace {

// The links a fault of `host` covers, by a name for messages: its star link, or every link of a
// custom network with the host at one end (the same links FlowNetwork resolves it to).
std::vector<std::string> links_of(const std::string& host, const network::NetworkSpec& network) {
  if (network.topology == "star") return {host + "-switch0"};
  std::vector<std::string> names;
  for (std::size_t i = 0; i < network.links.size(); ++i) {
    const network::LinkSpec& l = network.links[i];
    if (l.a == host || l.b == host) {
      names.push_back(l.a + "-" + l.b + " (/network/links/" + std::to_string(i) + ")");
    }
  }
  return names;
}

std::string fault_text(const network::LinkFault& f) {
  return f.host + " " + interval_text(f.start, f.end);
}

}  // namespace

void check_link_faults(const std::vector<DeclaredLinkFault>& faults,
                       const std::vector<NodeSpec>& nodes, const network::NetworkSpec& network,
                       bool hosts_known, Diagnostics& diags) {
  std::map<std::string, std::vector<const DeclaredLinkFault*>> by_link;
  for (const DeclaredLinkFault& d : faults) {
    const bool exists = std::any_of(nodes.begin(), nodes.end(),
                                    [&](const NodeSpec& n) { return n.host == d.fault.host; });
    if (!exists) {
      if (hosts_known) {
        diags.error(d.node_path,
                    "unknown node '" + d.fault.host + "' (accepted: " + host_list(nodes) + ")");
      }
      continue;
    }
    for (const std::string& link : links_of(d.fault.host, network)) by_link[link].push_back(&d);
  }
  // Per link, by start (declaration order among equal starts): each fault against the one that
  // reaches furthest among those before it; a pair sharing several links is reported once.
  std::set<std::pair<const DeclaredLinkFault*, const DeclaredLinkFault*>> reported;
  for (auto& [link, list] : by_link) {
    std::stable_sort(list.begin(), list.end(),
                     [](const auto* a, const auto* b) { return a->fault.start < b->fault.start; });
    const DeclaredLinkFault* reach = nullptr;
    for (const DeclaredLinkFault* d : list) {
      if (reach != nullptr && reach->fault.end > d->fault.start &&
          reported.emplace(d, reach).second) {
        diags.error(d->item_path, "the link fault of " + fault_text(d->fault) + " overlaps " +
                                      reach->item_path + " (" + fault_text(reach->fault) +
                                      ") on link " + link +
                                      " (accepted: one fault at a time per link)");
      }
      if (reach == nullptr || d->fault.end > reach->fault.end) reach = d;
    }
  }
}

}  // namespace hermes::scenario
