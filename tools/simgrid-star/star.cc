// The workload of `hermes-sim bench network` (sim/network/bench.cc) in SimGrid, to hold the flow
// model's solver against SimGrid's on the same flows (docs/performance.md). Not part of the build:
// SimGrid is not a dependency of hermes-sim. tools/simgrid-star/run installs nothing; it compiles
// this file against Debian's libsimgrid-dev (3.32) if present and runs it.
//
// A star: the PS and W workers, each host behind its own full-duplex link of 100 us (the NICs cycle
// 100, 1000, 10000 Mbit/s; the PS's is 10000), routes worker -> PS over the worker's uplink and the
// PS's downlink and back the other way. Each worker keeps one flow of `bytes` in flight: push to
// the PS, pull back, a pause of (w * 7919 % 100) us, push again, until max(10000, 10 W) flows
// (split evenly over the workers) are done. The network model is CM02 (max-min sharing without the
// TCP correction factors, as hermes-sim's), with SimGrid's default lazy update.
//
//   star W [BYTES]   prints: W flows simulated_s wall_s
#include <simgrid/s4u.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

int main(int argc, char** argv) {
  // SimGrid reads its configuration from the command line it is given.
  std::vector<char*> sg_args{argv[0], const_cast<char*>("--cfg=network/model:CM02"),
                             const_cast<char*>("--cfg=network/crosstraffic:0"),
                             const_cast<char*>("--log=root.thres:critical")};
  int sg_argc = static_cast<int>(sg_args.size());
  sg4::Engine engine(&sg_argc, sg_args.data());
  if (argc < 2) {
    std::fprintf(stderr, "usage: star WORKERS [BYTES]\n");
    return 2;
  }
  const int workers = std::atoi(argv[1]);
  const double bytes = argc > 2 ? std::atof(argv[2]) : 437544.0;
  const long flows = std::max(10000L, 10L * workers);
  if (workers < 1) {
    std::fprintf(stderr, "star: WORKERS must be at least 1\n");
    return 2;
  }

  auto* zone = sg4::create_full_zone("star");
  const auto link = [zone](const std::string& name, double mbps) {
    sg4::Link* l = zone->create_split_duplex_link(name, mbps * 1e6 / 8.0);
    l->set_latency(100e-6);
    return l->seal();
  };
  sg4::Host* ps = zone->create_host("ps", 1e9)->seal();
  sg4::Link* ps_link = link("ps", 10000);
  const double nics[] = {100, 1000, 10000};
  std::vector<sg4::Host*> hosts;
  for (int i = 0; i < workers; ++i) {
    sg4::Host* h = zone->create_host("w" + std::to_string(i), 1e9)->seal();
    sg4::Link* l = link("w" + std::to_string(i), nics[i % 3]);
    zone->add_route(
        h->get_netpoint(), ps->get_netpoint(), nullptr, nullptr,
        {{l, sg4::LinkInRoute::Direction::UP}, {ps_link, sg4::LinkInRoute::Direction::DOWN}}, true);
    hosts.push_back(h);
  }
  zone->seal();

  for (int w = 1; w <= workers; ++w) {
    const long mine = flows / workers + (w <= flows % workers ? 1 : 0);
    sg4::Host* h = hosts[w - 1];
    sg4::Actor::create("w", h, [h, ps, w, mine, bytes] {
      const double pause = (w * 7919 % 100) * 1e-6;
      for (long f = 0; f < mine; ++f) {
        const bool push = f % 2 == 0;
        sg4::Comm::sendto(push ? h : ps, push ? ps : h, static_cast<std::uint64_t>(bytes));
        if (pause > 0) sg4::this_actor::sleep_for(pause);  // also after the last, as bench.cc
      }
    });
  }
  const auto t0 = std::chrono::steady_clock::now();
  engine.run();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%d %ld %.6f %.3f\n", workers, flows, sg4::Engine::get_clock(), wall);
  return 0;
}
