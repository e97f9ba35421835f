// The ETAs of `hermes-sim run` and `sweep` (sim/common/progress_eta.h): the patience lower bound,
// the caps' upper bound, the scenario's runs to go and the sweep's points left.
#include "sim/common/progress_eta.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace hermes {
namespace {

// 10 s of wall for 5 evaluations, 100 updates and 50 simulated seconds, 3 evaluations since the
// best loss out of a patience of 10; the caps far away (the scenario defaults).
RunMeasure measured() {
  return {.wall_s = 10,
          .evaluations = 5,
          .progress = 5,
          .since_best = 3,
          .patience = 10,
          .updates = 100,
          .max_iterations = 200000,
          .sim_time_s = 50,
          .max_sim_time_s = 36000};
}

TEST(RunEta, NoneBeforeTheFirstEvaluation) {
  RunMeasure m = measured();
  m.evaluations = 0;
  EXPECT_FALSE(run_eta(m).has_value());
}

TEST(RunEta, LowerBoundIsTheEvaluationsPatienceLeavesAtTheMeanWallPerEvaluation) {
  const auto eta = run_eta(measured());
  ASSERT_TRUE(eta.has_value());
  EXPECT_DOUBLE_EQ(eta->min_s, 2.0 * 7);  // 2 s per evaluation, 10 - 3 left
  EXPECT_EQ(eta->min_by, EtaBound::kPatience);
}

// Patience in rounds or simulated seconds: what is left of it at the wall time per unit so far.
TEST(RunEta, LowerBoundCountsPatienceInItsOwnUnit) {
  RunMeasure m = measured();
  m.progress = 40;  // 40 simulated seconds (or rounds) in 10 s of wall: 0.25 s each
  m.since_best = 12.5;
  m.patience = 20;
  const auto eta = run_eta(m);
  ASSERT_TRUE(eta.has_value());
  EXPECT_DOUBLE_EQ(eta->min_s, 0.25 * 7.5);
  EXPECT_EQ(eta->min_by, EtaBound::kPatience);
}

TEST(RunEta, UpperBoundIsTheNearestCap) {
  // Updates: 0.1 s each, 199900 left = 19990 s; simulated time: 0.2 s of wall per simulated
  // second, 35950 left = 7190 s: the simulated-time cap comes first.
  auto eta = run_eta(measured());
  ASSERT_TRUE(eta && eta->max_s);
  EXPECT_DOUBLE_EQ(*eta->max_s, 7190.0);
  EXPECT_EQ(eta->max_by, EtaBound::kMaxSimTime);
  RunMeasure m = measured();
  m.max_iterations = 600;  // 500 left: 50 s
  eta = run_eta(m);
  ASSERT_TRUE(eta && eta->max_s);
  EXPECT_DOUBLE_EQ(*eta->max_s, 50.0);
  EXPECT_EQ(eta->max_by, EtaBound::kMaxIterations);
  EXPECT_DOUBLE_EQ(eta->min_s, 14.0);
  EXPECT_EQ(eta->min_by, EtaBound::kPatience);
}

TEST(RunEta, ACapNearerThanPatiencesEndIsBothBounds) {
  // The case: "ETA >= 35 s" while the iteration cap ends the run sooner.
  RunMeasure m = measured();
  m.max_iterations = 105;  // 5 updates left: 0.5 s, before the 14 s patience still allows
  const auto eta = run_eta(m);
  ASSERT_TRUE(eta && eta->max_s);
  EXPECT_DOUBLE_EQ(eta->min_s, 0.5);
  EXPECT_DOUBLE_EQ(*eta->max_s, 0.5);
  EXPECT_EQ(eta->min_by, EtaBound::kMaxIterations);
  EXPECT_EQ(eta->max_by, EtaBound::kMaxIterations);
}

TEST(RunEta, ACapReachedOrPatienceSpentLeavesNothing) {
  RunMeasure m = measured();
  m.updates = 250;
  m.max_iterations = 200;  // a BSP round may overshoot the cap
  auto eta = run_eta(m);
  ASSERT_TRUE(eta && eta->max_s);
  EXPECT_DOUBLE_EQ(*eta->max_s, 0.0);
  EXPECT_DOUBLE_EQ(eta->min_s, 0.0);
  m = measured();
  m.since_best = 12;
  eta = run_eta(m);
  ASSERT_TRUE(eta.has_value());
  EXPECT_DOUBLE_EQ(eta->min_s, 0.0);
}

TEST(RunEta, NoUpperBoundWithoutUpdatesOrSimulatedTime) {
  RunMeasure m = measured();
  m.updates = 0;
  m.sim_time_s = 0;
  const auto eta = run_eta(m);
  ASSERT_TRUE(eta.has_value());
  EXPECT_FALSE(eta->max_s.has_value());
  EXPECT_DOUBLE_EQ(eta->min_s, 14.0);
}

TEST(RunEta, BoundsAreNamedAsSummaryCsvNamesStopReasons) {
  EXPECT_EQ(eta_bound_name(EtaBound::kPatience), "patience");
  EXPECT_EQ(eta_bound_name(EtaBound::kMaxIterations), "max_iterations");
  EXPECT_EQ(eta_bound_name(EtaBound::kMaxSimTime), "max_sim_time");
}

TEST(RunsToGoEta, UnknownUntilARunOfTheKindHasFinished) {
  std::vector<PlannedRun> runs(3, PlannedRun{.estimate_s = 2, .kind = 0, .wall_s = std::nullopt});
  EXPECT_FALSE(runs_to_go_eta(runs, 1).has_value());
  runs[0].wall_s = 30;
  EXPECT_DOUBLE_EQ(*runs_to_go_eta(runs, 1), 60.0);
  EXPECT_DOUBLE_EQ(*runs_to_go_eta(runs, 3), 0.0);  // nothing to go
}

TEST(RunsToGoEta, EstimatesAreScaledByTheMeasuredRatioOfTheirKind) {
  // Protocol runs (kind 0) took 40 and 60 s for estimates of 1 and 1: a ratio of 50. A demo run
  // (kind 1) took 1 s for an estimate of 4: a ratio of 0.25.
  std::vector<PlannedRun> runs = {{1, 0, 40.0}, {1, 0, 60.0}, {4, 1, 1.0}, {1, 0, {}}, {8, 1, {}}};
  EXPECT_DOUBLE_EQ(*runs_to_go_eta(runs, 3), 50.0 + 2.0);
  // A kind nobody measured yet: no estimate rather than a guess.
  runs.push_back({1, 2, {}});
  EXPECT_FALSE(runs_to_go_eta(runs, 3).has_value());
}

TEST(RunsToGoEta, EstimatesOfZeroFallBackToTheMeanMeasuredRun) {
  const std::vector<PlannedRun> runs = {{0, 0, 10.0}, {0, 0, 20.0}, {0, 0, {}}, {0, 0, {}}};
  EXPECT_DOUBLE_EQ(*runs_to_go_eta(runs, 2), 30.0);
}

TEST(SweepEta, QueuedAndRunningPointsAtTheMeanSpreadOverTheSlots) {
  EXPECT_FALSE(sweep_eta(std::nullopt, {1.0}, 3, 2).has_value());
  // 3 queued x 10 s, running points need 6 s and nothing more (past the mean): 36 s on 2 slots.
  EXPECT_DOUBLE_EQ(*sweep_eta(10.0, {4.0, 12.0}, 3, 2), 18.0);
  EXPECT_DOUBLE_EQ(*sweep_eta(10.0, {}, 1, 0), 10.0);  // 0 slots counts as 1
}

TEST(DurationText, SecondsMinutesHours) {
  EXPECT_EQ(duration_text(44.6), "45 s");
  EXPECT_EQ(duration_text(190), "3 min 10 s");
  EXPECT_EQ(duration_text(7500), "2 h 05 min");
  EXPECT_EQ(duration_text(-3), "0 s");
  EXPECT_EQ(duration_text(std::nan("")), "0 s");
  EXPECT_EQ(duration_text(std::numeric_limits<double>::infinity()), "277777777 h 46 min");
}

}  // namespace
}  // namespace hermes
