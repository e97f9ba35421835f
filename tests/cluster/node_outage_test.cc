// A node turned off and on (NodeCompute::turn_off / turn_on / fail_all): its jobs end as failed
// at the turn-off, in start order, never at the end they were due; jobs started while it is off
// fail; jobs started after turn_on run; a fresh VM's burst bank starts over.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "sim/cluster/node_compute.h"
#include "sim/engine/simulator.h"
#include "tests/cluster/test_profile.h"

namespace hermes::cluster {
namespace {

using engine::ActivityOutcome;
using engine::kSecond;
using engine::SimTime;
using namespace engine::time_literals;

constexpr auto kDone = ActivityOutcome::kDone;
constexpr auto kFailed = ActivityOutcome::kFailed;

// 1 GFLOP/s, no per-step time, no jitter: a job of x GFLOP takes x seconds.
NodeProfile plain() { return testing::test_profile(1, {1.0, 0, 0}); }

// What ended, how and when.
struct Ends {
  std::vector<int> order;
  std::vector<ActivityOutcome> outcome;
  std::vector<SimTime> at;
  NodeCompute::OnEnd mark(engine::Simulator& sim, int tag) {
    return [this, &sim, tag](ActivityOutcome how) {
      order.push_back(tag);
      outcome.push_back(how);
      at.push_back(sim.now());
    };
  }
};

// A job runs 0-2 s and another waits for it (2-4 s); the node goes at 1 s. Both fail at 1 s, the
// running one first; nothing ends at 2 s or 4 s, where they were due.
TEST(NodeOutage, TurnedOffNodeFailsItsJobsAtOnceInStartOrder) {
  engine::Simulator sim;
  NodeCompute node(sim, plain(), RandomStream(1, 0));
  Ends ends;
  const auto running = node.start({2e9, 0}, ends.mark(sim, 0));
  const auto queued = node.start({2e9, 0}, ends.mark(sim, 1));
  EXPECT_TRUE(node.in_progress(running));
  EXPECT_TRUE(node.in_progress(queued));
  sim.schedule_at(kSecond, [&] {
    node.turn_off();
    EXPECT_TRUE(ends.order.empty());  // never from inside turn_off
    EXPECT_FALSE(node.on());
    EXPECT_FALSE(node.in_progress(running));
    EXPECT_FALSE(node.in_progress(queued));
    EXPECT_EQ(node.next_start(), kSecond);
  });
  sim.run();
  EXPECT_EQ(ends.order, (std::vector<int>{0, 1}));
  EXPECT_EQ(ends.outcome, (std::vector<ActivityOutcome>{kFailed, kFailed}));
  EXPECT_EQ(ends.at, (std::vector<SimTime>{kSecond, kSecond}));
  EXPECT_EQ(sim.now(), kSecond);  // the end events at 2 s and 4 s were cancelled
}

// A job started on a node that is off fails at its start and runs nothing (no jitter draw); after
// turn_on, jobs start from the turn-on and end done.
TEST(NodeOutage, JobsFailWhileTheNodeIsOffAndCompleteAfterTurnOn) {
  engine::Simulator sim;
  NodeCompute node(sim, plain(), RandomStream(1, 0));
  Ends ends;
  node.turn_off();
  sim.run_until(3_s);
  const JobTiming before = node.last_job();
  node.start({1e9, 0}, ends.mark(sim, 0));
  EXPECT_TRUE(ends.order.empty());  // never from inside start
  EXPECT_EQ(node.last_job().end, before.end);
  sim.run_until(5_s);
  node.turn_on(false);
  EXPECT_EQ(node.next_start(), 5_s);
  node.start({1e9, 0}, ends.mark(sim, 1));
  EXPECT_EQ(node.last_job().end, 6_s);
  sim.run();
  EXPECT_EQ(ends.order, (std::vector<int>{0, 1}));
  EXPECT_EQ(ends.outcome, (std::vector<ActivityOutcome>{kFailed, kDone}));
  EXPECT_EQ(ends.at, (std::vector<SimTime>{3_s, 6_s}));
}

// fail_all: the jobs fail as at a turn-off, the node stays on and the next job starts now.
TEST(NodeOutage, FailAllKeepsTheNodeOn) {
  engine::Simulator sim;
  NodeCompute node(sim, plain(), RandomStream(1, 0));
  Ends ends;
  node.start({4e9, 0}, ends.mark(sim, 0));
  sim.run_until(kSecond);
  node.fail_all();
  EXPECT_TRUE(node.on());
  node.start({1e9, 0}, ends.mark(sim, 1));
  EXPECT_EQ(node.last_job().start, kSecond);
  sim.run();
  EXPECT_EQ(ends.order, (std::vector<int>{0, 1}));
  EXPECT_EQ(ends.outcome, (std::vector<ActivityOutcome>{kFailed, kDone}));
  EXPECT_EQ(ends.at, (std::vector<SimTime>{kSecond, 2_s}));
}

// A B-series node (1 vCPU, baseline 20%, 30 initial credits, 12 banked per hour of idling) goes
// 10 min into a full-speed job: it has drained 10 x 0.8 = 8 credits. Back as the same VM (a
// crash) its bank holds what it had and has banked its baseline meanwhile; back as a fresh VM (a
// Spot eviction) its bank is the profile's initial credits again.
TEST(NodeOutage, FreshVmOnReturnResetsTheBurstBank) {
  NodeProfile p = plain();
  p.burst = BurstSpec{20, 12, 288, 30};
  for (const bool fresh : {false, true}) {
    SCOPED_TRACE(fresh ? "fresh VM" : "same VM");
    engine::Simulator sim;
    NodeCompute node(sim, p, RandomStream(1, 0));
    node.start({3600e9, 0}, [](ActivityOutcome) {});
    sim.run_until(600_s);
    node.turn_off();
    EXPECT_DOUBLE_EQ(*node.credits_at(600_s), 22.0);
    sim.run_until(1200_s);
    EXPECT_DOUBLE_EQ(*node.credits_at(1200_s), 24.0);  // + 10 min x 12 / 60
    node.turn_on(fresh);
    EXPECT_DOUBLE_EQ(*node.credits_at(1200_s), fresh ? 30.0 : 24.0);
    EXPECT_DOUBLE_EQ(*node.credits_at(1800_s), fresh ? 32.0 : 26.0);
  }
}

TEST(NodeOutage, TurningANodeOffOrOnTwiceIsAnError) {
  engine::Simulator sim;
  NodeCompute node(sim, plain(), RandomStream(1, 0));
  EXPECT_THROW(node.turn_on(false), std::logic_error);
  node.turn_off();
  EXPECT_THROW(node.turn_off(), std::logic_error);
}

}  // namespace
}  // namespace hermes::cluster
