// A built network: the Boost.Graph of hosts, switches and directed links, plus cached routes.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sim/engine/sim_time.h"
#include "sim/network/link_graph.h"
#include "sim/network/network_spec.h"

namespace hermes::network {

struct Route {
  std::vector<LinkId> links;  // directed links from source to destination; empty if src == dst
  engine::SimTime latency{};  // sum of the links' latencies
  double bottleneck = 0;      // min link bandwidth on the route, bytes/s; +inf if src == dst
};

class Topology {
 public:
  // Validates with check_network_spec (throws InputError listing every problem) and builds the
  // graph. hosts[0] is the PS; host i is vertex i.
  static Topology build(const NetworkSpec& spec, const std::vector<HostSpec>& hosts,
                        const std::string& base_path = "/network",
                        const std::string& cluster_path = "/cluster");

  std::size_t host_count() const { return g_.host_count; }
  std::size_t switch_count() const { return g_.vertex_names.size() - g_.host_count; }
  std::size_t link_count() const { return g_.links.size(); }  // directed links
  const DirectedLink& link(LinkId id) const { return g_.links.at(id); }
  const std::string& vertex_name(VertexIndex v) const { return g_.vertex_names.at(v); }
  const std::string& host_name(HostIndex h) const;
  std::optional<HostIndex> find_host(std::string_view name) const;
  // "w0->switch0", for messages and debugging.
  std::string link_name(LinkId id) const;
  const BuiltGraph& graph() const { return g_; }

  // The route from src to dst: fewest hops, then lowest total latency, then (walking from the
  // higher-index host towards the lower-index one) the predecessor with the lowest vertex index,
  // then the lowest LinkId. Only switches forward. Both directions use the same cables (a pull
  // retraces its push), and one Dijkstra from the lower-index host serves all its pairs: every
  // worker<->PS route comes from the PS's tree. Cached per pair; the returned reference stays
  // valid for the Topology's lifetime (also across moves). Not thread-safe.
  // Throws std::out_of_range for a bad index, std::logic_error if dst is unreachable from src.
  const Route& route(HostIndex src, HostIndex dst) const;
  bool reachable(HostIndex src, HostIndex dst) const;

 private:
  explicit Topology(BuiltGraph g);
  const ShortestRoutes& routes_from(HostIndex src) const;

  BuiltGraph g_;
  mutable std::vector<std::optional<ShortestRoutes>> trees_;  // per origin host, lazily
  mutable std::unordered_map<std::uint64_t, Route> routes_;   // key src << 32 | dst
};

}  // namespace hermes::network
