#include "sim/network/topology.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace hermes::network {

Topology Topology::build(const NetworkSpec& spec, const std::vector<HostSpec>& hosts,
                         const std::string& base_path, const std::string& cluster_path) {
  Diagnostics diags;
  check_network_spec(spec, hosts, base_path, diags, cluster_path);
  diags.throw_if_errors();
  return Topology(build_link_graph(spec, hosts));
}

Topology::Topology(BuiltGraph g) : g_(std::move(g)), trees_(g_.host_count) {}

const std::string& Topology::host_name(HostIndex h) const {
  if (h >= g_.host_count) throw std::out_of_range("host index " + std::to_string(h));
  return g_.vertex_names[h];
}

std::optional<HostIndex> Topology::find_host(std::string_view name) const {
  for (HostIndex h = 0; h < g_.host_count; ++h) {
    if (g_.vertex_names[h] == name) return h;
  }
  return std::nullopt;
}

std::string Topology::link_name(LinkId id) const {
  const DirectedLink& l = link(id);
  return g_.vertex_names[l.from] + "->" + g_.vertex_names[l.to];
}

const ShortestRoutes& Topology::routes_from(HostIndex src) const {
  auto& tree = trees_[src];
  if (!tree) tree = shortest_routes(g_, src);
  return *tree;
}

bool Topology::reachable(HostIndex src, HostIndex dst) const {
  if (src >= g_.host_count || dst >= g_.host_count) {
    throw std::out_of_range("route between host " + std::to_string(src) + " and " +
                            std::to_string(dst) + " of " + std::to_string(g_.host_count));
  }
  return routes_from(std::min(src, dst)).cost[std::max(src, dst)].finite();
}

const Route& Topology::route(HostIndex src, HostIndex dst) const {
  const std::uint64_t key = (std::uint64_t{src} << 32) | dst;
  if (const auto it = routes_.find(key); it != routes_.end()) return it->second;
  if (!reachable(src, dst)) {
    throw std::logic_error("no route from " + g_.vertex_names[src] + " to " + g_.vertex_names[dst] +
                           " (hosts do not forward traffic)");
  }
  // Walk the lower-index host's tree back from the other host. The walk yields the tree's links
  // (pointing away from the origin) last-to-first: a flow leaving the origin takes them in
  // reverse order, a flow towards the origin takes each link's opposite direction (id ^ 1).
  const HostIndex origin = std::min(src, dst);
  const HostIndex far = std::max(src, dst);
  const bool from_origin = src < dst;
  const ShortestRoutes& tree = routes_from(origin);
  Route r;
  r.bottleneck = std::numeric_limits<double>::infinity();
  for (VertexIndex v = far; v != origin;) {
    const LinkId id = tree.pred_link[v];
    const DirectedLink& l = g_.links[id];
    r.links.push_back(from_origin ? id : id ^ 1u);
    r.latency += l.latency;
    r.bottleneck = std::min(r.bottleneck, l.bandwidth);
    v = l.from;
  }
  if (from_origin) std::reverse(r.links.begin(), r.links.end());
  return routes_.emplace(key, std::move(r)).first->second;
}

}  // namespace hermes::network
