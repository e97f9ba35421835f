// The network as a Boost.Graph: hosts and switches are vertices, every full-duplex link becomes two
// directed edges because each direction has the link's full bandwidth and is shared only by the
// flows going that way. Shared by the validator (reachability) and Topology (routing).
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include "sim/engine/sim_time.h"
#include "sim/network/network_spec.h"

namespace hermes::network {

using HostIndex = std::uint32_t;    // index into the host list; hosts[0] is the PS
using VertexIndex = std::uint32_t;  // hosts first (same index as HostIndex), then switches
using LinkId = std::uint32_t;       // one direction of a link; 2k and 2k+1 are the two directions

inline constexpr LinkId kNoLink = std::numeric_limits<LinkId>::max();

struct DirectedLink {
  VertexIndex from = 0;
  VertexIndex to = 0;
  double bandwidth = 0;  // bytes/s
  engine::SimTime latency{};
};

struct EdgeProps {
  LinkId id = kNoLink;
};
using LinkGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS,
                                        boost::no_property, EdgeProps>;

struct BuiltGraph {
  // Shared and immutable once built: Boost 1.74's adjacency_list has no move constructor, so a
  // by-value member would be deep-copied every time a Topology moves.
  std::shared_ptr<const LinkGraph> graph;
  std::vector<std::string> vertex_names;  // size = vertex count
  std::size_t host_count = 0;
  std::vector<DirectedLink> links;  // indexed by LinkId
};

// Builds the vertices and every usable link of a star or custom spec (an unknown topology is
// treated as custom). Unusable links (an endpoint naming nothing, a self loop, no or non-positive
// bandwidth) are skipped: check_network_spec reports them, this only builds what can be built.
// Duplicate names resolve to their first occurrence (hosts before switches).
BuiltGraph build_link_graph(const NetworkSpec& spec, const std::vector<HostSpec>& hosts);

// Cost of a route: fewest hops first, then lowest summed latency.
struct PathCost {
  std::int64_t hops = 0;
  engine::SimTime latency{};
  friend bool operator==(const PathCost&, const PathCost&) = default;
  bool finite() const { return hops != std::numeric_limits<std::int64_t>::max(); }
};

// One-to-all shortest routes from `origin` (Boost dijkstra on PathCost), where only switches and
// the origin itself forward traffic. pred_link[v] is the last link of the canonical route to v:
// among equally cheap predecessors the one with the lowest vertex index, then lowest LinkId, so
// routes never depend on heap internals. kNoLink for the origin and for unreachable vertices.
struct ShortestRoutes {
  std::vector<PathCost> cost;
  std::vector<LinkId> pred_link;
};
ShortestRoutes shortest_routes(const BuiltGraph& g, VertexIndex origin);

}  // namespace hermes::network
