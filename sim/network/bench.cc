#include "sim/network/bench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>

#include "sim/engine/simulator.h"
#include "sim/network/flow_network.h"

namespace hermes::network {

FlowBench bench_flows(std::size_t workers, std::size_t flows, double bytes, MaxMinUpdate update) {
  std::vector<HostSpec> hosts{{"ps", 10000}};
  const double nics[] = {100, 1000, 10000};
  for (std::size_t i = 0; i < workers; ++i) {
    hosts.push_back({"w" + std::to_string(i), nics[i % 3]});
  }
  engine::Simulator sim;
  FlowNetwork net(sim, Topology::build(NetworkSpec{}, hosts), {}, update);

  FlowBench result;
  result.digest = 1469598103934665603ull;  // FNV-1a
  const auto mix = [&](std::uint64_t v) {
    for (int b = 0; b < 8; ++b) {
      result.digest ^= (v >> (8 * b)) & 0xff;
      result.digest *= 1099511628211ull;
    }
  };
  // Worker w (1-based) sends flows / workers flows, one more for the first flows % workers.
  std::vector<std::size_t> left(workers + 1, 0);
  for (std::size_t w = 1; w <= workers; ++w) left[w] = flows / workers + (w <= flows % workers);
  std::function<void(HostIndex, bool)> send = [&](HostIndex w, bool push) {
    if (left[w] == 0) return;
    --left[w];
    // No host is turned off here: every flow ends done.
    net.start({push ? w : 0, push ? 0 : w, bytes}, [&, w, push](engine::ActivityOutcome) {
      mix(w);
      mix(static_cast<std::uint64_t>(sim.now().ns()));
      const engine::SimTime pause = (w * 7919 % 100) * engine::kMicrosecond;
      sim.schedule_in(pause, [&, w, push] { send(w, !push); });
    });
  };
  for (HostIndex w = 1; w <= workers; ++w) send(w, true);

  const auto t0 = std::chrono::steady_clock::now();
  sim.run();
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  result.flows = net.flows_completed();
  result.recomputations = net.recomputations();
  result.flows_resolved = net.flows_resolved();
  result.simulated_seconds = engine::to_seconds(sim.now());
  return result;
}

void bench_solvers(const std::vector<std::size_t>& worker_counts, std::size_t flows, double bytes,
                   std::ostream& out) {
  out << "star of W workers each keeping one flow of " << bytes << " B in flight; "
      << "max(" << flows << ", 10 W) flows per line\n"
      << "    W  moving  recomputations  simulated s |  full: wall s  re-solved | incremental: "
         "wall s  re-solved | speedup  completions\n";
  for (const std::size_t workers : worker_counts) {
    // At least 10 flows per worker, so that the steady state, not the start, is measured.
    const std::size_t count = std::max(flows, 10 * workers);
    const FlowBench full = bench_flows(workers, count, bytes, MaxMinUpdate::kFull);
    const FlowBench inc = bench_flows(workers, count, bytes, MaxMinUpdate::kIncremental);
    const auto per = [](std::uint64_t n, std::uint64_t d) {
      return d == 0 ? 0.0 : static_cast<double>(n) / static_cast<double>(d);
    };
    // The full solver re-solves every moving flow: its count per recomputation is the load.
    const bool same = full.digest == inc.digest && full.flows == inc.flows &&
                      full.recomputations == inc.recomputations;
    char line[256];
    std::snprintf(line, sizeof line,
                  "%5zu  %6.0f  %14llu  %11.6f |  %12.3f  %9.0f | %19.3f  %9.0f | %6.2fx  %s\n",
                  workers, per(full.flows_resolved, full.recomputations),
                  static_cast<unsigned long long>(full.recomputations), full.simulated_seconds,
                  full.wall_seconds, per(full.flows_resolved, full.recomputations),
                  inc.wall_seconds, per(inc.flows_resolved, inc.recomputations),
                  full.wall_seconds / std::max(inc.wall_seconds, 1e-9),
                  same ? "same" : "DIFFERENT");
    out << line;
  }
}

}  // namespace hermes::network
