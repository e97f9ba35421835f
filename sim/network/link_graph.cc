#include "sim/network/link_graph.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_map>

#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <boost/property_map/function_property_map.hpp>

namespace hermes::network {
namespace {

using Edge = boost::graph_traits<LinkGraph>::edge_descriptor;

// Bandwidth of a spec link in bytes/s, or nullopt if it has none usable. Without an explicit value
// a host end gives its NIC speed (the slower NIC for a host-host cable); switch-switch has none.
std::optional<double> link_bandwidth(const LinkSpec& l, std::optional<VertexIndex> a,
                                     std::optional<VertexIndex> b,
                                     const std::vector<HostSpec>& hosts) {
  double mbps = 0;
  if (l.bandwidth_mbps) {
    mbps = *l.bandwidth_mbps;
  } else {
    const bool a_host = *a < hosts.size();
    const bool b_host = *b < hosts.size();
    if (a_host && b_host) {
      mbps = std::min(hosts[*a].nic_mbps, hosts[*b].nic_mbps);
    } else if (a_host) {
      mbps = hosts[*a].nic_mbps;
    } else if (b_host) {
      mbps = hosts[*b].nic_mbps;
    } else {
      return std::nullopt;
    }
  }
  if (!std::isfinite(mbps) || mbps <= 0) return std::nullopt;
  return mbps_to_bytes_per_second(mbps);
}

void add_cable(BuiltGraph& g, LinkGraph& graph, VertexIndex a, VertexIndex b, double bandwidth,
               engine::SimTime latency) {
  for (const auto& [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
    const auto id = static_cast<LinkId>(g.links.size());
    g.links.push_back(DirectedLink{from, to, bandwidth, latency});
    boost::add_edge(from, to, EdgeProps{id}, graph);
  }
}

// Only switches forward: a route may leave a host only if that host is where it starts.
struct ForwardingFilter {
  const BuiltGraph* g = nullptr;
  VertexIndex origin = 0;
  bool operator()(const Edge& e) const {
    const auto from = static_cast<VertexIndex>(boost::source(e, *g->graph));
    return from >= g->host_count || from == origin;
  }
};

struct AddCost {
  PathCost operator()(const PathCost& a, const PathCost& b) const {
    return PathCost{a.hops + b.hops, a.latency + b.latency};
  }
};
struct Cheaper {
  bool operator()(const PathCost& a, const PathCost& b) const {
    return a.hops != b.hops ? a.hops < b.hops : a.latency < b.latency;
  }
};

}  // namespace

BuiltGraph build_link_graph(const NetworkSpec& spec, const std::vector<HostSpec>& hosts) {
  BuiltGraph g;
  g.host_count = hosts.size();
  for (const auto& h : hosts) g.vertex_names.push_back(h.name);
  if (spec.topology == "star") {
    g.vertex_names.push_back("switch0");
  } else {
    for (const auto& s : spec.switches) g.vertex_names.push_back(s);
  }
  auto graph = std::make_shared<LinkGraph>();
  for (std::size_t v = 0; v < g.vertex_names.size(); ++v) boost::add_vertex(*graph);
  g.graph = graph;

  if (spec.topology == "star") {
    const auto sw = static_cast<VertexIndex>(hosts.size());
    for (VertexIndex h = 0; h < hosts.size(); ++h) {
      const double mbps = hosts[h].nic_mbps;
      if (!std::isfinite(mbps) || mbps <= 0) continue;
      add_cable(g, *graph, h, sw, mbps_to_bytes_per_second(mbps), spec.star_latency);
    }
    return g;
  }

  std::unordered_map<std::string, VertexIndex> index;
  for (VertexIndex v = 0; v < g.vertex_names.size(); ++v) index.emplace(g.vertex_names[v], v);
  auto find = [&](const std::string& name) -> std::optional<VertexIndex> {
    const auto it = index.find(name);
    if (it == index.end()) return std::nullopt;
    return it->second;
  };
  for (const auto& l : spec.links) {
    const auto a = find(l.a);
    const auto b = find(l.b);
    if (!a || !b || *a == *b || l.latency < engine::SimTime{}) continue;
    const auto bw = link_bandwidth(l, a, b, hosts);
    if (!bw) continue;
    add_cable(g, *graph, *a, *b, *bw, l.latency);
  }
  return g;
}

ShortestRoutes shortest_routes(const BuiltGraph& g, VertexIndex origin) {
  const std::size_t n = g.vertex_names.size();
  const PathCost inf{std::numeric_limits<std::int64_t>::max(), engine::kTimeInfinity};
  ShortestRoutes r;
  r.cost.assign(n, inf);
  r.pred_link.assign(n, kNoLink);

  const ForwardingFilter filter{&g, origin};
  const boost::filtered_graph<LinkGraph, ForwardingFilter> fg(*g.graph, filter);
  auto weight = boost::make_function_property_map<Edge>([&g](const Edge& e) {
    return PathCost{1, g.links[(*g.graph)[e].id].latency};
  });
  // Boost only combines the cost of settled (finite) vertices, so AddCost never sees inf.
  boost::dijkstra_shortest_paths(fg, origin,
                                 boost::weight_map(weight)
                                     .distance_map(boost::make_iterator_property_map(
                                         r.cost.begin(), boost::get(boost::vertex_index, *g.graph)))
                                     .distance_compare(Cheaper{})
                                     .distance_combine(AddCost{})
                                     .distance_inf(inf)
                                     .distance_zero(PathCost{}));

  // Dijkstra's own predecessor on ties depends on its heap; pick the canonical one instead.
  for (LinkId id = 0; id < g.links.size(); ++id) {
    const DirectedLink& l = g.links[id];
    if (!(l.from >= g.host_count || l.from == origin)) continue;
    if (!r.cost[l.from].finite() || l.to == origin) continue;
    if (!(AddCost{}(r.cost[l.from], PathCost{1, l.latency}) == r.cost[l.to])) continue;
    const LinkId cur = r.pred_link[l.to];
    if (cur == kNoLink || l.from < g.links[cur].from) r.pred_link[l.to] = id;
  }
  return r;
}

}  // namespace hermes::network
