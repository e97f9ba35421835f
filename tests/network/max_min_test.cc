#include "sim/network/max_min.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace hermes::network {
namespace {

// Links: L0 cap 10, L1 cap 8, L2 cap 3. Flows A {L0, L1}, B {L0}, C {L1, L2}, D {L2}.
// By hand: L2 is tightest (3 / 2 = 1.5) -> C = D = 1.5. Then L0: 10 / 2 = 5 beats L1: (8 - 1.5) / 1
// = 6.5 -> A = B = 5. L1 ends with 1.5 unused: max-min, not proportional or equal shares.
TEST(MaxMinSolver, TextbookExample) {
  MaxMinSolver solver({10, 8, 3});
  const std::vector<LinkId> a{0, 1}, b{0}, c{1, 2}, d{2};
  std::vector<double> rates;
  solver.solve({&a, &b, &c, &d}, rates);
  ASSERT_EQ(rates.size(), 4u);
  EXPECT_DOUBLE_EQ(rates[0], 5.0);
  EXPECT_DOUBLE_EQ(rates[1], 5.0);
  EXPECT_DOUBLE_EQ(rates[2], 1.5);
  EXPECT_DOUBLE_EQ(rates[3], 1.5);

  // Scratch is reset between solves: same input, same answer; subsets see full capacity again.
  solver.solve({&a, &b, &c, &d}, rates);
  EXPECT_DOUBLE_EQ(rates[0], 5.0);
  EXPECT_DOUBLE_EQ(rates[2], 1.5);
  solver.solve({&a}, rates);
  EXPECT_DOUBLE_EQ(rates[0], 8.0);  // bottleneck L1
}

TEST(MaxMinSolver, EqualSharesAndUnconstrainedFlow) {
  MaxMinSolver solver({9, 100});
  const std::vector<LinkId> on0{0}, none{};
  std::vector<double> rates;
  solver.solve({&on0, &on0, &on0, &none}, rates);
  EXPECT_DOUBLE_EQ(rates[0], 3.0);
  EXPECT_DOUBLE_EQ(rates[1], 3.0);
  EXPECT_DOUBLE_EQ(rates[2], 3.0);
  EXPECT_TRUE(std::isinf(rates[3]));
  solver.solve({}, rates);
  EXPECT_TRUE(rates.empty());
}

// A chain where each fixing step changes the next link's share: every flow gets its fair share
// of what the tighter links left, and no link is over-subscribed.
TEST(MaxMinSolver, CascadeNeverOversubscribes) {
  // Link i has capacity 2^(i+1); flow i crosses links i..3, so link i carries flows 0..i.
  MaxMinSolver solver({2, 4, 8, 16});
  std::vector<std::vector<LinkId>> routes{{0, 1, 2, 3}, {1, 2, 3}, {2, 3}, {3}};
  std::vector<const std::vector<LinkId>*> ptrs;
  for (const auto& r : routes) ptrs.push_back(&r);
  std::vector<double> rates;
  solver.solve(ptrs, rates);
  // Link0: f0 alone -> 2. Link1: 4 / 2 = 2 is the tightest first (tie with link0 at 2; both give
  // 2). Then link2: (8 - 2 - 2) / 1 = 4 -> f2 = 4. Link3: 16 - 8 = 8 -> f3 = 8.
  EXPECT_DOUBLE_EQ(rates[0], 2.0);
  EXPECT_DOUBLE_EQ(rates[1], 2.0);
  EXPECT_DOUBLE_EQ(rates[2], 4.0);
  EXPECT_DOUBLE_EQ(rates[3], 8.0);
}

}  // namespace
}  // namespace hermes::network
