// Dynamic allocation rules dynamic_allocation_test.cc leaves out (docs/paper.md, "Hermes",
// dynamic allocation): T_med when a worker reports again before the first round is complete, and
// times exactly on the outlier fences with IQR > 0.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "sim/policies/dynamic_allocation.h"

namespace hermes::protocols {
namespace {

AllocatorConfig config(int workers) {
  AllocatorConfig c;
  c.workers = workers;
  c.min_chunk = 16;
  c.max_chunk = 60000;
  c.dataset_size = 60000;
  return c;
}

// "T_med = median of all workers' first-round times, frozen" (spec): a fast worker that reports
// again before the slowest has reported once must not pull the target towards its later times.
TEST(AllocationRules, MedianTakesEachWorkersFirstTimeWhenSomeReportAgainBeforeTheRoundCompletes) {
  DynamicAllocator a(config(3));
  for (const double t : {1.0, 5.0, 9.0}) {
    const AllocationDecision d = a.report(0, t, 6000);
    EXPECT_EQ(d.reason, AllocationReason::kFirstRoundIncomplete);
    EXPECT_EQ(d.next_chunk, 6000);
    EXPECT_FALSE(d.t_med.has_value());
  }
  a.report(1, 2.0, 6000);
  const AllocationDecision d = a.report(2, 3.0, 6000);
  ASSERT_TRUE(d.t_med.has_value());
  EXPECT_DOUBLE_EQ(*d.t_med, 2.0);  // median {1, 2, 3}; the latest times {9, 2, 3} give 3
  EXPECT_DOUBLE_EQ(*a.latest_time(0), 9.0);
  // The frozen 2 s is what outliers aim at: 1 s under it.
  const AllocationDecision slow = a.report(0, 100.0, 6000);
  EXPECT_EQ(slow.reason, AllocationReason::kSlowOutlier);
  EXPECT_DOUBLE_EQ(*slow.target_time, 1.0);
  EXPECT_EQ(slow.next_chunk, 60);  // ceil(6000 * 1 / 100)
}

// Five workers, the first four at 4, 5, 6, 7 s: the fifth's peers have Q1 = 4.75, Q3 = 6.25,
// IQR = 1.5, so the fences are 2.5 and 8.5 exactly (binary fractions, no rounding).
AllocationDecision fifth_worker_reports(double seconds, std::int64_t chunk) {
  DynamicAllocator a(config(5));
  for (int w = 0; w < 4; ++w) a.report(w, 4.0 + w, chunk);
  return a.report(4, seconds, chunk);
}

// "Outlier if T_i >= Q3 + 1.5 IQR" (spec): the bound itself is slow; just under it is not.
TEST(AllocationRules, ATimeExactlyOnTheUpperFenceIsASlowOutlier) {
  const AllocationDecision d = fifth_worker_reports(8.5, 1700);
  ASSERT_TRUE(d.quartiles.has_value());
  EXPECT_EQ(d.quartiles->q1, 4.75);
  EXPECT_EQ(d.quartiles->q3, 6.25);
  EXPECT_EQ(d.quartiles->upper_fence, 8.5);
  EXPECT_EQ(d.reason, AllocationReason::kSlowOutlier);
  EXPECT_DOUBLE_EQ(*d.t_med, 6.0);  // median {4, 5, 6, 7, 8.5}
  EXPECT_EQ(d.next_chunk, 1000);    // ceil(1700 * (6 - 1) / 8.5)
  const AllocationDecision inside = fifth_worker_reports(std::nextafter(8.5, 0.0), 1700);
  EXPECT_EQ(inside.reason, AllocationReason::kWithinFences);
  EXPECT_EQ(inside.next_chunk, 1700);
}

// "... or T_i <= Q1 - 1.5 IQR" (spec): the bound itself is fast; just above it is not.
TEST(AllocationRules, ATimeExactlyOnTheLowerFenceIsAFastOutlier) {
  const AllocationDecision d = fifth_worker_reports(2.5, 1000);
  ASSERT_TRUE(d.quartiles.has_value());
  EXPECT_EQ(d.quartiles->lower_fence, 2.5);
  EXPECT_EQ(d.reason, AllocationReason::kFastOutlier);
  EXPECT_DOUBLE_EQ(*d.t_med, 5.0);  // median {2.5, 4, 5, 6, 7}
  EXPECT_EQ(d.next_chunk, 1600);    // ceil(1000 * (5 - 1) / 2.5)
  const AllocationDecision inside = fifth_worker_reports(std::nextafter(2.5, 10.0), 1000);
  EXPECT_EQ(inside.reason, AllocationReason::kWithinFences);
  EXPECT_EQ(inside.next_chunk, 1000);
}

}  // namespace
}  // namespace hermes::protocols
