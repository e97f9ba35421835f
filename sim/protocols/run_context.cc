#include "sim/protocols/run_context.h"

#include "sim/engine/random.h"

namespace hermes::protocols {

namespace {
// Each run draws from its own streams: the run name is part of the stream label, so adding a run
// to a scenario never changes the numbers of the others.
std::uint64_t run_seed(const scenario::Scenario& s, const scenario::RunSpec& run) {
  return engine::mix64(s.seed ^ engine::hash_label(run.name));
}
}  // namespace

RunContext::RunContext(const scenario::Scenario& sc, const scenario::RunSpec& r)
    : scenario(sc), run(r) {
  const std::uint64_t seed = run_seed(sc, r);
  nodes.reserve(sc.nodes.size());
  for (std::size_t i = 0; i < sc.nodes.size(); ++i) {
    nodes.emplace_back(sc.nodes[i].profile, engine::RandomStream::named(seed, "compute-jitter", i));
  }
  network = std::make_unique<network::FlowNetwork>(
      sim, network::Topology::build(sc.network, scenario::network_hosts(sc.nodes)));
}

}  // namespace hermes::protocols
