// A host turned off and on (FlowNetwork::turn_off / turn_on): every flow with it at one end ends
// as failed at the turn-off, in start order, and frees its bandwidth; flows are refused (failed)
// while it is off and run again once it is on.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "sim/network/flow_network.h"
#include "tests/network/flow_done.h"
#include "tests/network/test_hosts.h"

namespace hermes::network {
namespace {

using engine::ActivityOutcome;
using engine::kMicrosecond;
using engine::kMillisecond;
using engine::SimTime;
using engine::Simulator;
using namespace engine::time_literals;
using testing::Done;
using testing::make_hosts;
using testing::star_spec;

constexpr SimTime kHop = 100 * kMicrosecond;
constexpr SimTime kRoute = 2 * kHop;  // 1000 Mbit/s = 1.25e8 B/s per NIC

constexpr auto kDone = ActivityOutcome::kDone;
constexpr auto kFailed = ActivityOutcome::kFailed;

// Two uploads share the PS's NIC (6.25e7 B/s each); w0 goes 4 ms into them while a download to
// it is still in its latency phase. Its two flows fail then, in start order, and the upload of w1
// gets the whole NIC: its remaining 7.5e5 B take 6 ms, so it ends at 10 ms instead of 16 ms.
TEST(HostOutage, TurnedOffHostFailsItsFlowsAtOnceInStartOrderAndFreesTheirBandwidth) {
  Simulator sim;
  FlowNetwork net(sim, Topology::build(star_spec(kHop), make_hosts({1000, 1000, 1000})));
  Done done;
  const FlowId up0 = net.start({1, 0, 1e6}, done.mark(sim, 0));
  net.start({2, 0, 1e6}, done.mark(sim, 1));
  const SimTime off = kRoute + 4 * kMillisecond;
  sim.schedule_at(off - 100 * kMicrosecond, [&] { net.start({0, 1, 1e6}, done.mark(sim, 2)); });
  std::size_t failed = 0;
  sim.schedule_at(off, [&] {
    EXPECT_NEAR(net.remaining_bytes(up0), 7.5e5, 1e-6);
    failed = net.turn_off(1);
    EXPECT_TRUE(done.order.empty());  // never from inside turn_off
    EXPECT_EQ(net.flows_in_flight(), 1u);
    EXPECT_FALSE(net.in_flight(up0));
    EXPECT_FALSE(net.host_on(1));
  });
  sim.run();
  EXPECT_EQ(failed, 2u);
  EXPECT_EQ(done.order, (std::vector<int>{0, 2, 1}));
  EXPECT_EQ(done.outcome, (std::vector<ActivityOutcome>{kFailed, kFailed, kDone}));
  EXPECT_EQ(done.at, (std::vector<SimTime>{off, off, kRoute + 10 * kMillisecond}));
  // Only the flow that ended done delivered its bytes.
  EXPECT_EQ(net.flows_completed(), 1u);
  EXPECT_EQ(net.bytes_delivered(), 1e6);
  EXPECT_EQ(net.host_bytes_sent(1), 0.0);
  EXPECT_EQ(net.host_bytes_received(1), 0.0);
  EXPECT_EQ(sim.pending(), 0u);
}

// The failed callbacks come in start order even when the later flow took a lower slot (the slot
// of a flow that had finished).
TEST(HostOutage, FailedFlowsComeInStartOrderWhateverSlotsTheyReuse) {
  Simulator sim;
  FlowNetwork net(sim, Topology::build(star_spec(kHop), make_hosts({1000, 1000, 1000})));
  Done done;
  net.start({2, 0, 1e3}, done.mark(sim, 0));  // slot 0, finishes first
  net.start({1, 0, 1e7}, done.mark(sim, 1));  // slot 1
  sim.run_until(kRoute + kMillisecond);
  ASSERT_EQ(done.order, (std::vector<int>{0}));
  net.start({0, 1, 1e7}, done.mark(sim, 2));  // reuses slot 0
  net.start({0, 2, 1e7}, done.mark(sim, 3));  // not w0's: goes on
  EXPECT_EQ(net.turn_off(1), 2u);
  sim.run();
  EXPECT_EQ(done.order, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(done.outcome, (std::vector<ActivityOutcome>{kDone, kFailed, kFailed, kDone}));
}

// While the host is off a flow to or from it fails at its start, without moving a byte; once it
// is on again, flows with it run as on a fresh network.
TEST(HostOutage, FlowsFailWhileTheHostIsOffAndCompleteAfterTurnOn) {
  Simulator sim;
  FlowNetwork net(sim, Topology::build(star_spec(kHop), make_hosts({1000, 1000, 1000})));
  Done done;
  EXPECT_EQ(net.turn_off(1), 0u);
  sim.run_until(1_s);
  const FlowId refused = net.start({1, 0, 1e6}, done.mark(sim, 0));
  net.start({0, 1, 1e6}, done.mark(sim, 1));
  EXPECT_FALSE(net.in_flight(refused));
  EXPECT_TRUE(done.order.empty());  // never from inside start
  sim.run_until(2_s);
  EXPECT_EQ(done.at, (std::vector<SimTime>{1_s, 1_s}));
  EXPECT_EQ(done.outcome, (std::vector<ActivityOutcome>{kFailed, kFailed}));
  net.turn_on(1);
  EXPECT_TRUE(net.host_on(1));
  net.start({1, 0, 1e6}, done.mark(sim, 2));
  sim.run();
  EXPECT_EQ(done.order, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(done.outcome.back(), kDone);
  EXPECT_EQ(done.at.back(), 2_s + kRoute + 8 * kMillisecond);
  EXPECT_EQ(net.bytes_delivered(), 1e6);
}

TEST(HostOutage, TurningAHostOffOrOnTwiceIsAnError) {
  Simulator sim;
  FlowNetwork net(sim, Topology::build(star_spec(kHop), make_hosts({1000, 1000})));
  EXPECT_THROW(net.turn_on(1), std::logic_error);
  net.turn_off(1);
  EXPECT_THROW(net.turn_off(1), std::logic_error);
  EXPECT_THROW(net.turn_off(7), std::out_of_range);
}

}  // namespace
}  // namespace hermes::network
