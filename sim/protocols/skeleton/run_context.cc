#include "sim/protocols/skeleton/run_context.h"

#include <vector>

#include "base/random.h"

namespace hermes::protocols {

namespace {

// Node `host`'s slowdowns from the scenario (checked by the loader: known hosts, no overlaps).
cluster::SpeedSchedule speed_of(const scenario::Scenario& sc, const std::string& host) {
  std::vector<cluster::SpeedInterval> intervals;
  for (const auto& s : sc.slowdowns) {
    if (s.node == host) intervals.push_back({s.start, s.end, s.speed_factor});
  }
  return cluster::SpeedSchedule(std::move(intervals));
}

}  // namespace

RunContext::RunContext(const scenario::Scenario& sc, const scenario::RunSpec& r)
    : scenario(sc), run(r) {
  // Every run of a scenario draws from the same streams (common random numbers): node k's jitter
  // sequence, the initial model and each worker's chunks are the same whatever the protocol, so
  // differences between runs come from the protocols, not from luck.
  const std::uint64_t seed = sc.seed;
  nodes.reserve(sc.nodes.size());
  for (std::size_t i = 0; i < sc.nodes.size(); ++i) {
    nodes.emplace_back(sim, sc.nodes[i].profile, RandomStream::named(seed, "compute-jitter", i),
                       speed_of(sc, sc.nodes[i].host));
  }
  network = std::make_unique<network::FlowNetwork>(
      sim, network::Topology::build(sc.network, scenario::network_hosts(sc.nodes)), sc.link_faults);
}

}  // namespace hermes::protocols
