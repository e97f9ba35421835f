// The stop rule (stop_rule.h; docs/paper.md, "Hermes", stop rule): patience
// on the global test loss, ties included, the accuracy reported at the best loss; then what
// counts as one evaluation in BSP and ASP runs, and the cap on simulated time.
#include "sim/policies/stop_rule.h"

#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <vector>

#include "sim/protocols/registry.h"
#include "tests/support/scenario_text.h"
#include "tests/support/synthetic_blocks.h"

namespace hermes::protocols {
namespace {

// "A tie counts as an improvement" (spec, stop rule): a plateau at the best loss must not stop a
// run, and the tie's evaluation becomes the one reported.
TEST(StopRule, ATieWithTheBestLossIsAnImprovementAndResetsTheCount) {
  StopRule rule(2);
  EXPECT_FALSE(rule.observe(1.0, 0.5));
  EXPECT_FALSE(rule.observe(1.5, 0.6));
  EXPECT_EQ(rule.since_best(), 1);
  EXPECT_FALSE(rule.observe(1.0, 0.7));  // the tie
  EXPECT_TRUE(rule.last_improved());
  EXPECT_EQ(rule.since_best(), 0);
  EXPECT_DOUBLE_EQ(rule.best_loss(), 1.0);
  EXPECT_DOUBLE_EQ(rule.accuracy_at_best(), 0.7);
  EXPECT_FALSE(rule.observe(1.2, 0.8));  // one after the tie: not yet two in a row
  EXPECT_TRUE(rule.observe(1.0000001, 0.8));
}

// "Stop after 25 consecutive aggregations without a new best" (spec, stop rule): the run length,
// and so every reported time, depends on stopping at exactly `patience`, not one earlier or later.
TEST(StopRule, StopsAtExactlyPatienceConsecutiveEvaluationsWithoutImprovement) {
  StopRule rule(3);
  EXPECT_FALSE(rule.observe(2.0, 0.1));
  EXPECT_FALSE(rule.observe(2.5, 0.1));  // 1
  EXPECT_FALSE(rule.observe(2.1, 0.1));  // 2
  EXPECT_FALSE(rule.observe(1.9, 0.2));  // improvement: the count starts again
  EXPECT_EQ(rule.since_best(), 0);
  EXPECT_FALSE(rule.observe(3.0, 0.1));  // 1
  EXPECT_FALSE(rule.observe(3.0, 0.1));  // 2: patience - 1 does not stop
  EXPECT_EQ(rule.since_best(), 2);
  EXPECT_TRUE(rule.observe(1.95, 0.1));  // 3: patience stops, even close to the best
  EXPECT_EQ(rule.since_best(), 3);

  StopRule one(1);
  EXPECT_FALSE(one.observe(1.0, 0.1));  // the first evaluation is always a best
  EXPECT_TRUE(one.observe(1.1, 0.1));
}

// "Reported accuracy = global test accuracy at the best global loss" (spec, stop rule): a later
// evaluation with a better accuracy but a worse loss does not replace it.
TEST(StopRule, ReportedAccuracyIsTheAccuracyAtTheBestLoss) {
  StopRule rule(10);
  rule.observe(0.9, 0.60);
  rule.observe(0.5, 0.80);
  rule.observe(0.7, 0.95);  // better accuracy, worse loss
  EXPECT_FALSE(rule.last_improved());
  EXPECT_DOUBLE_EQ(rule.best_loss(), 0.5);
  EXPECT_DOUBLE_EQ(rule.accuracy_at_best(), 0.80);
  rule.observe(0.4, 0.70);  // a worse accuracy at a better loss does replace it
  EXPECT_DOUBLE_EQ(rule.accuracy_at_best(), 0.70);
}

// Patience in another unit (training.stop.patience_unit): the rule stops when the position is
// the threshold past the best evaluation's position, whatever number of evaluations that is.
TEST(StopRule, WithPositionsPatienceCountsThePositionSinceTheBest) {
  StopRule rule(24);  // e.g. 2 rounds of 12 updates
  EXPECT_FALSE(rule.observe(1.0, 0.5, 3));
  EXPECT_FALSE(rule.observe(1.2, 0.5, 20));  // 17 past the best
  EXPECT_EQ(rule.since_best_position(), 17);
  EXPECT_EQ(rule.since_best(), 1);
  EXPECT_FALSE(rule.observe(1.1, 0.5, 26));  // 23: one short
  EXPECT_FALSE(rule.observe(0.9, 0.6, 40));  // a best: counts from 40
  EXPECT_EQ(rule.since_best_position(), 0);
  EXPECT_FALSE(rule.observe(1.3, 0.6, 63));
  EXPECT_TRUE(rule.observe(1.3, 0.6, 64));  // exactly 24
  EXPECT_EQ(rule.since_best(), 2);
}

// --- In runs -----------------------------------------------------------------------------------

scenario::Scenario three_workers(const std::string& run, int patience, double lr = 0.1) {
  const std::string text = R"({
    "name": "stop-test", "seed": 5,
    "cluster": {"ps": {"profile": "DS3_v2"},
                "workers": [{"profile": "B1ms"}, {"profile": "DS2_v2"}, {"profile": "F4s_v2"}]},
    "training": {"chunk_size": 100, "local_epochs": 1, "batch_size": 16, "learning_rate": )" +
                           std::to_string(lr) + R"(,
                 "stop": {"patience": )" +
                           std::to_string(patience) + R"(, "max_iterations": 3000}},
    "runs": [)" + run + "]}";
  return hermes::testing::scenario_from_text(text, "stop-test");
}

const data::TrainTestSplit& blocks() {
  static const data::TrainTestSplit d = testing::blocks_split();
  return d;
}

// The stop rule written out over a run's global records: where it stops and what it reports.
struct Replayed {
  std::optional<std::size_t> stop;  // index of the evaluation that exhausts the patience
  double best_loss = std::numeric_limits<double>::infinity();
  double accuracy = 0;
};

Replayed replay(const std::vector<AggregationRecord>& global, int patience) {
  Replayed out;
  int since = 0;
  for (std::size_t k = 0; k < global.size(); ++k) {
    if (global[k].loss <= out.best_loss) {
      out.best_loss = global[k].loss;
      out.accuracy = global[k].accuracy;
      since = 0;
    } else if (++since == patience) {
      out.stop = k;
      return out;
    }
  }
  return out;
}

// The patience stop of a run, checked against its global records: it stopped at the very
// evaluation that made `patience` in a row, and reports that run's best loss and its accuracy.
void expect_patience_stop(const RunResult& r, int patience) {
  ASSERT_EQ(r.stop_reason, StopReason::kPatience);
  EXPECT_EQ(r.aggregations, static_cast<std::int64_t>(r.global.size()));
  const Replayed want = replay(r.global, patience);
  ASSERT_TRUE(want.stop.has_value());
  EXPECT_EQ(*want.stop, r.global.size() - 1);
  EXPECT_EQ(r.best_loss, want.best_loss);
  EXPECT_EQ(r.accuracy_at_best, want.accuracy);
}

// In BSP one aggregation is one round (spec, "Baselines"): patience counts rounds, so each
// global evaluation averages all n updates and every worker trained exactly once per evaluation.
// (A high learning rate makes the loss jump: a non-improving round, an improvement that resets
// the count, then two in a row.)
TEST(StopRuleInRuns, BspEvaluatesOncePerRoundAndStopsAfterPatienceRoundsWithoutImprovement) {
  const int patience = 2;
  const auto sc = three_workers(R"({"name": "bsp", "protocol": "bsp"})", patience, 0.9);
  const RunResult r = run_protocol(sc, sc.runs[0], blocks());
  expect_patience_stop(r, patience);
  ASSERT_GT(r.global.size(), static_cast<std::size_t>(patience));
  for (std::size_t k = 0; k < r.global.size(); ++k) {
    EXPECT_EQ(r.global[k].worker, -1) << k;  // a barrier of all workers
    EXPECT_EQ(r.global[k].updates, 3 * static_cast<std::int64_t>(k + 1)) << k;
  }
  EXPECT_EQ(r.updates, 3 * r.aggregations);
  for (const auto n : r.local_iterations) EXPECT_EQ(n, r.aggregations);
}

// In ASP the PS evaluates after every applied update (asp_ssp.cc), so patience counts updates.
TEST(StopRuleInRuns, AspEvaluatesOncePerUpdateAndStopsAfterPatienceUpdatesWithoutImprovement) {
  const int patience = 3;
  const auto sc = three_workers(R"({"name": "asp", "protocol": "asp"})", patience);
  const RunResult r = run_protocol(sc, sc.runs[0], blocks());
  expect_patience_stop(r, patience);
  ASSERT_GT(r.global.size(), static_cast<std::size_t>(patience));
  for (std::size_t k = 0; k < r.global.size(); ++k) {
    EXPECT_GE(r.global[k].worker, 0) << k;  // one worker's update
    EXPECT_EQ(r.global[k].updates, static_cast<std::int64_t>(k + 1)) << k;
  }
  EXPECT_EQ(r.updates, r.aggregations);
}

// Patience in rounds: n updates for ASP. Evaluated after every update, ASP with patience 2
// rounds of 3 workers stops at the evaluation 6 updates past the best one, not 2.
TEST(StopRuleInRuns, PatienceInRoundsCountsNUpdatesForAsynchronousProtocols) {
  const int patience = 2;
  auto sc = three_workers(R"({"name": "asp", "protocol": "asp"})", patience);
  sc.training.stop.patience_unit = scenario::PatienceUnit::kRounds;
  const RunResult r = run_protocol(sc, sc.runs[0], blocks());
  ASSERT_EQ(r.stop_reason, StopReason::kPatience);
  const Replayed by_rounds = replay(r.global, 3 * patience);  // one evaluation per update
  ASSERT_TRUE(by_rounds.stop.has_value());
  EXPECT_EQ(*by_rounds.stop, r.global.size() - 1);
  EXPECT_EQ(r.best_loss, by_rounds.best_loss);
  EXPECT_DOUBLE_EQ(r.patience_since_best, patience);
}

// For BSP a round is a barrier: patience in rounds is patience in evaluations, the same run.
TEST(StopRuleInRuns, PatienceInRoundsIsBarriersForBsp) {
  auto sc = three_workers(R"({"name": "bsp", "protocol": "bsp"})", 2, 0.9);
  const RunResult by_evaluations = run_protocol(sc, sc.runs[0], blocks());
  sc.training.stop.patience_unit = scenario::PatienceUnit::kRounds;
  const RunResult by_rounds = run_protocol(sc, sc.runs[0], blocks());
  EXPECT_EQ(by_rounds.stop_reason, StopReason::kPatience);
  EXPECT_EQ(by_rounds.global.size(), by_evaluations.global.size());
  EXPECT_EQ(by_rounds.sim_time, by_evaluations.sim_time);
}

// Patience in simulated seconds: the run stops at the first evaluation at least that long after
// the best one, and not before.
TEST(StopRuleInRuns, PatienceInSecondsCountsSimulatedTimeSinceTheBest) {
  const int patience = 1;
  auto sc = three_workers(R"({"name": "asp", "protocol": "asp"})", patience, 0.9);
  sc.training.stop.patience_unit = scenario::PatienceUnit::kSeconds;
  const RunResult r = run_protocol(sc, sc.runs[0], blocks());
  ASSERT_EQ(r.stop_reason, StopReason::kPatience);
  engine::SimTime best_at{};
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k + 1 < r.global.size(); ++k) {
    if (r.global[k].loss <= best) {
      best = r.global[k].loss;
      best_at = r.global[k].time;
    }
    EXPECT_LT(r.global[k].time - best_at, engine::from_seconds(patience)) << k;
  }
  EXPECT_GE(r.global.back().time - best_at, engine::from_seconds(patience));
  EXPECT_GT(r.global.back().loss, best);
}

// training.stop.max_sim_time bounds every run (a run whose stop rule never fires, e.g. Hermes
// without major updates, still ends), and the time it reports is the cap itself.
TEST(StopRuleInRuns, SimTimeCapEndsTheRunAtExactlyMaxSimTime) {
  auto sc = three_workers(R"({"name": "asp", "protocol": "asp"})", 1000);
  const engine::SimTime cap = engine::from_seconds(1.2345);
  sc.training.stop.max_sim_time = cap;
  const RunResult r = run_protocol(sc, sc.runs[0], blocks());
  EXPECT_EQ(r.stop_reason, StopReason::kMaxSimTime);
  EXPECT_EQ(r.status, RunStatus::kOk);
  EXPECT_EQ(r.sim_time, cap);
  ASSERT_FALSE(r.global.empty());
  EXPECT_LE(r.global.back().time, cap);
  for (const auto& it : r.local_iteration_log) EXPECT_LE(it.end, cap);
}

}  // namespace
}  // namespace hermes::protocols
