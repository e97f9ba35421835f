// The checks that need every event at once: the node exists, and one node's slowdowns (or
// outages) do not overlap, events and trace rows together. One slowdown at a time per node keeps
// the meaning of a factor plain (no question of whether two overlapping factors multiply or the
// last one wins); one outage at a time keeps "gone" and "back" alternating.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "sim/scenario/event_reader.h"
#include "sim/scenario/sections.h"

namespace hermes::scenario {

namespace {

// Where one declared event reaches in time: [from, to), to = kTimeInfinity for "for good".
struct Reach {
  engine::SimTime from;
  engine::SimTime to;
};

Reach reach_of(const SlowdownSpec& s) { return {s.start, s.end}; }
// An eviction counts from its notice: the node is leaving from then on.
Reach reach_of(const OutageSpec& o) { return {o.warned(), o.end.value_or(engine::kTimeInfinity)}; }

std::string reach_text(const Reach& r) {
  if (r.to != engine::kTimeInfinity) return interval_text(r.from, r.to);
  return "[" + seconds_text(r.from) + ", end) s";
}

template <typename Spec>
void check_nodes_exist(const std::vector<Declared<Spec>>& list, const std::vector<NodeSpec>& nodes,
                       bool ps_accepted, Diagnostics& diags) {
  for (const Declared<Spec>& d : list) {
    const bool exists = std::any_of(nodes.begin(), nodes.end(), [&](const NodeSpec& n) {
      return n.host == d.spec.node && (ps_accepted || !n.is_ps());
    });
    if (!exists) {
      diags.error(d.node_path, d.prefix + "unknown node '" + d.spec.node +
                                   "' (accepted: " + host_list(nodes, ps_accepted) + ")");
    }
  }
}

// Per node, by start (declaration order among equal starts): each item against the one that
// reaches furthest among those before it. `what` names the kind in messages ("slowdown").
template <typename Spec>
void check_no_overlap(const std::vector<Declared<Spec>>& list, const std::string& what,
                      Diagnostics& diags) {
  std::map<std::string, std::vector<const Declared<Spec>*>> by_node;
  for (const Declared<Spec>& d : list) by_node[d.spec.node].push_back(&d);
  for (auto& [node, items] : by_node) {
    std::stable_sort(items.begin(), items.end(), [](const auto* a, const auto* b) {
      return reach_of(a->spec).from < reach_of(b->spec).from;
    });
    const Declared<Spec>* furthest = nullptr;
    for (const Declared<Spec>* d : items) {
      const Reach r = reach_of(d->spec);
      if (furthest != nullptr && reach_of(furthest->spec).to > r.from) {
        diags.error(d->item_path, d->prefix + "the " + what + " of " + node + " " + reach_text(r) +
                                      " overlaps " + furthest->spec.origin + " " +
                                      reach_text(reach_of(furthest->spec)) + " (accepted: one " +
                                      what + " at a time per node)");
      }
      if (furthest == nullptr || r.to > reach_of(furthest->spec).to) furthest = d;
    }
  }
}

}  // namespace

void check_slowdowns(const std::vector<DeclaredSlowdown>& slowdowns,
                     const std::vector<NodeSpec>& nodes, bool hosts_known, Diagnostics& diags) {
  if (hosts_known) check_nodes_exist(slowdowns, nodes, true, diags);
  check_no_overlap(slowdowns, "slowdown", diags);
}

std::vector<OutageSpec> check_outages(const std::vector<DeclaredOutage>& outages,
                                      const std::vector<NodeSpec>& nodes, bool hosts_known,
                                      Diagnostics& diags) {
  // The PS may fail too, but must come back: without it there is no global model to go on with
  // (docs/churn.md, "A PS outage").
  if (hosts_known) check_nodes_exist(outages, nodes, true, diags);
  const auto ps_nodes =
      std::count_if(nodes.begin(), nodes.end(), [](const NodeSpec& n) { return n.is_ps(); });
  for (const DeclaredOutage& d : outages) {
    const auto node = std::find_if(nodes.begin(), nodes.end(),
                                   [&](const NodeSpec& n) { return n.host == d.spec.node; });
    // A sharded PS's failure would need each shard's checkpoint and recovery (docs/sharding.md).
    if (ps_nodes > 1 && node != nodes.end() && node->is_ps()) {
      diags.error(d.item_path, d.prefix + "an outage of " + d.spec.node +
                                   ", a shard of a sharded PS, is not modelled (accepted: outages "
                                   "of workers, or of the PS with cluster.ps.shards 1)");
      continue;
    }
    if (d.spec.node == "ps" && !d.spec.end) {
      diags.error(d.item_path, d.prefix +
                                   "an outage of the PS needs its end (accepted: a PS "
                                   "outage with duration_s; the run cannot go on without "
                                   "its PS)");
    }
  }
  check_no_overlap(outages, "outage", diags);
  std::vector<OutageSpec> sorted;
  for (const DeclaredOutage& d : outages) sorted.push_back(d.spec);
  sort_outages(sorted, nodes);
  return sorted;
}

void sort_outages(std::vector<OutageSpec>& outages, const std::vector<NodeSpec>& nodes) {
  auto host_index = [&](const std::string& host) {
    const auto it =
        std::find_if(nodes.begin(), nodes.end(), [&](const NodeSpec& n) { return n.host == host; });
    return it - nodes.begin();
  };
  std::stable_sort(outages.begin(), outages.end(), [&](const OutageSpec& a, const OutageSpec& b) {
    const auto ha = host_index(a.node), hb = host_index(b.node);
    return ha != hb ? ha < hb : a.start < b.start;
  });
}

}  // namespace hermes::scenario
