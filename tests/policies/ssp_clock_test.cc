// SSP clocks: hand-made schedules and a randomized property test against a brute-force model.
#include "sim/policies/ssp_clock.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "base/random.h"

namespace hermes::protocols {
namespace {

TEST(SspClocks, StalenessZeroIsABarrier) {
  SspClocks c(3, 0);
  for (int w = 0; w < 3; ++w) EXPECT_TRUE(c.try_start(w));
  for (int round = 1; round <= 3; ++round) {
    // Workers 0 and 1 finish first and must wait for worker 2.
    EXPECT_TRUE(c.advance(0).empty());
    EXPECT_FALSE(c.try_start(0));
    EXPECT_TRUE(c.advance(1).empty());
    EXPECT_FALSE(c.try_start(1));
    EXPECT_EQ(c.blocked_count(), 2);
    EXPECT_EQ(c.min_clock(), round - 1);
    EXPECT_EQ(c.advance(2), (std::vector<int>{0, 1}));  // the last one releases them in order
    EXPECT_EQ(c.min_clock(), round);
    EXPECT_EQ(c.max_clock(), round);
    EXPECT_EQ(c.blocked_count(), 0);
    EXPECT_TRUE(c.try_start(2));
  }
}

TEST(SspClocks, StalenessTwoHandSchedule) {
  SspClocks c(2, 2);
  // Worker 0 runs ahead while worker 1 stays at clock 0.
  EXPECT_TRUE(c.advance(0).empty());
  EXPECT_TRUE(c.try_start(0));  // 1 - 0 <= 2
  EXPECT_TRUE(c.advance(0).empty());
  EXPECT_TRUE(c.try_start(0));  // 2 - 0 <= 2
  EXPECT_TRUE(c.advance(0).empty());
  EXPECT_EQ(c.clock(0), 3);  // spread 3 = s + 1: reached only by finishing
  EXPECT_FALSE(c.may_start(0));
  EXPECT_FALSE(c.try_start(0));  // 3 - 0 > 2: blocked
  EXPECT_TRUE(c.is_blocked(0));
  EXPECT_EQ(c.advance(1), (std::vector<int>{0}));  // min 1: 3 - 1 <= 2
  EXPECT_FALSE(c.is_blocked(0));
  EXPECT_TRUE(c.try_start(1));
  EXPECT_EQ(c.min_clock(), 1);
  EXPECT_EQ(c.max_clock(), 3);
}

TEST(SspClocks, HugeStalenessNeverBlocks) {
  SspClocks c(3, std::numeric_limits<std::int64_t>::max());  // ASP
  for (int i = 0; i < 1000; ++i) {
    EXPECT_TRUE(c.advance(0).empty());
    EXPECT_TRUE(c.try_start(0));
  }
  EXPECT_EQ(c.clock(0), 1000);
  EXPECT_EQ(c.min_clock(), 0);
}

TEST(SspClocks, RejectsMisuse) {
  EXPECT_THROW(SspClocks(0, 1), std::invalid_argument);
  EXPECT_THROW(SspClocks(2, -1), std::invalid_argument);
  SspClocks c(2, 0);
  EXPECT_THROW(c.advance(2), std::out_of_range);
  EXPECT_THROW(c.may_start(-1), std::out_of_range);
  c.advance(0);
  EXPECT_FALSE(c.try_start(0));
  EXPECT_THROW(c.advance(0), std::logic_error);    // blocked workers do not compute
  EXPECT_THROW(c.try_start(0), std::logic_error);  // already waiting
}

// Random interleavings: at every step one running worker (chosen at random) finishes. The model
// recomputes everything from the clocks; the class must agree at every step, wake each blocked
// worker exactly at the first advance that allows it, and keep the spread within s + 1.
TEST(SspClocks, RandomSchedulesMatchTheBruteForceModel) {
  RandomStream rng(125, 3);
  std::int64_t total_wakes = 0, total_blocks = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 1 + static_cast<int>(rng.uniform_int(6));
    const std::int64_t s = static_cast<std::int64_t>(rng.uniform_int(4));
    SspClocks c(n, s);
    std::vector<std::int64_t> clock(n, 0);
    std::vector<bool> blocked(n, false);
    std::int64_t wakes = 0, blocks = 0;
    for (int step = 0; step < 400; ++step) {
      std::vector<int> running;
      for (int w = 0; w < n; ++w) {
        if (!blocked[w]) running.push_back(w);
      }
      ASSERT_FALSE(running.empty()) << "deadlock";  // the slowest worker can always run
      const int w = running[rng.uniform_int(running.size())];

      ++clock[w];
      const std::vector<int> woken = c.advance(w);
      const std::int64_t min = *std::min_element(clock.begin(), clock.end());
      const std::int64_t max = *std::max_element(clock.begin(), clock.end());
      std::vector<int> expected;
      for (int v = 0; v < n; ++v) {
        if (blocked[v] && clock[v] - min <= s) {
          expected.push_back(v);
          blocked[v] = false;
        }
      }
      ASSERT_EQ(woken, expected) << "trial " << trial << " step " << step;
      wakes += static_cast<std::int64_t>(woken.size());
      ASSERT_EQ(c.min_clock(), min);
      ASSERT_EQ(c.max_clock(), max);
      ASSERT_LE(max - min, s + 1);

      const bool may = clock[w] - min <= s;
      ASSERT_EQ(c.try_start(w), may);
      if (!may) {
        blocked[w] = true;
        ++blocks;
      }
      for (int v = 0; v < n; ++v) {
        ASSERT_EQ(c.clock(v), clock[v]);
        ASSERT_EQ(c.is_blocked(v), blocked[v]);
        if (blocked[v]) {
          ASSERT_GT(clock[v] - min, s);  // nobody waits longer than needed
        }
      }
    }
    // Every block is matched by a wake, except for those still waiting.
    EXPECT_EQ(blocks - wakes, c.blocked_count());
    total_wakes += wakes;
    total_blocks += blocks;
  }
  EXPECT_GT(total_blocks, 1000);  // the schedules really exercise blocking
  EXPECT_GT(total_wakes, 1000);
}

}  // namespace
}  // namespace hermes::protocols
