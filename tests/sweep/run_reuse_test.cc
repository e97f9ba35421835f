// The results a sweep's points share (sim/sweep/run_reuse.h): each distinct run computed once,
// copies handed to the other points, nothing held once no point left needs it, and a failed
// computation handed on to the next point that needs the run.
#include "sim/sweep/run_reuse.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <stdexcept>
#include <string>
#include <thread>

namespace hermes::sweep {
namespace {

// Three points of two runs; run 0 is the same run at every point, run 1 differs at each.
DistinctRuns three_points() {
  DistinctRuns d;
  d.ids = {{0, 1}, {0, 2}, {0, 3}};
  d.count = 4;
  return d;
}

TEST(RunReuse, TheFirstClaimComputesTheOthersGetACopy) {
  RunReuse<std::string> reuse(three_points(), {0, 1, 2});
  std::optional<std::string> got;
  ASSERT_EQ(reuse.claim(0, 0, got), RunClaim::kCompute);
  EXPECT_FALSE(got);
  reuse.fulfil(0, 0, "shared");
  // A run no other point has is computed and not kept.
  ASSERT_EQ(reuse.claim(0, 1, got), RunClaim::kCompute);
  reuse.fulfil(0, 1, "only point 0's");
  EXPECT_EQ(reuse.held(), 1u);
  ASSERT_EQ(reuse.claim(1, 0, got), RunClaim::kReady);
  EXPECT_EQ(got, "shared");
  got.reset();
  ASSERT_EQ(reuse.claim(2, 0, got), RunClaim::kReady);
  EXPECT_EQ(got, "shared");
  EXPECT_EQ(reuse.reused(), 2u);
  // The last point that needed it took it: nothing is held.
  EXPECT_EQ(reuse.held(), 0u);
  ASSERT_EQ(reuse.claim(1, 1, got), RunClaim::kCompute);  // another run
}

TEST(RunReuse, OnlyThePointsStillToRunCount) {
  // A resumed sweep with point 0 done: its runs are not kept for it.
  RunReuse<std::string> reuse(three_points(), {1, 2});
  std::optional<std::string> got;
  ASSERT_EQ(reuse.claim(1, 0, got), RunClaim::kCompute);
  reuse.fulfil(1, 0, "x");
  ASSERT_EQ(reuse.claim(2, 0, got), RunClaim::kReady);
  EXPECT_EQ(reuse.held(), 0u);
}

TEST(RunReuse, APointFindingTheRunBeingComputedWaitsForIt) {
  RunReuse<std::string> reuse(three_points(), {0, 1, 2});
  std::optional<std::string> got;
  ASSERT_EQ(reuse.claim(0, 0, got), RunClaim::kCompute);
  ASSERT_EQ(reuse.claim(1, 0, got), RunClaim::kBusy);
  std::atomic<int> ticks{0};
  auto waiter = std::async(std::launch::async, [&] {
    std::optional<std::string> mine;
    const RunClaim c = reuse.wait(1, 0, mine, [&] { ++ticks; });
    return std::make_pair(c, mine);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(250));
  reuse.fulfil(0, 0, "late");
  const auto [claim, result] = waiter.get();
  EXPECT_EQ(claim, RunClaim::kReady);
  EXPECT_EQ(result, "late");
  EXPECT_GE(ticks.load(), 1);  // it looked at its deadline while waiting
}

TEST(RunReuse, AnAbandonedRunIsComputedByTheNextPointThatNeedsIt) {
  RunReuse<std::string> reuse(three_points(), {0, 1, 2});
  std::optional<std::string> got;
  ASSERT_EQ(reuse.claim(0, 0, got), RunClaim::kCompute);
  ASSERT_EQ(reuse.claim(1, 0, got), RunClaim::kBusy);
  reuse.abandon(0, 0);  // point 0 timed out
  ASSERT_EQ(reuse.wait(1, 0, got, nullptr), RunClaim::kCompute);
  reuse.fulfil(1, 0, "second try");
  // Point 2 still needed it: it was kept for it.
  ASSERT_EQ(reuse.claim(2, 0, got), RunClaim::kReady);
  EXPECT_EQ(got, "second try");
  EXPECT_EQ(reuse.held(), 0u);
}

TEST(RunReuse, AWaitStopsWhenItsTickThrows) {
  RunReuse<std::string> reuse(three_points(), {0, 1, 2});
  std::optional<std::string> got;
  ASSERT_EQ(reuse.claim(0, 0, got), RunClaim::kCompute);
  EXPECT_THROW(reuse.wait(1, 0, got, [] { throw std::runtime_error("past its timeout"); }),
               std::runtime_error);
  reuse.fulfil(0, 0, "done");
  ASSERT_EQ(reuse.claim(2, 0, got), RunClaim::kReady);
}

}  // namespace
}  // namespace hermes::sweep
