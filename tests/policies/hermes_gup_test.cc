// HermesGUP against hand-computed sequences (population std; z values in closed form).
#include "sim/policies/hermes_gup.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "base/diagnostics.h"
#include "base/random.h"

namespace hermes::protocols {
namespace {

std::vector<double> window_of(const HermesGup& g) { return {g.window().begin(), g.window().end()}; }

TEST(HermesGup, HandComputedSequenceWithMajorUpdates) {
  HermesGup g(-1.3, 0.1, /*lambda=*/2, /*window=*/3);

  // 1.0: one element -> minor, no z.
  GupDecision d = g.decide(1.0);
  EXPECT_FALSE(d.major);
  EXPECT_EQ(d.reason, GupReason::kFirstInWindow);
  EXPECT_FALSE(d.z.has_value());
  EXPECT_EQ(d.window_size, 1u);
  EXPECT_EQ(d.minor_streak, 1);
  EXPECT_DOUBLE_EQ(d.threshold_after, -1.3);  // streak 1 < lambda 2: no decay

  // 0.9: window {1.0, 0.9}, mean 0.95, std 0.05, z = -1 > -1.3 -> minor; streak 2 = lambda: decay.
  d = g.decide(0.9);
  EXPECT_FALSE(d.major);
  ASSERT_TRUE(d.z.has_value());
  EXPECT_NEAR(*d.z, -1.0, 1e-12);
  EXPECT_NEAR(*d.mean, 0.95, 1e-15);
  EXPECT_NEAR(*d.stddev, 0.05, 1e-15);
  EXPECT_DOUBLE_EQ(d.threshold_used, -1.3);
  EXPECT_DOUBLE_EQ(d.threshold_after, -1.3 * 0.9);
  EXPECT_EQ(d.minor_streak, 2);

  // 0.5: window {1.0, 0.9, 0.5}, mean 0.8, var 0.14/3, z = -0.3 / sqrt(0.14/3) = -sqrt(27/14).
  d = g.decide(0.5);
  ASSERT_TRUE(d.z.has_value());
  EXPECT_NEAR(*d.z, -std::sqrt(27.0 / 14.0), 1e-12);  // -1.38873
  EXPECT_NEAR(*d.mean, 0.8, 1e-15);
  EXPECT_TRUE(d.major);
  EXPECT_EQ(d.reason, GupReason::kAtOrBelowThreshold);
  EXPECT_EQ(d.window_size, 3u);
  EXPECT_DOUBLE_EQ(d.threshold_used, -1.17);
  EXPECT_DOUBLE_EQ(d.threshold_after, -1.3 * 0.9);  // a major update does not reset z_thres
  EXPECT_EQ(d.minor_streak, 0);
  EXPECT_TRUE(g.window().empty());

  // After the clear: 0.6 is alone again -> minor.
  d = g.decide(0.6);
  EXPECT_FALSE(d.major);
  EXPECT_EQ(d.reason, GupReason::kFirstInWindow);
  // 0.55: z = -1 > -1.17 -> minor, streak 2 -> decay to -1.053.
  d = g.decide(0.55);
  EXPECT_FALSE(d.major);
  EXPECT_NEAR(*d.z, -1.0, 1e-12);
  EXPECT_NEAR(d.threshold_after, -1.053, 1e-12);
  // 0.52: deviations 13/300, -2/300, -11/300 -> z = -11 / sqrt(98) = -1.11117 <= -1.053: major.
  d = g.decide(0.52);
  EXPECT_NEAR(*d.z, -11.0 / std::sqrt(98.0), 1e-12);
  EXPECT_TRUE(d.major);
  EXPECT_NEAR(g.threshold(), -1.053, 1e-12);
}

TEST(HermesGup, ThresholdDecaysFromTheLambdaThMinorUpdateOn) {
  // lambda 3, beta 0.5: the 1st and 2nd minor updates keep -2, the 3rd (streak reaches lambda)
  // decays to -1, then every further minor update halves again.
  HermesGup g(-2.0, 0.5, /*lambda=*/3, /*window=*/3);
  const std::vector<double> expected_after = {-2.0, -2.0, -1.0, -0.5, -0.25, -0.125};
  const std::vector<double> expected_used = {-2.0, -2.0, -2.0, -1.0, -0.5, -0.25};
  // A rising loss is never major: z >= 0 > threshold.
  for (std::size_t i = 0; i < expected_after.size(); ++i) {
    const GupDecision d = g.decide(1.0 + static_cast<double>(i));
    EXPECT_FALSE(d.major) << i;
    EXPECT_EQ(d.minor_streak, static_cast<int>(i) + 1);
    EXPECT_DOUBLE_EQ(d.threshold_used, expected_used[i]) << i;
    EXPECT_DOUBLE_EQ(d.threshold_after, expected_after[i]) << i;
    EXPECT_LE(d.threshold_after, 0.0);
  }
}

TEST(HermesGup, LambdaOneDecaysOnTheFirstMinorUpdate) {
  HermesGup g(-1.0, 0.25, /*lambda=*/1, /*window=*/10);
  EXPECT_DOUBLE_EQ(g.decide(3.0).threshold_after, -0.75);
  EXPECT_DOUBLE_EQ(g.decide(4.0).threshold_after, -0.5625);
}

TEST(HermesGup, BetaZeroNeverDecays) {
  HermesGup g(-1.3, 0.0, 1, 4);
  for (int i = 0; i < 20; ++i) EXPECT_DOUBLE_EQ(g.decide(1.0 + i).threshold_after, -1.3);
}

TEST(HermesGup, WindowEvictsTheOldestAndZUsesOnlyTheLastW) {
  HermesGup g(-5.0, 0.0, 100, 3);  // threshold -5: never major here
  g.decide(100.0);
  g.decide(1.0);
  g.decide(2.0);
  EXPECT_EQ(window_of(g), (std::vector<double>{100.0, 1.0, 2.0}));
  const GupDecision d = g.decide(3.0);  // 100 is evicted: window {1, 2, 3}
  EXPECT_EQ(window_of(g), (std::vector<double>{1.0, 2.0, 3.0}));
  EXPECT_EQ(d.window_size, 3u);
  EXPECT_NEAR(*d.mean, 2.0, 1e-15);
  EXPECT_NEAR(*d.stddev, std::sqrt(2.0 / 3.0), 1e-15);
  EXPECT_NEAR(*d.z, std::sqrt(1.5), 1e-12);
}

TEST(HermesGup, ZOnTheThresholdIsMajor) {
  // Window {3, 1}: mean 2, std 1, so the new loss 1 has z = -1 exactly; threshold -1: major.
  HermesGup g(-1.0, 0.1, 5, 2);
  g.decide(3.0);
  const GupDecision d = g.decide(1.0);
  EXPECT_DOUBLE_EQ(*d.z, -1.0);
  EXPECT_TRUE(d.major);
}

TEST(HermesGup, EqualLossesAreMinorWithZeroStd) {
  // 0.1 three times: the floating-point mean is not exactly 0.1, yet std is reported as exactly 0
  // and no spurious z is computed.
  HermesGup g(-0.5, 0.1, 100, 3);
  g.decide(0.1);
  g.decide(0.1);
  const GupDecision d = g.decide(0.1);
  EXPECT_FALSE(d.major);
  EXPECT_EQ(d.reason, GupReason::kZeroStd);
  EXPECT_FALSE(d.z.has_value());
  EXPECT_EQ(*d.stddev, 0.0);
  EXPECT_EQ(d.minor_streak, 3);
}

TEST(HermesGup, NonFiniteLossIsMinorAndNotPushed) {
  HermesGup g(-1.0, 0.5, 2, 3);
  g.decide(2.0);
  g.decide(1.0);  // z = -1 <= -1: major, window cleared
  g.decide(2.0);
  for (double bad :
       {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
        -std::numeric_limits<double>::infinity()}) {
    const GupDecision d = g.decide(bad);
    EXPECT_FALSE(d.major);
    EXPECT_EQ(d.reason, GupReason::kNonFiniteLoss);
    EXPECT_FALSE(d.z.has_value());
    EXPECT_EQ(window_of(g), (std::vector<double>{2.0}));
  }
  // The three bad losses counted as minor updates: streak 1 + 3 = 4, decayed at streaks 2, 3, 4.
  EXPECT_EQ(g.minor_streak(), 4);
  EXPECT_DOUBLE_EQ(g.threshold(), -0.125);
  // The window still works: {2, 1} gives z = -1 <= -0.125: major.
  const GupDecision d = g.decide(1.0);
  EXPECT_DOUBLE_EQ(*d.z, -1.0);
  EXPECT_TRUE(d.major);
}

TEST(HermesGup, ThresholdNeverRisesAboveZeroAndNeverIncreasesOnRandomLosses) {
  RandomStream rng(42, 1);
  HermesGup g(-1.6, 0.15, 5, 10);
  double previous = g.threshold();
  int majors = 0;
  for (int i = 0; i < 5000; ++i) {
    const GupDecision d = g.decide(rng.lognormal(0.0, 0.3));
    EXPECT_LE(d.threshold_after, 0.0);
    EXPECT_GE(d.threshold_after, previous);  // it only decays towards 0
    EXPECT_EQ(d.threshold_used, previous);
    if (d.major) {
      ++majors;
      EXPECT_LE(*d.z, d.threshold_used);
      EXPECT_TRUE(g.window().empty());
    } else if (d.z) {
      EXPECT_GT(*d.z, d.threshold_used);
    }
    EXPECT_LE(g.window().size(), 10u);
    previous = d.threshold_after;
  }
  EXPECT_GT(majors, 100);  // i.i.d. losses cross a decaying negative threshold often
}

TEST(HermesGup, RejectsParametersOutOfRange) {
  EXPECT_THROW(HermesGup(0.0, 0.1, 5, 10), InputError);
  EXPECT_THROW(HermesGup(0.5, 0.1, 5, 10), InputError);
  EXPECT_THROW(HermesGup(std::numeric_limits<double>::quiet_NaN(), 0.1, 5, 10), InputError);
  EXPECT_THROW(HermesGup(-1.3, 1.0, 5, 10), InputError);
  EXPECT_THROW(HermesGup(-1.3, -0.1, 5, 10), InputError);
  EXPECT_THROW(HermesGup(-1.3, 0.1, 0, 10), InputError);
  EXPECT_THROW(HermesGup(-1.3, 0.1, 5, 1), InputError);
  try {
    HermesGup(-1.3, 0.1, 5, 1);
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("window"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find(">= 2"), std::string::npos);
  }
  EXPECT_NO_THROW(HermesGup(HermesGupParams{}));  // the paper's defaults
}

}  // namespace
}  // namespace hermes::protocols
