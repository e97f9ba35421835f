// Dynamic dataset allocation: numpy 'linear' quartiles by hand, outlier fences, the rescaling
// B <- ceil(B (T_med - 1) / T), guards and edge cases.
#include "sim/policies/dynamic_allocation.h"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <vector>

#include "base/diagnostics.h"

namespace hermes::protocols {
namespace {

AllocatorConfig config(int workers) {
  AllocatorConfig c;
  c.workers = workers;
  c.local_epochs = 5;
  c.mini_batch = 16;
  c.min_chunk = 16;
  c.max_chunk = 60000;
  c.dataset_size = 60000;
  return c;
}

TEST(NumpyPercentile, LinearInterpolationLikeNumpy) {
  const std::vector<double> four = {1, 2, 3, 4};
  EXPECT_DOUBLE_EQ(numpy_percentile(four, 25), 1.75);  // position 0.75
  EXPECT_DOUBLE_EQ(numpy_percentile(four, 75), 3.25);  // position 2.25
  EXPECT_DOUBLE_EQ(numpy_median(four), 2.5);
  EXPECT_DOUBLE_EQ(numpy_percentile(four, 0), 1.0);
  EXPECT_DOUBLE_EQ(numpy_percentile(four, 100), 4.0);
  const std::vector<double> three = {1, 2, 3};
  EXPECT_DOUBLE_EQ(numpy_percentile(three, 25), 1.5);
  EXPECT_DOUBLE_EQ(numpy_percentile(three, 75), 2.5);
  EXPECT_DOUBLE_EQ(numpy_median(three), 2.0);
  const std::vector<double> two = {1, 10};
  EXPECT_DOUBLE_EQ(numpy_percentile(two, 25), 3.25);
  EXPECT_DOUBLE_EQ(numpy_percentile(two, 75), 7.75);
  const std::vector<double> one = {5};
  EXPECT_DOUBLE_EQ(numpy_percentile(one, 25), 5.0);
  EXPECT_DOUBLE_EQ(numpy_percentile(one, 75), 5.0);
  const std::vector<double> five = {7.0, 7.2, 7.5, 8.0, 12.0};
  EXPECT_DOUBLE_EQ(numpy_percentile(five, 25), 7.2);  // position 1 exactly
  EXPECT_DOUBLE_EQ(numpy_percentile(five, 75), 8.0);  // position 3 exactly
  EXPECT_THROW(numpy_percentile(std::vector<double>{}, 50), std::invalid_argument);
}

// Five workers, the fifth a B1ms-like straggler at 13 s; T_med = 7.5.
class FiveWorkers : public ::testing::Test {
 protected:
  void first_round() {
    for (int w = 0; w < 4; ++w) {
      const AllocationDecision d = alloc.report(w, times[w], 2500);
      EXPECT_EQ(d.reason, AllocationReason::kFirstRoundIncomplete);
      EXPECT_EQ(d.next_chunk, 2500);
      EXPECT_FALSE(d.t_med.has_value());
      EXPECT_FALSE(alloc.first_round_complete());
    }
  }
  DynamicAllocator alloc{config(5)};
  std::vector<double> times = {7.0, 7.2, 7.5, 8.0, 13.0};
};

TEST_F(FiveWorkers, SlowOutlierIsRescaledOnTheReportThatCompletesTheFirstRound) {
  first_round();
  const AllocationDecision d = alloc.report(4, 13.0, 2500);
  ASSERT_TRUE(d.t_med.has_value());
  EXPECT_DOUBLE_EQ(*d.t_med, 7.5);  // median of {7.0, 7.2, 7.5, 8.0, 13.0}
  ASSERT_TRUE(d.quartiles.has_value());
  // Peers {7.0, 7.2, 7.5, 8.0}: Q1 at position 0.75 = 7.15, Q3 at 2.25 = 7.625.
  EXPECT_NEAR(d.quartiles->q1, 7.15, 1e-12);
  EXPECT_NEAR(d.quartiles->q3, 7.625, 1e-12);
  EXPECT_NEAR(d.quartiles->iqr, 0.475, 1e-12);
  EXPECT_NEAR(d.quartiles->upper_fence, 8.3375, 1e-12);
  EXPECT_NEAR(d.quartiles->lower_fence, 6.4375, 1e-12);
  EXPECT_TRUE(d.outlier);
  EXPECT_EQ(d.reason, AllocationReason::kSlowOutlier);
  EXPECT_DOUBLE_EQ(*d.target_time, 6.5);  // T_med - 1 s
  EXPECT_EQ(d.next_chunk, 1250);          // ceil(2500 * 6.5 / 13)
  EXPECT_FALSE(d.clamped);
  // k = T / (E * B / m) = 13 / (5 * 2500 / 16)
  EXPECT_DOUBLE_EQ(d.seconds_per_step, 13.0 / (5.0 * 2500.0 / 16.0));
}

TEST_F(FiveWorkers, FastOutlierGrowsAndNonOutliersKeepTheirChunk) {
  first_round();
  alloc.report(4, 13.0, 2500);
  // Worker 1 at 7.3 s: peers {7.0, 7.5, 8.0, 13.0}: Q1 = 7.375, Q3 = 9.25, IQR = 1.875, fences
  // [4.5625, 12.0625]: inside.
  AllocationDecision d = alloc.report(1, 7.3, 2500);
  EXPECT_FALSE(d.outlier);
  EXPECT_EQ(d.reason, AllocationReason::kWithinFences);
  EXPECT_EQ(d.next_chunk, 2500);
  EXPECT_NEAR(d.quartiles->q1, 7.375, 1e-12);
  EXPECT_NEAR(d.quartiles->q3, 9.25, 1e-12);
  EXPECT_NEAR(d.quartiles->lower_fence, 4.5625, 1e-12);
  EXPECT_NEAR(d.quartiles->upper_fence, 12.0625, 1e-12);
  // Worker 0 at 2 s: peers {7.3, 7.5, 8.0, 13.0}: Q1 = 7.45, Q3 = 9.25, lower fence 4.75.
  d = alloc.report(0, 2.0, 2500);
  EXPECT_NEAR(d.quartiles->lower_fence, 7.45 - 1.5 * 1.8, 1e-12);
  EXPECT_TRUE(d.outlier);
  EXPECT_EQ(d.reason, AllocationReason::kFastOutlier);
  EXPECT_EQ(d.next_chunk, 8125);  // ceil(2500 * 6.5 / 2)
}

TEST_F(FiveWorkers, MedianIsFrozenAfterTheFirstRound) {
  first_round();
  alloc.report(4, 13.0, 2500);
  for (int round = 0; round < 3; ++round) {
    for (int w = 0; w < 5; ++w) alloc.report(w, 20.0 + w + round, 2500);
  }
  EXPECT_DOUBLE_EQ(*alloc.t_med(), 7.5);
  EXPECT_DOUBLE_EQ(*alloc.latest_time(4), 26.0);
  // Outliers against the new latest times still aim at the frozen 7.5 - 1 s.
  const AllocationDecision d = alloc.report(0, 100.0, 2000);
  EXPECT_TRUE(d.outlier);
  EXPECT_EQ(d.next_chunk, 130);  // ceil(2000 * 6.5 / 100)
}

TEST_F(FiveWorkers, ChunksAreClampedToTheGuards) {
  AllocatorConfig c = config(5);
  c.min_chunk = 200;
  c.max_chunk = 5000;
  DynamicAllocator a(c);
  for (int w = 0; w < 5; ++w) a.report(w, times[w], 2500);
  AllocationDecision d = a.report(0, 2.0, 2500);  // would grow to 8125
  EXPECT_TRUE(d.outlier);
  EXPECT_DOUBLE_EQ(*d.unclamped, 8125.0);
  EXPECT_TRUE(d.clamped);
  EXPECT_EQ(d.next_chunk, 5000);
  d = a.report(4, 1000.0, 2500);  // would shrink to ceil(16.25) = 17
  EXPECT_TRUE(d.outlier);
  EXPECT_TRUE(d.clamped);
  EXPECT_EQ(d.next_chunk, 200);
}

TEST(DynamicAllocator, CeilToleratesRoundingNoise) {
  // T_med = 3.3; 1000 * (3.3 - 1) / 4.6 is 500.00000000000006 in double, 500 exactly on paper.
  DynamicAllocator a(config(4));
  a.report(0, 3.0, 1000);
  a.report(1, 3.3, 1000);
  a.report(2, 3.3, 1000);
  const AllocationDecision d = a.report(3, 4.6, 1000);
  EXPECT_DOUBLE_EQ(*d.t_med, 3.3);
  EXPECT_TRUE(d.outlier);
  EXPECT_EQ(d.next_chunk, 500);
}

TEST(DynamicAllocator, ShortMedianDropsTheOneSecondMargin) {
  // First times {0.5, 0.6, 0.55, 3.0}: T_med = (0.55 + 0.6) / 2 = 0.575 < 2 s, so the target is
  // T_med itself (T_med - 1 s would be negative).
  DynamicAllocator a(config(4));
  a.report(0, 0.5, 1000);
  a.report(1, 0.6, 1000);
  a.report(2, 0.55, 1000);
  const AllocationDecision d = a.report(3, 3.0, 1000);
  EXPECT_DOUBLE_EQ(*d.t_med, 0.575);
  EXPECT_TRUE(d.outlier);
  EXPECT_DOUBLE_EQ(*d.target_time, 0.575);
  EXPECT_EQ(d.next_chunk, 192);  // ceil(1000 * 0.575 / 3) = ceil(191.67)
}

TEST(DynamicAllocator, MedianOfTwoSecondsKeepsTheMargin) {
  DynamicAllocator a(config(3));
  a.report(0, 1.0, 1000);
  a.report(1, 2.0, 1000);
  // Completing report: T_med = 2 >= 2 * margin -> target 1 s. Peers {1, 2}: upper fence 2.5.
  const AllocationDecision d = a.report(2, 10.0, 1000);
  EXPECT_DOUBLE_EQ(*d.t_med, 2.0);
  EXPECT_NEAR(d.quartiles->upper_fence, 1.75 + 1.5 * 0.5, 1e-12);
  EXPECT_DOUBLE_EQ(*d.target_time, 1.0);
  EXPECT_EQ(d.next_chunk, 100);
}

TEST(DynamicAllocator, IdenticalWorkersAreNeverOutliers) {
  // All peers equal: IQR = 0 and both fences equal the common time; a worker exactly as fast is
  // not flagged, a worker off by any amount is.
  DynamicAllocator a(config(4));
  for (int round = 0; round < 3; ++round) {
    for (int w = 0; w < 4; ++w) {
      const AllocationDecision d = a.report(w, 7.0, 2500);
      EXPECT_FALSE(d.outlier);
      EXPECT_EQ(d.next_chunk, 2500);
    }
  }
  const AllocationDecision d = a.report(2, 7.5, 2500);
  EXPECT_EQ(d.quartiles->iqr, 0.0);
  EXPECT_TRUE(d.outlier);
  EXPECT_EQ(d.next_chunk, 2000);  // T_med 7 -> target 6 s: ceil(2500 * 6 / 7.5)
}

TEST(DynamicAllocator, OneWorkerNeverRescales) {
  DynamicAllocator a(config(1));
  AllocationDecision d = a.report(0, 9.0, 2500);
  EXPECT_DOUBLE_EQ(*d.t_med, 9.0);
  EXPECT_EQ(d.reason, AllocationReason::kTooFewPeers);
  d = a.report(0, 100.0, 2500);
  EXPECT_EQ(d.reason, AllocationReason::kTooFewPeers);
  EXPECT_EQ(d.next_chunk, 2500);
  EXPECT_FALSE(d.quartiles.has_value());
}

TEST(DynamicAllocator, TwoWorkersNeedMinPeersOne) {
  DynamicAllocator a(config(2));  // default min_peers 2: no detection with one peer
  a.report(0, 5.0, 1000);
  EXPECT_EQ(a.report(1, 10.0, 1000).reason, AllocationReason::kTooFewPeers);

  AllocatorConfig c = config(2);
  c.min_peers = 1;  // the Python behaviour: quartiles of the single peer
  DynamicAllocator b(c);
  b.report(0, 5.0, 1000);
  AllocationDecision d = b.report(1, 10.0, 1000);  // T_med 7.5; peer {5}: Q1 = Q3 = 5
  EXPECT_DOUBLE_EQ(d.quartiles->q1, 5.0);
  EXPECT_DOUBLE_EQ(d.quartiles->q3, 5.0);
  EXPECT_EQ(d.reason, AllocationReason::kSlowOutlier);
  EXPECT_EQ(d.next_chunk, 650);  // ceil(1000 * 6.5 / 10)
  d = b.report(0, 5.0, 1000);    // peer {10}
  EXPECT_EQ(d.reason, AllocationReason::kFastOutlier);
  EXPECT_EQ(d.next_chunk, 1300);
  d = b.report(0, 10.0, 1300);  // equal to its only peer: kept
  EXPECT_EQ(d.reason, AllocationReason::kWithinFences);
  EXPECT_EQ(d.next_chunk, 1300);
}

TEST(DynamicAllocator, RejectsBadConfigAndBadReports) {
  AllocatorConfig c = config(3);
  c.min_chunk = 0;
  EXPECT_THROW(DynamicAllocator{c}, InputError);
  c = config(3);
  c.max_chunk = 60001;  // larger than the training set
  EXPECT_THROW(DynamicAllocator{c}, InputError);
  c = config(3);
  c.max_chunk = 10;  // below min_chunk 16
  EXPECT_THROW(DynamicAllocator{c}, InputError);
  c = config(0);
  EXPECT_THROW(DynamicAllocator{c}, InputError);
  c = config(3);
  c.margin_seconds = 0;
  EXPECT_THROW(DynamicAllocator{c}, InputError);

  DynamicAllocator a(config(3));
  EXPECT_THROW(a.report(3, 1.0, 100), std::invalid_argument);
  EXPECT_THROW(a.report(-1, 1.0, 100), std::invalid_argument);
  EXPECT_THROW(a.report(0, 0.0, 100), std::invalid_argument);
  EXPECT_THROW(a.report(0, std::numeric_limits<double>::infinity(), 100), std::invalid_argument);
  EXPECT_THROW(a.report(0, 1.0, 0), std::invalid_argument);
}

}  // namespace
}  // namespace hermes::protocols
