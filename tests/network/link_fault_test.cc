// Link faults in the flow network: degraded and lost links change rates exactly at their bounds,
// a lost link stalls its flows until it returns, added latency delays the flows that start
// during a fault. Every expected time is worked out by hand in the comment above its test.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "sim/network/flow_network.h"
#include "tests/network/flow_done.h"
#include "tests/network/test_hosts.h"

namespace hermes::network {
namespace {

using engine::kMicrosecond;
using engine::kMillisecond;
using engine::SimTime;
using engine::Simulator;
using namespace engine::time_literals;
using testing::Done;
using testing::make_hosts;
using testing::star_spec;

// 1000 Mbit/s = 1.25e8 B/s on every star link.
constexpr double kGbit = 1.25e8;

LinkFault fault(const char* host, SimTime start, SimTime end, double factor, SimTime latency = {}) {
  return LinkFault{host, start, end, factor, latency};
}

// 1e6 B from w0 to the PS, no latency. w0's link at half speed in [2, 4) ms and at a quarter in
// [4, 6) ms (touching faults): 0-2 ms moves 2.5e5 B at 1.25e8 B/s, 2-4 ms 1.25e5 B at 6.25e7,
// 4-6 ms 6.25e4 B at 3.125e7; the last 5.625e5 B take 4.5 ms at full speed: done at 10.5 ms
// (8 ms without the faults).
TEST(LinkFault, ADegradedLinkSlowsItsFlowsExactlyDuringTheFault) {
  Simulator sim;
  FlowNetwork net(sim, Topology::build(star_spec(0_ns), make_hosts({1000, 1000})),
                  {fault("w0", 4_ms, 6_ms, 0.25), fault("w0", 2_ms, 4_ms, 0.5)});
  Done done;
  const FlowId id = net.start({1, 0, 1e6}, done.mark(sim, 0));
  sim.run_until(3_ms);
  EXPECT_EQ(net.rate(id), kGbit / 2);
  sim.run_until(5_ms);
  EXPECT_EQ(net.rate(id), kGbit / 4);
  sim.run_until(7_ms);
  EXPECT_EQ(net.rate(id), kGbit);
  sim.run();
  EXPECT_EQ(done.at, std::vector<SimTime>{10'500 * kMicrosecond});
  // Activation, the changes at 2, 4 (an end and a start: one recomputation) and 6 ms, completion.
  EXPECT_EQ(net.recomputations(), 5u);
  EXPECT_EQ(net.bytes_delivered(), 1e6);
}

// w0 and w1 each send 1e6 B to the PS, sharing its link at 6.25e7 B/s; w0's link is lost in
// [2, 20) ms. At 2 ms each has 8.75e5 B left. w0's flow stalls; w1's gets the PS's whole link and
// ends at 2 + 8.75e5 / 1.25e8 = 9 ms. A flow PS -> w0 of 1e5 B started at 12 ms waits too. At
// 20 ms both of w0's flows resume on separate directions: PS -> w0 ends at 20.8 ms, w0 -> PS
// at 20 + 7 = 27 ms.
TEST(LinkFault, ALostLinkStallsItsFlowsUntilItComesBack) {
  Simulator sim;
  FlowNetwork net(sim, Topology::build(star_spec(0_ns), make_hosts({1000, 1000, 1000})),
                  {fault("w0", 2_ms, 20_ms, 0)});
  Done done;
  const FlowId lost = net.start({1, 0, 1e6}, done.mark(sim, 0));
  const FlowId other = net.start({2, 0, 1e6}, done.mark(sim, 1));
  sim.run_until(3_ms);
  EXPECT_EQ(net.rate(lost), 0.0);
  EXPECT_EQ(net.rate(other), kGbit);
  EXPECT_DOUBLE_EQ(net.remaining_bytes(lost), 8.75e5);
  sim.run_until(12_ms);
  const FlowId back = net.start({0, 1, 1e5}, done.mark(sim, 2));
  sim.run_until(15_ms);
  EXPECT_EQ(net.active_flows(), 2u);
  EXPECT_EQ(net.rate(back), 0.0);
  EXPECT_DOUBLE_EQ(net.remaining_bytes(lost), 8.75e5);
  // No completion is pending for a stalled flow: the next event is the link's return.
  EXPECT_EQ(sim.next_event_time(), 20_ms);
  sim.run();
  EXPECT_EQ(done.order, (std::vector<int>{1, 2, 0}));
  EXPECT_EQ(done.at, (std::vector<SimTime>{9_ms, 20'800 * kMicrosecond, 27_ms}));
}

// Star with 100 us per hop (200 us routes). w0's link adds 20 ms in [1, 5) ms without touching
// its bandwidth. A flow w0 -> PS started at 1 ms waits 20.2 ms and ends 8 ms later (29.2 ms);
// one of w1's, on other links, is not delayed (1 + 0.2 + 8 = 9.2 ms); one PS -> w0 started at
// 5 ms, when the fault has ended, is not delayed either (13.2 ms).
TEST(LinkFault, AddedLatencyDelaysTheFlowsThatStartDuringTheFault) {
  Simulator sim;
  FlowNetwork net(sim,
                  Topology::build(star_spec(100 * kMicrosecond), make_hosts({1000, 1000, 1000})),
                  {fault("w0", 1_ms, 5_ms, 1, 20_ms)});
  Done done;
  sim.run_until(1_ms);
  net.start({1, 0, 1e6}, done.mark(sim, 0));
  net.start({2, 0, 1e6}, done.mark(sim, 1));
  sim.run_until(5_ms);
  net.start({0, 1, 1e6}, done.mark(sim, 2));
  sim.run();
  EXPECT_EQ(done.order, (std::vector<int>{1, 2, 0}));
  EXPECT_EQ(done.at, (std::vector<SimTime>{9'200 * kMicrosecond, 13'200 * kMicrosecond,
                                           29'200 * kMicrosecond}));
  // A fault that only adds latency changes no capacity: activations and completions only.
  EXPECT_EQ(net.recomputations(), 6u);
}

// A fault no flow meets schedules nothing: the run ends when its last flow does, as without it.
TEST(LinkFault, AFaultNoFlowMeetsSchedulesNothing) {
  Simulator sim;
  FlowNetwork net(sim, Topology::build(star_spec(0_ns), make_hosts({1000, 1000})),
                  {fault("w0", 1_s, 2_s, 0), fault("ps", 3_s, 4_s, 0.5, 1_ms)});
  Done done;
  net.start({1, 0, 1e6}, done.mark(sim, 0));
  sim.run();
  EXPECT_EQ(done.at, std::vector<SimTime>{8_ms});
  EXPECT_EQ(sim.now(), 8_ms);
  EXPECT_EQ(net.recomputations(), 2u);
}

// A PS -> w0 cable of their own: a fault of either host is a fault of it.
NetworkSpec direct_cable() {
  NetworkSpec s;
  s.topology = "custom";
  s.switches = {"sw"};
  s.links = {{"ps", "w0", std::nullopt, 0_ns},
             {"ps", "sw", std::nullopt, 0_ns},
             {"w1", "sw", std::nullopt, 0_ns}};
  return s;
}

TEST(LinkFault, RefusedFaultsThrow) {
  Simulator sim;
  const auto hosts = make_hosts({1000, 1000, 1000});
  const auto build = [&](std::vector<LinkFault> faults) {
    FlowNetwork net(sim, Topology::build(direct_cable(), hosts), faults);
  };
  EXPECT_THROW(build({fault("w7", 1_ms, 2_ms, 0.5)}), std::invalid_argument);
  EXPECT_THROW(build({fault("w0", 2_ms, 2_ms, 0.5)}), std::invalid_argument);
  EXPECT_THROW(build({fault("w0", 1_ms, 2_ms, 1.5)}), std::invalid_argument);
  EXPECT_THROW(build({fault("w0", 1_ms, 2_ms, -0.1)}), std::invalid_argument);
  EXPECT_THROW(build({fault("w0", 1_ms, 2_ms, 1, -1_ms)}), std::invalid_argument);
  // The PS and w0 share their cable: overlapping faults of the two overlap on it.
  EXPECT_THROW(build({fault("ps", 1_ms, 3_ms, 0.5), fault("w0", 2_ms, 4_ms, 0.5)}),
               std::invalid_argument);
  // w1 and the PS share no cable; touching faults of one host are fine.
  EXPECT_NO_THROW(build({fault("ps", 1_ms, 3_ms, 0.5), fault("w1", 2_ms, 4_ms, 0)}));
  EXPECT_NO_THROW(build({fault("w0", 1_ms, 3_ms, 0.5), fault("w0", 3_ms, 4_ms, 0)}));
}

// The PS's fault covers both of its cables: a flow from w1 (through the switch) and one from w0
// (direct) both stall during its loss.
TEST(LinkFault, AFaultCoversEveryLinkOfItsHost) {
  Simulator sim;
  FlowNetwork net(sim, Topology::build(direct_cable(), make_hosts({1000, 1000, 1000})),
                  {fault("ps", 0_ms, 10_ms, 0)});
  Done done;
  net.start({1, 0, 1e6}, done.mark(sim, 0));
  net.start({2, 0, 1e6}, done.mark(sim, 1));
  sim.run();
  // Each alone on its own PS link from 10 ms: 8 ms.
  EXPECT_EQ(done.at, (std::vector<SimTime>{18_ms, 18_ms}));
}

}  // namespace
}  // namespace hermes::network
