// B-series credit bank: Azure's definition, exact in integer nanoseconds.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "sim/cluster/burst_credits.h"

namespace hermes::cluster {
namespace {

using engine::kSecond;
using engine::SimTime;
using namespace engine::time_literals;
constexpr SimTime kMinute = 60 * kSecond;

BurstSpec b1ms() { return {20, 12, 288, 30}; }
BurstSpec b2s() { return {40, 24, 576, 60}; }

TEST(BurstCredits, InitialCreditsAndIdleAccrual) {
  BurstCredits c(b1ms(), 1);
  EXPECT_EQ(c.credits_at(0_ns), 30.0);
  EXPECT_DOUBLE_EQ(c.credits_at(60 * kMinute), 42.0);  // idle: +0.2/min = 12/h
  EXPECT_DOUBLE_EQ(c.credits_at(30 * kMinute), 36.0);
  // 30 + 12 x h reaches 288 after 21.5 h and stays there.
  EXPECT_DOUBLE_EQ(c.credits_at(21 * 60 * kMinute), 282.0);
  EXPECT_EQ(c.credits_at(22 * 60 * kMinute), 288.0);
  EXPECT_EQ(c.credits_at(1000 * 60 * kMinute), 288.0);
  EXPECT_DOUBLE_EQ(c.throttled_speed(), 0.2);
}

TEST(BurstCredits, B1msDepletesMidJob) {
  BurstCredits c(b1ms(), 1);
  // 60 min of full-speed work from t=0: 30 credits / 0.8 per min = 37.5 min at full speed, then
  // the remaining 22.5 min of work at 20% take 112.5 min: ends at 150 min, bank empty.
  const SimTime end = c.run(0_ns, 60 * kMinute);
  EXPECT_EQ(end, 150 * kMinute);
  EXPECT_EQ(c.credits_at(end), 0.0);
  EXPECT_DOUBLE_EQ(c.credits_at(10 * kMinute), 22.0);  // 30 - 0.8 x 10
  EXPECT_EQ(c.credits_at(37 * kMinute + 30 * kSecond), 0.0);
  EXPECT_EQ(c.credits_at(100 * kMinute), 0.0);  // capped at baseline: bank stays at 0
  // An idle hour then adds 12 credits.
  EXPECT_DOUBLE_EQ(c.credits_at(end + 60 * kMinute), 12.0);
  EXPECT_EQ(c.busy_until(), end);
}

TEST(BurstCredits, JobEndingBeforeDepletionLeavesTheRest) {
  BurstCredits c(b1ms(), 1);
  // Idle 60 min: 42 credits. A 20-min job uses 0.8 x 20 = 16: 26 left, no slowdown.
  const SimTime end = c.run(60 * kMinute, 20 * kMinute);
  EXPECT_EQ(end, 80 * kMinute);
  EXPECT_DOUBLE_EQ(c.credits_at(end), 26.0);
  // Next job after 10 idle minutes starts with 28 and needs 40 min: 35 min full speed, the
  // remaining 5 min at 20% = 25 min => 60 min in all.
  const SimTime end2 = c.run(90 * kMinute, 40 * kMinute);
  EXPECT_EQ(end2, 150 * kMinute);
  EXPECT_EQ(c.credits_at(end2), 0.0);
  // Past times stay answerable: inside the first job and the idle gap.
  EXPECT_DOUBLE_EQ(c.credits_at(70 * kMinute), 34.0);
  EXPECT_DOUBLE_EQ(c.credits_at(85 * kMinute), 27.0);
}

TEST(BurstCredits, TwoVcpuDrainAndThrottle) {
  BurstCredits c(b2s(), 2);
  // B2s at 200%: net -1.6/min. 60 credits last 37.5 min; the remaining 2.5 min of work run at
  // 40/200 = 20% and take 12.5 min: 50 min in all.
  const SimTime end = c.run(0_ns, 40 * kMinute);
  EXPECT_EQ(end, 50 * kMinute);
  EXPECT_DOUBLE_EQ(c.credits_at(20 * kMinute), 60.0 - 1.6 * 20);
  EXPECT_DOUBLE_EQ(c.credits_at(end + 60 * kMinute), 24.0);
  EXPECT_DOUBLE_EQ(c.throttled_speed(), 0.2);
}

TEST(BurstCredits, EmptyBankRunsWholeJobAtBaselineAndRoundsOnce) {
  BurstCredits c({10, 6, 144, 0}, 1);
  // 1 ns of work at 10% takes 10 ns; 7 ns takes 70 ns.
  EXPECT_EQ(c.run(0_ns, 7_ns), 70_ns);
  EXPECT_EQ(c.run(70_ns, 0_ns), 70_ns);
  EXPECT_EQ(c.credits_at(70_ns), 0.0);
}

TEST(BurstCredits, ManySmallJobsDoNotDrift) {
  // 10,000 jobs of 7.3 s with 2.7 s idle gaps on a B2ms (60% baseline, 2 vCPUs). Full speed drains
  // 1.4 credits/min, so 60 credits last a few hundred cycles; afterwards each 2.7 s gap banks
  // 0.6 x 2.7 / 60 = 0.027 credits = 0.027 x 6e12 / 140 = 1,157,142,857 ns of full speed, and the
  // remaining 6,142,857,143 ns of work run at 30%: x 200/60 = 20,476,190,477 ns. Every steady-state
  // job therefore takes exactly 21,633,333,334 ns, however long the run.
  BurstCredits c({60, 36, 864, 60}, 2);
  const SimTime work = 7300 * engine::kMillisecond;
  const SimTime gap = 2700 * engine::kMillisecond;
  SimTime t{};
  std::vector<SimTime> durations;
  for (int i = 0; i < 10'000; ++i) {
    const SimTime end = c.run(t, work);
    durations.push_back(end - t);
    t = end + gap;
  }
  EXPECT_EQ(durations.front(), work);  // plenty of credits at first
  for (std::size_t i = 1000; i < durations.size(); ++i) {
    ASSERT_EQ(durations[i], 21'633'333'334_ns) << "job " << i;
  }
  EXPECT_EQ(c.credits_at(c.busy_until()), 0.0);

  BurstCredits empty({60, 36, 864, 0}, 2);
  EXPECT_EQ(empty.run(0_ns, work),
            24'333'333'333_ns);  // whole job at 30%: 7.3e9 / 0.3, rounded once
}

TEST(BurstCredits, RejectsOverlapAndBadSpecs) {
  BurstCredits c(b1ms(), 1);
  const SimTime end = c.run(0_ns, kMinute);
  EXPECT_THROW(c.run(end - 1_ns, kMinute), std::logic_error);
  EXPECT_NO_THROW(c.run(end, kMinute));
  EXPECT_THROW(c.run(c.busy_until(), -1_ns), std::invalid_argument);
  EXPECT_THROW(BurstCredits({0, 0, 10, 0}, 1), std::invalid_argument);
  EXPECT_THROW(BurstCredits({120, 72, 10, 0}, 1), std::invalid_argument);
  EXPECT_THROW(BurstCredits({20, 12, 10, 11}, 1), std::invalid_argument);
}

}  // namespace
}  // namespace hermes::cluster
