#include "sim/network/bench.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "sim/engine/simulator.h"
#include "sim/network/flow_network.h"

namespace hermes::network {

double bench_flows(std::size_t workers, std::size_t rounds, double bytes, std::ostream& out) {
  std::vector<HostSpec> hosts{{"ps", 10000}};
  const double nics[] = {100, 1000, 10000};
  for (std::size_t i = 0; i < workers; ++i) {
    hosts.push_back({"w" + std::to_string(i), nics[i % 3]});
  }
  engine::Simulator sim;
  FlowNetwork net(sim, Topology::build(NetworkSpec{}, hosts));

  std::vector<std::size_t> left(workers + 1, rounds);
  std::function<void(HostIndex)> push = [&](HostIndex w) {
    if (left[w]-- == 0) return;
    // No host is turned off here: every flow ends done.
    net.start({w, 0, bytes}, [&, w](engine::ActivityOutcome) {
      net.start({0, w, bytes}, [&, w](engine::ActivityOutcome) {
        // Deterministic, worker-specific compute time (0.5-1.5 ms) so activations interleave.
        const engine::SimTime compute =
            500 * engine::kMicrosecond + (w * 7919 % 1000) * engine::kMicrosecond;
        sim.schedule_in(compute, [&, w] { push(w); });
      });
    });
  };
  for (HostIndex w = 1; w <= workers; ++w) push(w);

  const auto t0 = std::chrono::steady_clock::now();
  sim.run();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double per_second = static_cast<double>(net.recomputations()) / std::max(wall, 1e-9);
  out << "flows " << net.flows_completed() << ", recomputations " << net.recomputations()
      << ", simulated " << engine::to_seconds(sim.now()) << " s, wall " << wall << " s, "
      << per_second << " recomputations/s\n";
  return per_second;
}

}  // namespace hermes::network
