// The checks that need every slowdown at once: the node exists, and one node's slowdowns do not
// overlap (events and trace rows together). One slowdown at a time per node keeps the meaning of
// a factor plain (no question of whether two overlapping factors multiply or the last one wins).
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "sim/scenario/event_rules.h"
#include "sim/scenario/sections.h"

namespace hermes::scenario {

void check_slowdowns(const std::vector<DeclaredSlowdown>& slowdowns,
                     const std::vector<NodeSpec>& nodes, bool hosts_known, Diagnostics& diags) {
  if (hosts_known) {
    for (const DeclaredSlowdown& d : slowdowns) {
      const bool exists = std::any_of(nodes.begin(), nodes.end(),
                                      [&](const NodeSpec& n) { return n.host == d.spec.node; });
      if (!exists) {
        diags.error(d.node_path, d.prefix + "unknown node '" + d.spec.node +
                                     "' (accepted: " + host_list(nodes) + ")");
      }
    }
  }
  // Per node, by start (declaration order among equal starts): each slowdown against the one
  // that reaches furthest among those before it.
  std::map<std::string, std::vector<const DeclaredSlowdown*>> by_node;
  for (const DeclaredSlowdown& d : slowdowns) by_node[d.spec.node].push_back(&d);
  for (auto& [node, list] : by_node) {
    std::stable_sort(list.begin(), list.end(),
                     [](const auto* a, const auto* b) { return a->spec.start < b->spec.start; });
    const DeclaredSlowdown* reach = nullptr;
    for (const DeclaredSlowdown* d : list) {
      if (reach != nullptr && reach->spec.end > d->spec.start) {
        diags.error(d->item_path, d->prefix + "the slowdown of " + node + " " +
                                      interval_text(d->spec.start, d->spec.end) + " overlaps " +
                                      reach->spec.origin + " " +
                                      interval_text(reach->spec.start, reach->spec.end) +
                                      " (accepted: one slowdown at a time per node)");
      }
      if (reach == nullptr || d->spec.end > reach->spec.end) reach = d;
    }
  }
}

}  // namespace hermes::scenario
