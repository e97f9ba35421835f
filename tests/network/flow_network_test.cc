#include "sim/network/flow_network.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/network/flow_done.h"
#include "tests/network/test_hosts.h"

namespace hermes::network {
namespace {

using engine::kMicrosecond;
using engine::kMillisecond;
using engine::SimTime;
using namespace engine::time_literals;
using engine::Simulator;
using testing::Done;
using testing::make_hosts;
using testing::star_spec;

// Star with 100 us per hop (200 us route latency); 1000 Mbit/s = 1.25e8 B/s.
constexpr SimTime kHop = 100 * kMicrosecond;
constexpr SimTime kRoute = 2 * kHop;

TEST(FlowNetwork, LoneFlowTakesLatencyPlusBytesOverBottleneck) {
  Simulator sim;
  FlowNetwork net(sim, Topology::build(star_spec(kHop), make_hosts({1000, 1000})));
  SimTime done = -1_ns;
  const FlowId id = net.start({1, 0, 1e6}, [&](engine::ActivityOutcome) { done = sim.now(); });
  EXPECT_EQ(id, 1u);
  EXPECT_EQ(net.flows_in_flight(), 1u);

  sim.run_until(kRoute - 1_ns);  // latency phase: no rate, nothing moved
  EXPECT_EQ(net.active_flows(), 0u);
  EXPECT_EQ(net.rate(id), 0.0);
  EXPECT_EQ(net.remaining_bytes(id), 1e6);

  sim.run_until(kRoute + 4 * kMillisecond);  // halfway through the 8 ms transfer
  EXPECT_EQ(net.active_flows(), 1u);
  EXPECT_DOUBLE_EQ(net.rate(id), 1.25e8);
  EXPECT_NEAR(net.remaining_bytes(id), 5e5, 1e-6);
  EXPECT_NEAR(net.bytes_transferred(), 5e5, 1e-6);
  EXPECT_EQ(net.bytes_delivered(), 0.0);

  sim.run();
  EXPECT_EQ(done, kRoute + 8 * kMillisecond);  // 200 us + 1e6 B / 1.25e8 B/s
  EXPECT_EQ(done, lone_transfer_time(net.topology().route(1, 0), 1e6));
  EXPECT_FALSE(net.in_flight(id));
  EXPECT_EQ(net.rate(id), 0.0);
  EXPECT_EQ(net.flows_completed(), 1u);
  EXPECT_EQ(net.bytes_delivered(), 1e6);
  EXPECT_EQ(net.host_bytes_sent(1), 1e6);
  EXPECT_EQ(net.host_bytes_received(0), 1e6);
  EXPECT_EQ(net.host_bytes_sent(0), 0.0);
  EXPECT_EQ(sim.pending(), 0u);
}

// 51000 B at 1.25e7 B/s is exactly 4.08 ms, but 51000 / 1.25e7 * 1e9 evaluates to
// 4080000.0000000005 in doubles: a plain ceil would finish 1 ns late.
TEST(FlowNetwork, ExactDurationsAreNotRoundedUpByDivisionNoise) {
  Simulator sim;
  FlowNetwork net(sim, Topology::build(star_spec(kHop), make_hosts({100, 100, 100, 100})));
  Done done;
  net.start({1, 0, 51000}, done.mark(sim, 0));
  sim.run();
  // Three flows of 15000 B sharing 1.25e7 B/s: exactly 3.6 ms (doubles: 3600000.0000000005).
  const SimTime t0 = sim.now();
  for (HostIndex w = 1; w <= 3; ++w) net.start({w, 0, 15000}, done.mark(sim, w));
  sim.run();
  EXPECT_EQ(done.at,
            (std::vector<SimTime>{kRoute + 4'080'000_ns, t0 + kRoute + 3'600'000_ns,
                                  t0 + kRoute + 3'600'000_ns, t0 + kRoute + 3'600'000_ns}));
}

TEST(FlowNetwork, NFlowsIntoOnePsNicShareEquallyAndFinishTogether) {
  Simulator sim;
  FlowNetwork net(sim,
                  Topology::build(star_spec(kHop), make_hosts({1000, 1000, 1000, 1000, 1000})));
  Done done;
  std::vector<FlowId> ids;
  for (HostIndex w = 1; w <= 4; ++w) ids.push_back(net.start({w, 0, 1e6}, done.mark(sim, w)));
  sim.run_until(kRoute + 1_ns);
  for (const FlowId id : ids) EXPECT_DOUBLE_EQ(net.rate(id), 1.25e8 / 4);
  sim.run();
  // 4e6 B through the PS's 1.25e8 B/s downlink: 32 ms, all at once.
  EXPECT_EQ(done.at, std::vector<SimTime>(4, kRoute + 32 * kMillisecond));
  EXPECT_EQ(done.order, (std::vector<int>{1, 2, 3, 4}));
  // Simultaneous activations share one recomputation, simultaneous completions another.
  EXPECT_EQ(net.recomputations(), 2u);
}

// PS 1000 Mbit/s; w0 has a 100 Mbit/s NIC, w1 and w2 1000. Equal shares would be 1.25e8/3 each;
// max-min caps w0 at its NIC (1.25e7) and splits the remaining 1.125e8 between w1 and w2.
TEST(FlowNetwork, DifferentBottlenecksGetMaxMinShares) {
  Simulator sim;
  FlowNetwork net(sim, Topology::build(star_spec(kHop), make_hosts({1000, 100, 1000, 1000})));
  Done done;
  const FlowId slow = net.start({1, 0, 1.25e6}, done.mark(sim, 0));
  const FlowId fast1 = net.start({2, 0, 1.25e6}, done.mark(sim, 1));
  const FlowId fast2 = net.start({3, 0, 1.25e6}, done.mark(sim, 2));
  sim.run_until(kRoute);
  EXPECT_DOUBLE_EQ(net.rate(slow), 1.25e7);
  EXPECT_DOUBLE_EQ(net.rate(fast1), 5.625e7);
  EXPECT_DOUBLE_EQ(net.rate(fast2), 5.625e7);
  sim.run_until(kRoute + 30 * kMillisecond);
  EXPECT_DOUBLE_EQ(net.rate(slow), 1.25e7);  // still NIC-bound once alone
  sim.run();
  // Fast: 1.25e6 / 5.625e7 s = 22222222.2 ns, rounded up. Slow: 1.25e6 / 1.25e7 = 100 ms.
  EXPECT_EQ(done.order, (std::vector<int>{1, 2, 0}));
  EXPECT_EQ(done.at, (std::vector<SimTime>{kRoute + 22'222'223_ns, kRoute + 22'222'223_ns,
                                           kRoute + 100 * kMillisecond}));
}

// Two flows share the PS downlink at 6.25e7 B/s each. The 1e6 B one ends after 16 ms; the 2e6 B
// one then has 1e6 B left alone at 1.25e8 B/s: 8 ms more.
TEST(FlowNetwork, FinishedFlowFreesBandwidth) {
  Simulator sim;
  FlowNetwork net(sim, Topology::build(star_spec(kHop), make_hosts({1000, 1000, 1000})));
  Done done;
  net.start({1, 0, 1e6}, done.mark(sim, 0));
  const FlowId big = net.start({2, 0, 2e6}, done.mark(sim, 1));
  sim.run_until(kRoute + 16 * kMillisecond - 1_ns);
  EXPECT_DOUBLE_EQ(net.rate(big), 6.25e7);
  sim.run_until(kRoute + 16 * kMillisecond);
  EXPECT_DOUBLE_EQ(net.rate(big), 1.25e8);
  EXPECT_NEAR(net.remaining_bytes(big), 1e6, 1e-6);
  sim.run();
  EXPECT_EQ(done.at,
            (std::vector<SimTime>{kRoute + 16 * kMillisecond, kRoute + 24 * kMillisecond}));
}

// A (2e6 B) runs alone from 0.2 ms; B (1e6 B) starts at 4.2 ms, active at 4.4 ms. By then A moved
// 4.2 ms * 1.25e8 = 525000 B. Shared at 6.25e7: B needs 16 ms -> 20.4 ms; A has 475000 B left,
// alone again: 3.8 ms -> 24.2 ms (= 0.2 ms + 3e6 B / 1.25e8: the downlink never idles).
TEST(FlowNetwork, LaterFlowJoins) {
  Simulator sim;
  FlowNetwork net(sim, Topology::build(star_spec(kHop), make_hosts({1000, 1000, 1000})));
  Done done;
  const FlowId a = net.start({1, 0, 2e6}, done.mark(sim, 0));
  FlowId b = 0;
  sim.schedule_at(4200 * kMicrosecond, [&] { b = net.start({2, 0, 1e6}, done.mark(sim, 1)); });
  sim.run_until(4400 * kMicrosecond - 1_ns);
  EXPECT_DOUBLE_EQ(net.rate(a), 1.25e8);
  EXPECT_EQ(net.rate(b), 0.0);  // still in its latency phase
  sim.run_until(4400 * kMicrosecond);
  EXPECT_NEAR(net.remaining_bytes(a), 1.475e6, 1e-6);
  EXPECT_DOUBLE_EQ(net.rate(a), 6.25e7);
  EXPECT_DOUBLE_EQ(net.rate(b), 6.25e7);
  sim.run();
  EXPECT_EQ(done.order, (std::vector<int>{1, 0}));
  EXPECT_EQ(done.at, (std::vector<SimTime>{20400 * kMicrosecond, 24200 * kMicrosecond}));
}

// w1's cable has 5 ms latency, the rest none. A (2.5e6 B, w0) runs alone at 1.25e8 B/s; B
// (6.25e5 B, w1) waits 5 ms without taking bandwidth, then both share: at 5 ms A has 1.875e6 B
// left; B ends after 10 ms (15 ms), A's last 1.25e6 B take 10 ms more (25 ms).
TEST(FlowNetwork, LatencyPhaseConsumesNoBandwidth) {
  NetworkSpec s;
  s.topology = "custom";
  s.switches = {"sw"};
  s.links = {{"ps", "sw", std::nullopt, 0_ns},
             {"w0", "sw", std::nullopt, 0_ns},
             {"w1", "sw", std::nullopt, 5 * kMillisecond}};
  Simulator sim;
  FlowNetwork net(sim, Topology::build(s, make_hosts({1000, 1000, 1000})));
  Done done;
  const FlowId a = net.start({1, 0, 2.5e6}, done.mark(sim, 0));
  const FlowId b = net.start({2, 0, 6.25e5}, done.mark(sim, 1));
  sim.run_until(4900 * kMicrosecond);
  EXPECT_DOUBLE_EQ(net.rate(a), 1.25e8);
  EXPECT_EQ(net.active_flows(), 1u);
  EXPECT_EQ(net.flows_in_flight(), 2u);
  EXPECT_EQ(net.remaining_bytes(b), 6.25e5);
  sim.run();
  EXPECT_EQ(done.order, (std::vector<int>{1, 0}));
  EXPECT_EQ(done.at, (std::vector<SimTime>{15 * kMillisecond, 25 * kMillisecond}));
}

TEST(FlowNetwork, EqualFinishTimesCompleteInStartOrder) {
  Simulator sim;
  FlowNetwork net(sim, Topology::build(star_spec(kHop), make_hosts({1000, 1000, 1000, 1000})));
  Done done;
  // Started out of host order; 3 x 1e6 B / (1.25e8 / 3) = 24 ms each.
  net.start({3, 0, 1e6}, done.mark(sim, 3));
  net.start({1, 0, 1e6}, done.mark(sim, 1));
  net.start({2, 0, 1e6}, done.mark(sim, 2));
  sim.run();
  EXPECT_EQ(done.order, (std::vector<int>{3, 1, 2}));
  EXPECT_EQ(done.at, std::vector<SimTime>(3, kRoute + 24 * kMillisecond));
}

// Activation order differs from start order: A (w0, 1 ms cable latency) starts first but B (w1,
// no latency) is active first, alone for 1 ms (1.25e5 B); then both have 1e6 B left at 6.25e7 B/s
// and end together at 17 ms. Callbacks still follow start order.
TEST(FlowNetwork, EqualFinishTimesFollowStartOrderNotActivationOrder) {
  NetworkSpec s;
  s.topology = "custom";
  s.switches = {"sw"};
  s.links = {{"ps", "sw", std::nullopt, 0_ns},
             {"w0", "sw", std::nullopt, kMillisecond},
             {"w1", "sw", std::nullopt, 0_ns}};
  Simulator sim;
  FlowNetwork net(sim, Topology::build(s, make_hosts({1000, 1000, 1000})));
  Done done;
  net.start({1, 0, 1e6}, done.mark(sim, 0));
  net.start({2, 0, 1.125e6}, done.mark(sim, 1));
  sim.run();
  EXPECT_EQ(done.order, (std::vector<int>{0, 1}));
  EXPECT_EQ(done.at, std::vector<SimTime>(2, 17 * kMillisecond));
}

TEST(FlowNetwork, LoopbackZeroBytesAndChainedFlows) {
  Simulator sim;
  FlowNetwork net(sim, Topology::build(star_spec(kHop), make_hosts({1000, 1000})));
  Done done;
  sim.schedule_at(7_ns, [&] { net.start({1, 1, 5e6}, done.mark(sim, 0)); });  // loopback
  net.start({1, 0, 0}, done.mark(sim, 1));                                    // latency only
  // Push then pull from the callback, like a worker round.
  net.start({1, 0, 1e6}, [&](engine::ActivityOutcome how) {
    done.mark(sim, 2)(how);
    net.start({0, 1, 1e6}, done.mark(sim, 3));
  });
  sim.run();
  EXPECT_EQ(done.order, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(done.at, (std::vector<SimTime>{7_ns, kRoute, kRoute + 8 * kMillisecond,
                                           2 * (kRoute + 8 * kMillisecond)}));
  EXPECT_EQ(net.flows_completed(), 4u);
  // The loopback crossed no link: not counted as network bytes.
  EXPECT_EQ(net.bytes_delivered(), 2e6);
  EXPECT_EQ(net.host_bytes_sent(1), 1e6);
  EXPECT_EQ(net.host_bytes_received(1), 1e6);
  EXPECT_EQ(net.host_bytes_sent(0), 1e6);
}

// Uplink and downlink are separate resources: a push and a pull on the same cable both run at
// full speed.
TEST(FlowNetwork, FullDuplex) {
  Simulator sim;
  FlowNetwork net(sim, Topology::build(star_spec(kHop), make_hosts({1000, 1000})));
  Done done;
  const FlowId up = net.start({1, 0, 1e6}, done.mark(sim, 0));
  const FlowId down = net.start({0, 1, 1e6}, done.mark(sim, 1));
  sim.run_until(kRoute);
  EXPECT_DOUBLE_EQ(net.rate(up), 1.25e8);
  EXPECT_DOUBLE_EQ(net.rate(down), 1.25e8);
  sim.run();
  EXPECT_EQ(done.at, std::vector<SimTime>(2, kRoute + 8 * kMillisecond));
}

// Staggered flows of awkward sizes keep the PS downlink busy without a gap, so the last byte
// arrives at first activation + total bytes / capacity; rounding may only add <= 1 ns per
// completion, never accumulate drift.
TEST(FlowNetwork, NoDriftUnderManyRateChanges) {
  constexpr int kFlows = 50;
  Simulator sim;
  FlowNetwork net(
      sim, Topology::build(star_spec(kHop), make_hosts(std::vector<double>(kFlows + 1, 1000))));
  double total = 0;
  SimTime last{};
  for (int i = 0; i < kFlows; ++i) {
    const double bytes = 1e5 + static_cast<double>(i * 7919 % 1000) * 1013.7;
    total += bytes;
    sim.schedule_at(i * 100 * kMicrosecond, [&, i, bytes] {
      net.start({static_cast<HostIndex>(i + 1), 0, bytes},
                [&](engine::ActivityOutcome) { last = sim.now(); });
    });
  }
  sim.run();
  const double expected = static_cast<double>(kRoute.ns()) + total / 1.25e8 * 1e9;
  EXPECT_GE(static_cast<double>(last.ns()), expected - 1);
  EXPECT_LE(static_cast<double>(last.ns()), expected + kFlows);
  EXPECT_DOUBLE_EQ(net.bytes_delivered(), total);
  EXPECT_EQ(net.flows_completed(), static_cast<std::uint64_t>(kFlows));
  EXPECT_EQ(sim.pending(), 0u);
}

// 1000 workers: 500 with 8 Mbit/s NICs (1e6 B/s), 500 at 1000; PS at 10000 (1.25e9 B/s). Equal
// shares would be 1.25e6; the slow ones are capped at 1e6 and the fast ones split 7.5e8: 1.5e6.
TEST(FlowNetwork, ThousandWorkerStar) {
  constexpr int kWorkers = 1000;
  std::vector<double> nics{10000};
  for (int i = 0; i < kWorkers; ++i) nics.push_back(i % 2 == 0 ? 8 : 1000);
  Simulator sim;
  FlowNetwork net(sim, Topology::build(star_spec(kHop), make_hosts(nics)));
  std::vector<FlowId> ids;
  int finished = 0;
  for (HostIndex w = 1; w <= kWorkers; ++w) {
    ids.push_back(net.start({w, 0, 3e5}, [&](engine::ActivityOutcome) { ++finished; }));
  }
  sim.run_until(kRoute);
  EXPECT_EQ(net.active_flows(), static_cast<std::size_t>(kWorkers));
  EXPECT_DOUBLE_EQ(net.rate(ids[0]), 1e6);
  EXPECT_DOUBLE_EQ(net.rate(ids[1]), 1.5e6);
  // Fast flows finish at 0.2 s; then the slow ones stay NIC-bound until 0.3 s.
  sim.run_until(kRoute + 200 * kMillisecond);
  EXPECT_EQ(finished, kWorkers / 2);
  sim.run();
  EXPECT_EQ(finished, kWorkers);
  EXPECT_EQ(sim.now(), kRoute + 300 * kMillisecond);
  EXPECT_EQ(net.recomputations(), 3u);
}

TEST(FlowNetwork, MisuseThrows) {
  NetworkSpec s;
  s.topology = "custom";
  s.links = {{"ps", "w0", std::nullopt, 0_ns}, {"ps", "w1", std::nullopt, 0_ns}};
  Simulator sim;
  FlowNetwork net(sim, Topology::build(s, make_hosts({1000, 1000, 1000})));
  EXPECT_THROW(net.start({1, 2, 1}, {}), std::logic_error);  // the PS does not forward
  EXPECT_THROW(net.start({1, 9, 1}, {}), std::out_of_range);
  EXPECT_THROW(net.start({1, 0, -1}, {}), std::invalid_argument);
  EXPECT_THROW(net.start({1, 0, std::nan("")}, {}), std::invalid_argument);
  EXPECT_EQ(net.flows_in_flight(), 0u);
}

TEST(FlowNetwork, DestructionCancelsPendingEvents) {
  Simulator sim;
  bool called = false;
  {
    FlowNetwork net(sim, Topology::build(star_spec(kHop), make_hosts({1000, 1000, 1000})));
    net.start({1, 0, 1e6}, [&](engine::ActivityOutcome) { called = true; });
    sim.run_until(kRoute + 1_ns);  // one active, completion pending
    net.start({2, 0, 1e6},
              [&](engine::ActivityOutcome) { called = true; });  // one in latency phase
  }
  EXPECT_EQ(sim.pending(), 0u);
  sim.run();
  EXPECT_FALSE(called);
}

}  // namespace
}  // namespace hermes::network
