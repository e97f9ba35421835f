// Slowdowns in the compute model: work integrated across speed intervals, exactly, alone and
// composed with B-series burst credits; no change at all where no interval touches a job.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "sim/cluster/burst_credits.h"
#include "sim/cluster/node_compute.h"
#include "sim/cluster/speed_schedule.h"
#include "sim/engine/simulator.h"

namespace hermes::cluster {
namespace {

using engine::kSecond;
using engine::SimTime;
using namespace engine::time_literals;
constexpr SimTime kMinute = 60 * kSecond;

SpeedSchedule one(SimTime start, SimTime end, double factor) {
  return SpeedSchedule({{start, end, factor}});
}

TEST(SpeedSchedule, FinishIntegratesAcrossIntervals) {
  // 2 s of work from 0; [1, 2) s at half speed does 0.5 s of it; the last 0.5 s at full speed.
  EXPECT_EQ(one(1_s, 2_s, 0.5).finish(0_ns, 2e9, 1.0), 2'500'000'000_ns);
  // Wholly inside: 2 s of work at a quarter of the speed takes 8 s.
  EXPECT_EQ(one(0_s, 10_s, 0.25).finish(1_s, 2e9, 1.0), 9_s);
  // Starting inside and leaving it: [0, 3) s at 0.5 from 2 s gives 0.5 s of work, 1.5 s after.
  EXPECT_EQ(one(0_s, 3_s, 0.5).finish(2_s, 2e9, 1.0), 4'500'000'000_ns);
  // No interval: the plain sum. An interval that starts at the job's end does not touch it.
  EXPECT_EQ(SpeedSchedule().finish(3_s, 2e9, 1.0), 5_s);
  EXPECT_EQ(one(2_s, 3_s, 0.5).finish(0_ns, 2e9, 1.0), 2_s);
  EXPECT_FALSE(one(2_s, 3_s, 0.5).overlaps(0_ns, 2_s));
  EXPECT_TRUE(one(2_s, 3_s, 0.5).overlaps(0_ns, 2_s + 1_ns));
  // Two intervals with a gap, at a base speed of 0.5: [0,1) 0.25 -> 0.25 s, [1,2) 0.5 -> 0.5 s,
  // [2,3) 0.25 -> 0.25 s; the last 0.5 s at 0.5 takes 1 s.
  const SpeedSchedule two({{2_s, 3_s, 0.5}, {0_s, 1_s, 0.5}});  // sorted by the constructor
  EXPECT_EQ(two.finish(0_ns, 1.5e9, 0.5), 4_s);
  EXPECT_DOUBLE_EQ(two.work_between(0_ns, 4_s, 0.5), 1.5e9);
  EXPECT_EQ(two.factor_at(2_s), 0.5);
  EXPECT_EQ(two.factor_at(3_s), 1.0);
}

TEST(SpeedSchedule, RejectsWhatTheLoaderRejects) {
  EXPECT_THROW(one(2_s, 2_s, 0.5), std::invalid_argument);
  EXPECT_THROW(one(1_s, 2_s, 0.0), std::invalid_argument);
  EXPECT_THROW(SpeedSchedule({{0_s, 2_s, 0.5}, {1_s, 3_s, 0.5}}), std::invalid_argument);
  EXPECT_NO_THROW(SpeedSchedule({{0_s, 2_s, 0.5}, {2_s, 3_s, 0.5}}));  // touching is fine
}

NodeProfile plain(double jitter_cv) {
  NodeProfile p;
  p.name = "Test";
  p.vcpus = 2;
  p.compute = {2.0, 500, jitter_cv};  // 4 GFLOP and no steps: 2 s
  return p;
}

SimTime job_end(NodeCompute& node) {
  node.start({4e9, 0}, [](engine::ActivityOutcome) {});
  return node.last_job().end;
}

TEST(NodeComputeSlowdown, JobAcrossInsideAndOutsideAnInterval) {
  engine::Simulator sim;
  NodeCompute across(sim, plain(0), RandomStream(1, 0), one(1_s, 2_s, 0.5));
  EXPECT_EQ(job_end(across), 2'500'000'000_ns);
  EXPECT_EQ(across.last_job().work_ns, 2_s);
  EXPECT_EQ(across.last_job().throttled_extra_ns, 500'000'000_ns);
  // The next job (2.5 s .. ) is past the interval: plain 2 s.
  EXPECT_EQ(job_end(across), 4'500'000'000_ns);

  NodeCompute inside(sim, plain(0), RandomStream(1, 0), one(0_s, 100_s, 0.25));
  EXPECT_EQ(job_end(inside), 8_s);
  NodeCompute none(sim, plain(0), RandomStream(1, 0), one(2_s, 100_s, 0.25));
  EXPECT_EQ(job_end(none), 2_s);  // ends where the interval starts: untouched
}

TEST(NodeComputeSlowdown, NoIntervalOnAJobChangesNothingEvenWithJitter) {
  engine::Simulator sim;
  NodeCompute a(sim, plain(0.3), RandomStream(7, 0));
  NodeCompute b(sim, plain(0.3), RandomStream(7, 0), one(1000_s, 2000_s, 0.1));
  for (int i = 0; i < 50; ++i) {
    a.start({4e9, 10}, [](engine::ActivityOutcome) {});
    b.start({4e9, 10}, [](engine::ActivityOutcome) {});
    ASSERT_EQ(a.last_job().end, b.last_job().end) << "job " << i;
    ASSERT_EQ(a.last_job().work_ns, b.last_job().work_ns);
  }
  ASSERT_LT(a.busy_until(), 1000_s);
}

BurstSpec b1ms() { return {20, 12, 288, 30}; }

TEST(BurstCreditsSlowdown, SlowdownMultipliesFullSpeedAndCreditsDrainByWallClock) {
  // 60 min of work from 0, [0, 20) min at half speed. The bank (30 credits, -0.8/min while busy)
  // runs out at 37.5 min whatever the speed: by then 10 + 17.5 = 27.5 min of work are done; the
  // other 32.5 min at the 20% baseline take 162.5 min: the job ends at 200 min (150 unslowed).
  BurstCredits c(b1ms(), 1);
  EXPECT_EQ(c.run(0_ns, 60 * kMinute, one(0_ns, 20 * kMinute, 0.5)), 200 * kMinute);
  EXPECT_DOUBLE_EQ(c.credits_at(10 * kMinute), 22.0);
  EXPECT_EQ(c.credits_at(37 * kMinute + 30 * kSecond), 0.0);
  EXPECT_EQ(c.credits_at(200 * kMinute), 0.0);
}

TEST(BurstCreditsSlowdown, SlowdownMultipliesTheThrottledSpeed) {
  // Unslowed: full speed to 37.5 min, then 22.5 min of work at 0.2 (ends at 150 min). With
  // [100, 110) min at half speed: 62.5 min x 0.2 = 12.5 min of work before it, 10 x 0.1 = 1
  // inside, the last 9 at 0.2 take 45 min: ends at 155 min.
  BurstCredits c(b1ms(), 1);
  EXPECT_EQ(c.run(0_ns, 60 * kMinute, one(100 * kMinute, 110 * kMinute, 0.5)), 155 * kMinute);
}

TEST(BurstCreditsSlowdown, ASlowedJobThatKeepsItsCreditsPaysForItsLongerWallTime) {
  // 20 min of work, [0, 10) min at half speed: 5 + 15 -> ends at 25 min, having drained
  // 0.8 x 25 = 20 credits of 30 (unslowed: 16 over 20 min).
  BurstCredits c(b1ms(), 1);
  EXPECT_EQ(c.run(0_ns, 20 * kMinute, one(0_ns, 10 * kMinute, 0.5)), 25 * kMinute);
  EXPECT_DOUBLE_EQ(c.credits_at(25 * kMinute), 10.0);
  // A later job that no interval touches is the plain model from that bank.
  BurstCredits plain_bank(b1ms(), 1);
  EXPECT_EQ(plain_bank.run(0_ns, 20 * kMinute, one(20 * kMinute, 30 * kMinute, 0.5)), 20 * kMinute);
  EXPECT_DOUBLE_EQ(plain_bank.credits_at(20 * kMinute), 14.0);
}

TEST(BurstCreditsSlowdown, NodeComputeUsesTheSchedule) {
  engine::Simulator sim;
  NodeProfile p = plain(0);
  p.vcpus = 1;
  p.burst = b1ms();
  p.compute = {1.0, 0, 0};  // 1 GFLOP/s: 3.6e12 FLOP = 60 min
  NodeCompute node(sim, p, RandomStream(1, 0), one(0_ns, 20 * kMinute, 0.5));
  node.start({3.6e12, 0}, [](engine::ActivityOutcome) {});
  EXPECT_EQ(node.last_job().end, 200 * kMinute);
}

}  // namespace
}  // namespace hermes::cluster
