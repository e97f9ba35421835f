// ZipLine on hand-made timelines, plus a brute-force check of the optimal spread.
#include "sim/policies/zipline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "base/random.h"

namespace hermes::protocols {
namespace {

TEST(ZipLine, IntervalsOneAndThreeMeetAtTheFirstCommonTime) {
  // Predicted 1, 2, 3, 4, 5, 6 and 3, 6, 9, 12, 15, 18: the first complete set with spread 0 is
  // {3, 3} (at time 3 worker 0's push sorts before worker 1's). {6, 6} is as tight but later.
  const std::vector<WorkerTrend> trends = {{0.0, 1.0}, {0.0, 3.0}};
  const ZipLineResult r = zipline(trends, 6);
  EXPECT_EQ(r.iterations, (std::vector<int>{3, 1}));
  EXPECT_EQ(r.stop_times, (std::vector<double>{3.0, 3.0}));
  EXPECT_EQ(r.spread, 0.0);
  EXPECT_EQ(r.barrier_time, 3.0);
}

TEST(ZipLine, LookAheadDecidesHowFarTheBarrierCanMove) {
  // Intervals 1 and 2.5: worker 0 at 1, 2, 3, 4, 5, 6; worker 1 at 2.5, 5, 7.5, ...
  const std::vector<WorkerTrend> trends = {{0.0, 1.0}, {0.0, 2.5}};
  // R = 6: the sets are {2, 2.5} 0.5, {3, 2.5} 0.5, {4, 2.5} 1.5, {5, 2.5} 2.5, {5, 5} 0 -> {5, 5}.
  ZipLineResult r = zipline(trends, 6);
  EXPECT_EQ(r.iterations, (std::vector<int>{5, 2}));
  EXPECT_EQ(r.spread, 0.0);
  EXPECT_EQ(r.barrier_time, 5.0);
  // R = 3: worker 0 stops at 3, so {5, 5} is out of reach: the sets are {2, 2.5} 0.5,
  // {3, 2.5} 0.5, {3, 5} 2, {3, 7.5} 4.5; the tie goes to the earliest, {2, 2.5}.
  r = zipline(trends, 3);
  EXPECT_EQ(r.iterations, (std::vector<int>{2, 1}));
  EXPECT_DOUBLE_EQ(r.spread, 0.5);
  EXPECT_EQ(r.barrier_time, 2.5);
}

TEST(ZipLine, EqualIntervalsStopAfterOneIteration) {
  const std::vector<WorkerTrend> trends = {{10.0, 7.3}, {10.0, 7.3}, {10.0, 7.3}, {10.0, 7.3}};
  const ZipLineResult r = zipline(trends, 150);
  EXPECT_EQ(r.iterations, (std::vector<int>{1, 1, 1, 1}));
  EXPECT_EQ(r.spread, 0.0);
  EXPECT_DOUBLE_EQ(r.barrier_time, 17.3);
}

TEST(ZipLine, TiesGoToTheEarliestSet) {
  // Offsets 0 and 0.5, interval 1: every complete set has spread 0.5; the first is {1, 1.5}.
  const std::vector<WorkerTrend> trends = {{0.0, 1.0}, {0.5, 1.0}};
  const ZipLineResult r = zipline(trends, 5);
  EXPECT_EQ(r.iterations, (std::vector<int>{1, 1}));
  EXPECT_DOUBLE_EQ(r.spread, 0.5);
  EXPECT_DOUBLE_EQ(r.barrier_time, 1.5);
}

TEST(ZipLine, TiesSurviveRoundingOfThePredictions) {
  // Offsets 0 and 0.1 with interval 0.1: the spreads are all 0.1 on paper but differ in the last
  // bits in double (k * 0.1 is rounded); the earliest set still wins.
  const std::vector<WorkerTrend> trends = {{0.0, 0.1}, {0.1, 0.1}};
  const ZipLineResult r = zipline(trends, 20);
  // The first complete set is {0.2 (k=2), 0.2 (k=1)} with spread 0, at time 0.2.
  EXPECT_EQ(r.iterations, (std::vector<int>{2, 1}));
  EXPECT_NEAR(r.spread, 0.0, 1e-15);
  const std::vector<WorkerTrend> shifted = {{0.0, 0.3}, {0.1, 0.3}};
  const ZipLineResult s = zipline(shifted, 30);  // every set has spread 0.1 or 0.2
  EXPECT_EQ(s.iterations, (std::vector<int>{1, 1}));
  EXPECT_NEAR(s.spread, 0.1, 1e-12);
}

TEST(ZipLine, LookAheadOneTakesEveryWorkersNextPush) {
  const std::vector<WorkerTrend> trends = {{0.0, 4.0}, {1.0, 9.0}, {2.0, 1.0}};
  const ZipLineResult r = zipline(trends, 1);
  EXPECT_EQ(r.iterations, (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(r.stop_times, (std::vector<double>{4.0, 10.0, 3.0}));
  EXPECT_EQ(r.spread, 7.0);
  EXPECT_EQ(r.barrier_time, 10.0);
}

TEST(ZipLine, SingleWorkerStopsAtOnce) {
  const std::vector<WorkerTrend> trends = {{3.0, 2.0}};
  const ZipLineResult r = zipline(trends, 10);
  EXPECT_EQ(r.iterations, (std::vector<int>{1}));
  EXPECT_EQ(r.spread, 0.0);
  EXPECT_EQ(r.barrier_time, 5.0);
}

TEST(ZipLine, ThreeWorkersHandMade) {
  // Worker 0 every 2 s, worker 1 every 3 s from t = 1, worker 2 every 5 s.
  // Timeline: 2(w0) 4(w0) 4(w1) 5(w2) {4,4,5} spread 1, 6(w0) {6,4,5} 2, 7(w1) {6,7,5} 2,
  // 8(w0) {8,7,5} 3, 10(w0) {10,7,5}, 10(w1) {10,10,5}, 10(w2) {10,10,10} spread 0.
  const std::vector<WorkerTrend> trends = {{0.0, 2.0}, {1.0, 3.0}, {0.0, 5.0}};
  const ZipLineResult r = zipline(trends, 5);
  EXPECT_EQ(r.iterations, (std::vector<int>{5, 3, 2}));
  EXPECT_EQ(r.spread, 0.0);
  EXPECT_EQ(r.barrier_time, 10.0);
  // With R = 4 worker 0 ends at 8: the best is {4, 4, 5}.
  const ZipLineResult r4 = zipline(trends, 4);
  EXPECT_EQ(r4.iterations, (std::vector<int>{2, 1, 1}));
  EXPECT_EQ(r4.spread, 1.0);
  EXPECT_EQ(r4.barrier_time, 5.0);
}

TEST(ZipLine, AcceptsExplicitPredictions) {
  const std::vector<std::vector<double>> predicted = {{1.0, 4.0, 9.0}, {3.5, 8.0}};
  const ZipLineResult r = zipline_predicted(predicted);
  // Sets: {1, 3.5} 2.5, {4, 3.5} 0.5, {4, 8} 4, {9, 8} 1 -> {4, 3.5}.
  EXPECT_EQ(r.iterations, (std::vector<int>{2, 1}));
  EXPECT_DOUBLE_EQ(r.spread, 0.5);
  EXPECT_EQ(r.barrier_time, 4.0);
}

// The sweep's spread is the minimum over ALL combinations of one predicted push per worker: for
// the best combination, at its max the workers' latest times are no earlier than its members.
TEST(ZipLine, MatchesBruteForceMinimumSpread) {
  RandomStream rng(2019, 7);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 3;
    const int R = 1 + static_cast<int>(rng.uniform_int(5));
    std::vector<WorkerTrend> trends;
    for (int i = 0; i < n; ++i) trends.push_back({rng.uniform(0, 3), rng.uniform(0.5, 4)});
    const ZipLineResult r = zipline(trends, R);
    double best = std::numeric_limits<double>::infinity();
    for (int a = 1; a <= R; ++a) {
      for (int b = 1; b <= R; ++b) {
        for (int c = 1; c <= R; ++c) {
          const double ta = trends[0].last_push_time + a * trends[0].interval;
          const double tb = trends[1].last_push_time + b * trends[1].interval;
          const double tc = trends[2].last_push_time + c * trends[2].interval;
          best = std::min(best, std::max({ta, tb, tc}) - std::min({ta, tb, tc}));
        }
      }
    }
    EXPECT_NEAR(r.spread, best, 1e-9) << "trial " << trial;
    for (int i = 0; i < n; ++i) {
      ASSERT_GE(r.iterations[i], 1);
      ASSERT_LE(r.iterations[i], R);
      EXPECT_EQ(r.stop_times[i], trends[i].last_push_time + r.iterations[i] * trends[i].interval);
    }
    EXPECT_EQ(r.barrier_time, *std::max_element(r.stop_times.begin(), r.stop_times.end()));
  }
}

TEST(ZipLine, LargeInputGivesOneTargetPerWorker) {
  RandomStream rng(1, 1);
  std::vector<WorkerTrend> trends;
  for (int i = 0; i < 64; ++i) trends.push_back({rng.uniform(0, 10), rng.uniform(3, 30)});
  const ZipLineResult r = zipline(trends, 500);  // 32,000 predicted pushes
  EXPECT_EQ(r.iterations.size(), 64u);
  EXPECT_GE(r.spread, 0.0);
}

TEST(ZipLine, RejectsBadInput) {
  const std::vector<WorkerTrend> ok = {{0.0, 1.0}};
  EXPECT_THROW(zipline(ok, 0), std::invalid_argument);
  EXPECT_THROW(zipline(std::vector<WorkerTrend>{}, 3), std::invalid_argument);
  EXPECT_THROW(zipline(std::vector<WorkerTrend>{{0.0, 0.0}}, 3), std::invalid_argument);
  EXPECT_THROW(zipline(std::vector<WorkerTrend>{{0.0, -1.0}}, 3), std::invalid_argument);
  EXPECT_THROW(zipline(std::vector<WorkerTrend>{{std::nan(""), 1.0}}, 3), std::invalid_argument);
  EXPECT_THROW(zipline_predicted({{1.0}, {}}), std::invalid_argument);
  EXPECT_THROW(zipline_predicted({{2.0, 1.0}}), std::invalid_argument);
}

}  // namespace
}  // namespace hermes::protocols
