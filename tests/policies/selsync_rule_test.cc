// SelSync's decision rule: hand-computed sequences whose smoothed relative change crosses delta at
// known steps, the released code's EWMA weights, the warm-up and the parameter checks.
#include "sim/policies/selsync_rule.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace hermes::protocols {
namespace {

std::vector<bool> decisions(const SelSyncParams& p, const std::vector<double>& norms) {
  SelSyncRule rule(p);
  std::vector<bool> out;
  for (double n : norms) out.push_back(rule.observe(n).sync);
  return out;
}

TEST(WindowedEwma, WeighsTheNewestMostAndHasNoValueUntilTheWindowIsFull) {
  WindowedEwma e(3, 0.01);
  e.push(1);
  e.push(2);
  EXPECT_FALSE(e.value());
  e.push(3);
  // Newest first: weights 1, 0.99, 0.99^2 (the released code's 0.99^1..3 up to the common factor).
  const double expected = (3 + 0.99 * 2 + 0.9801 * 1) / (1 + 0.99 + 0.9801);
  ASSERT_TRUE(e.value());
  EXPECT_NEAR(*e.value(), expected, 1e-12);
  e.push(4);  // the oldest (1) leaves the window
  EXPECT_NEAR(*e.value(), (4 + 0.99 * 3 + 0.9801 * 2) / (1 + 0.99 + 0.9801), 1e-12);
}

TEST(WindowedEwma, WindowOneIsTheValueItself) {
  WindowedEwma e(1, 0.5);
  e.push(7.5);
  EXPECT_EQ(*e.value(), 7.5);
  e.push(-2);
  EXPECT_EQ(*e.value(), -2);
}

TEST(SelSyncRule, WithoutSmoothingSyncsWhenTheNormChangesByDeltaOrMore) {
  // window 1: Delta_t = |n_t - n_{t-1}| / n_{t-1}: -, 0.125, 0, 1, 1/18, 1.5/9.5, 0.25 (exactly
  // delta: >= syncs), 0.1. Values exact in binary, so that the tie is a tie.
  SelSyncParams p;
  p.delta = 0.25;
  p.window = 1;
  const std::vector<double> norms{4, 4.5, 4.5, 9, 9.5, 8, 10, 11};
  EXPECT_EQ(decisions(p, norms),
            (std::vector<bool>{true, false, false, true, false, false, true, false}));
  SelSyncRule rule(p);
  EXPECT_FALSE(rule.observe(1.0).change);  // the first step has nothing to compare with
  const SelSyncStep second = rule.observe(1.5);
  ASSERT_TRUE(second.change);
  EXPECT_DOUBLE_EQ(*second.change, 0.5);
  EXPECT_DOUBLE_EQ(*second.smoothed_change, 0.5);
}

TEST(SelSyncRule, SmoothedChangeCrossesDeltaAtAKnownStep) {
  // window 2, alpha 0.5: a smoothed value is (newest + 0.5 older) / 1.5.
  // norms      2     4       4     4         10      10       10
  // nbar       -     10/3    4     4         8       10       10
  // Delta      -     -       0.2   0         1       0.25     0
  // Dbar       -     -       -     0.1/1.5   1/1.5   0.75/1.5 0.125/1.5
  // sync       warm  warm    warm  no        yes     yes      no
  SelSyncParams p;
  p.delta = 0.3;
  p.smoothing = 0.5;
  p.window = 2;
  SelSyncRule rule(p);
  const std::vector<double> norms{2, 4, 4, 4, 10, 10, 10};
  const std::vector<bool> expected{true, true, true, false, true, true, false};
  const std::vector<double> dbar{NAN, NAN, NAN, 0.1 / 1.5, 1 / 1.5, 0.75 / 1.5, 0.125 / 1.5};
  for (std::size_t t = 0; t < norms.size(); ++t) {
    const SelSyncStep s = rule.observe(norms[t]);
    EXPECT_EQ(s.sync, expected[t]) << "step " << t + 1;
    if (std::isnan(dbar[t])) {
      EXPECT_FALSE(s.smoothed_change) << "step " << t + 1;
    } else {
      ASSERT_TRUE(s.smoothed_change) << "step " << t + 1;
      EXPECT_NEAR(*s.smoothed_change, dbar[t], 1e-12) << "step " << t + 1;
    }
  }
  EXPECT_FALSE(SelSyncRule(p).observe(2).smoothed_norm);  // one norm of a window of 2: none
  // A larger delta keeps step 5 local: the crossing moves with the threshold.
  p.delta = 0.7;
  EXPECT_EQ(decisions(p, norms), (std::vector<bool>{true, true, true, false, false, false, false}));
}

TEST(SelSyncRule, WarmUpIsTwoWindowsLessOneStepsOfSyncs) {
  SelSyncParams p;                               // the paper's code's defaults: window 25
  p.delta = std::numeric_limits<double>::max();  // never after the warm-up
  SelSyncRule rule(p);
  for (int t = 1; t <= 2 * selsync_defaults::kWindow - 1; ++t) {
    EXPECT_TRUE(rule.observe(1.0).sync) << t;
  }
  for (int t = 0; t < 10; ++t) EXPECT_FALSE(rule.observe(1.0 + t).sync);
}

TEST(SelSyncRule, DeltaZeroSyncsEveryStep) {
  SelSyncParams p;
  p.delta = 0;
  p.window = 3;
  const std::vector<double> flat(20, 1.0);  // Delta 0 >= 0
  for (bool s : decisions(p, flat)) EXPECT_TRUE(s);
}

TEST(SelSyncRule, AChangeFromAZeroNormIsInfiniteAndZeroToZeroIsNone) {
  EXPECT_EQ(relative_change(0, 0), 0);
  EXPECT_EQ(relative_change(0, 1e-30), std::numeric_limits<double>::infinity());
  EXPECT_DOUBLE_EQ(relative_change(2, 1), 0.5);  // a fall counts as much as a rise
  SelSyncParams p;
  p.window = 1;
  EXPECT_EQ(decisions(p, {0, 0, 1}), (std::vector<bool>{true, false, true}));
}

TEST(SelSyncRule, DefaultsAreTheReleasedCodesScriptValues) {
  const SelSyncParams p;
  EXPECT_EQ(p.delta, 0.3);
  EXPECT_EQ(p.smoothing, 0.01);
  EXPECT_EQ(p.window, 25);
}

TEST(SelSyncRule, ParametersOutOfRangeAreRefused) {
  auto with = [](double delta, double smoothing, int window) {
    SelSyncParams p;
    p.delta = delta;
    p.smoothing = smoothing;
    p.window = window;
    return p;
  };
  EXPECT_THROW(SelSyncRule(with(-0.1, 0.01, 25)), std::invalid_argument);
  EXPECT_THROW(SelSyncRule(with(NAN, 0.01, 25)), std::invalid_argument);
  EXPECT_THROW(SelSyncRule(with(0.3, 1.0, 25)), std::invalid_argument);
  EXPECT_THROW(SelSyncRule(with(0.3, -0.5, 25)), std::invalid_argument);
  EXPECT_THROW(SelSyncRule(with(0.3, 0.01, 0)), std::invalid_argument);
  EXPECT_NO_THROW(SelSyncRule(with(0, 0, 1)));
}

}  // namespace
}  // namespace hermes::protocols
