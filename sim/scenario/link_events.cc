#include "sim/scenario/link_events.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "sim/scenario/event_rules.h"

namespace hermes::scenario {

namespace {

using config::Range;

// An added latency is a delay of the flows that start during a fault, not a second fault
// length: 1e9 ms (11.6 days) is far beyond any network and far inside SimTime.
constexpr double kMaxAddedLatencyMs = 1e9;

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

void read_link_fault(config::ObjectReader& r, std::vector<DeclaredLinkFault>& found) {
  const auto node = r.string("node", std::nullopt);
  const auto at = r.number("at_s", std::nullopt, Range::at_least(0).up_to(kMaxEventSeconds));
  const auto duration =
      r.number("duration_s", std::nullopt, Range::above(0).up_to(kMaxEventSeconds));
  const auto factor = r.number("bandwidth_factor", 1.0, Range::at_least(0).up_to(1));
  const auto latency_ms =
      r.number("added_latency_ms", 0.0, Range::at_least(0).up_to(kMaxAddedLatencyMs));
  if (!node || !at || !duration || !factor || !latency_ms) return;
  DeclaredLinkFault d;
  d.fault.host = *node;
  d.fault.start = engine::from_seconds(*at);
  d.fault.end = engine::from_seconds(*at + *duration);
  d.fault.bandwidth_factor = *factor;
  // Through microseconds: ms x 1e3 is exact for every whole or decimal-fraction ms count.
  d.fault.added_latency = engine::from_microseconds(*latency_ms * 1e3);
  d.node_path = r.path_of("node");
  d.item_path = r.path();
  if (const auto why = below_resolution(d.fault.start, d.fault.end, duration)) {
    r.error("duration_s", *why);
    return;
  }
  if (d.fault.bandwidth_factor == 1 && d.fault.added_latency == engine::SimTime{}) {
    r.diags().error(r.path(),
                    "a link event that changes nothing: bandwidth_factor 1 and added_latency_ms " +
                        format_number(*latency_ms) +
                        " (accepted: bandwidth_factor below 1, or added_latency_ms of at least "
                        "0.000001, 1 ns)");
    return;
  }
  found.push_back(std::move(d));
}

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
