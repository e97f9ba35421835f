// SelSync runs (docs/selsync.md), made through make_selsync with explicit parameters (and once
// through the registry, with the scenario's): delta 0 is
// synchronous SGD (BSP of one mini-batch per round), a huge delta syncs only in the warm-up
// (local SGD), the votes are OR-ed and read from the real gradients, the outputs do not depend on
// the thread count, and a crash and a return are taken like BSP's.
#include "sim/protocols/algorithms/selsync.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/protocols/algorithms/factories.h"
#include "sim/protocols/registry.h"
#include "sim/protocols/reporting/api_counting.h"
#include "sim/protocols/reporting/result_csv.h"
#include "tests/protocols/full_output.h"

namespace hermes::protocols {
namespace {

// Three unequal workers; runs[0] is BSP of one mini-batch per round (update_unit "steps"), to
// compare with, runs[1] SelSync (one mini-batch per step whatever update_unit says).
std::string scenario_text(const std::string& stop, const std::string& extra = "", double lr = 0.1) {
  return R"({
    "name": "selsync", "seed": 4,
    "cluster": {"ps": {"profile": "DS3_v2"},
                "workers": [{"profile": "B1ms"}, {"profile": "DS2_v2"}, {"profile": "F4s_v2"}]},
    "training": {"chunk_size": 100, "local_epochs": 2, "batch_size": 16, "learning_rate": )" +
         std::to_string(lr) + R"(,
                 "stop": {)" +
         stop + R"(}},
    "availability": {"detection_s": 0.05},
    "runs": [{"name": "x", "protocol": "bsp", "update_unit": "steps"},
             {"name": "s", "protocol": "selsync", "delta": 0.05, "window_size": 1}])" +
         extra + "}";
}

const std::string kThirtyUpdates = R"("patience": 1000, "max_iterations": 30)";

SelSyncParams params(double delta, int window) {
  SelSyncParams p;
  p.delta = delta;
  p.window = window;
  return p;
}

struct Outcome {
  RunResult result;
  std::vector<SelSyncStepRecord> steps;
};

Outcome selsync_outcome(const scenario::Scenario& sc, const SelSyncParams& p,
                        parallel::ThreadPool* pool = nullptr) {
  const auto data = testing::blocks_split();
  auto run = make_selsync(sc, sc.runs[1], data, p);
  Outcome out;
  record_selsync_steps(*run, &out.steps);
  out.result = run->run({}, pool);
  return out;
}

// Per step number: whether some worker voted to sync and whether the step synced (no churn: the
// workers step in lockstep, so a worker's k-th step is the run's k-th).
struct StepSummary {
  bool any_vote = false;
  bool synced = false;
  int votes = 0;
};
std::map<std::int64_t, StepSummary> by_step(const std::vector<SelSyncStepRecord>& steps) {
  std::map<std::int64_t, StepSummary> out;
  for (const auto& s : steps) {
    StepSummary& k = out[s.step];
    k.any_vote = k.any_vote || s.rule.sync;
    k.synced = k.synced || s.synced;
    ++k.votes;
  }
  return out;
}

TEST(SelSync, DeltaZeroIsSynchronousSgdLikeBspOfOneMiniBatch) {
  const auto sc = testing::scenario_from_text(scenario_text(kThirtyUpdates));
  const Outcome s = selsync_outcome(sc, params(0, 25));
  const RunResult bsp = run_protocol(sc, sc.runs[0], testing::blocks_split());
  ASSERT_EQ(s.result.status, RunStatus::kOk);
  // Every step syncs: 10 averagings of 3 models, each evaluated, and every worker pulls before
  // every step (WI 1), as BSP's rounds.
  EXPECT_EQ(s.result.updates, 30);
  EXPECT_EQ(s.result.updates, bsp.updates);
  ASSERT_EQ(s.result.global.size(), bsp.global.size());
  for (const auto& k : s.steps) EXPECT_TRUE(k.synced);
  EXPECT_EQ(s.result.wi_avg(), 1.0);
  EXPECT_EQ(s.result.requests.pushes, s.result.total_local_iterations());
  // The same models: each worker's step from the same global model on the same mini-batch, then
  // the average of the changes (summed in another order: equal up to float rounding).
  for (std::size_t i = 0; i < bsp.global.size(); ++i) {
    EXPECT_NEAR(s.result.global[i].loss, bsp.global[i].loss, 1e-5 * bsp.global[i].loss) << i;
    EXPECT_EQ(s.result.global[i].updates, bsp.global[i].updates);
  }
  // The votes wait for the slowest before the pushes start: never sooner than BSP.
  EXPECT_GE(s.result.sim_time, bsp.sim_time);
}

TEST(SelSync, AHugeDeltaSyncsOnlyInTheWarmUpThenTrainsLocally) {
  // Warm-up of 2 x 2 - 1 = 3 synced steps, then local SGD until the cap on simulated time.
  const auto sc = testing::scenario_from_text(
      scenario_text(R"("patience": 1000, "max_iterations": 1000, "max_sim_time_s": 3)"));
  const Outcome s = selsync_outcome(sc, params(std::numeric_limits<double>::max(), 2));
  EXPECT_EQ(s.result.stop_reason, StopReason::kMaxSimTime);
  EXPECT_EQ(s.result.updates, 9);
  EXPECT_EQ(s.result.global.size(), 3u);
  for (const auto& [step, k] : by_step(s.steps)) {
    EXPECT_EQ(k.synced, step <= 3) << step;
  }
  // Many local steps per pull: the first model and the three averages.
  for (std::size_t w = 0; w < 3; ++w) {
    EXPECT_EQ(s.result.model_requests[w], 4) << w;
    EXPECT_GT(s.result.local_iterations[w], 20) << w;
  }
  EXPECT_GT(s.result.wi_avg(), 5.0);
}

TEST(SelSync, AnyWorkersVoteSyncsAllAndTheVoteReadsTheGradientChange) {
  // window 1: Delta is the raw relative change of the gradient norm between a worker's steps.
  const auto sc = testing::scenario_from_text(scenario_text(kThirtyUpdates));
  const Outcome s = selsync_outcome(sc, params(0.3, 1));
  ASSERT_EQ(s.result.status, RunStatus::kOk);
  std::map<int, double> previous;
  int local_steps = 0;
  int synced_steps = 0;
  for (const auto& k : s.steps) {
    ASSERT_TRUE(k.counted);
    EXPECT_TRUE(std::isfinite(k.gradient_norm) && k.gradient_norm > 0);
    if (previous.count(k.worker) != 0) {
      const double before = previous[k.worker];
      ASSERT_TRUE(k.rule.change);
      EXPECT_DOUBLE_EQ(*k.rule.change, std::abs(k.gradient_norm - before) / before);
      EXPECT_EQ(k.rule.sync, *k.rule.change >= 0.3);
    } else {
      EXPECT_TRUE(k.rule.sync);  // its first step: no change yet, the warm-up syncs
    }
    previous[k.worker] = k.gradient_norm;
  }
  for (const auto& [step, k] : by_step(s.steps)) {
    if (k.votes < 3) continue;  // the last step, cut by the stop
    EXPECT_EQ(k.synced, k.any_vote) << step;
    (k.synced ? synced_steps : local_steps) += 1;
  }
  // The threshold sits inside the run's changes: both kinds of step happen, and each sync
  // averaged the three workers.
  EXPECT_GT(local_steps, 0);
  EXPECT_GT(synced_steps, 1);
  EXPECT_EQ(s.result.updates, 3 * synced_steps);
}

TEST(SelSync, TheRuleReadsTheGradientNotTheModelsChange) {
  // The first step's gradient is taken at the same initial model on the same mini-batch whatever
  // the learning rate; the model's change (-lr g) is not.
  const auto a = testing::scenario_from_text(scenario_text(kThirtyUpdates, "", 0.1));
  const auto b = testing::scenario_from_text(scenario_text(kThirtyUpdates, "", 0.05));
  const Outcome ra = selsync_outcome(a, params(0.3, 1));
  const Outcome rb = selsync_outcome(b, params(0.3, 1));
  for (int w = 0; w < 3; ++w) {
    const auto first = [w](const Outcome& r) {
      for (const auto& k : r.steps) {
        if (k.worker == w) return k.gradient_norm;
      }
      return -1.0;
    };
    EXPECT_GT(first(ra), 0);
    EXPECT_EQ(first(ra), first(rb)) << w;
  }
}

TEST(SelSync, OutputsDoNotDependOnTheThreadCount) {
  const auto sc = testing::scenario_from_text(scenario_text(kThirtyUpdates));
  const Outcome inline_run = selsync_outcome(sc, params(0.05, 1));
  parallel::ThreadPool one(1);
  parallel::ThreadPool two(2);
  const Outcome r1 = selsync_outcome(sc, params(0.05, 1), &one);
  const Outcome r2 = selsync_outcome(sc, params(0.05, 1), &two);
  const std::string expected = testing::run_outputs(sc, sc.runs[1], inline_run.result);
  EXPECT_EQ(testing::run_outputs(sc, sc.runs[1], r1.result), expected);
  EXPECT_EQ(testing::run_outputs(sc, sc.runs[1], r2.result), expected);
  ASSERT_EQ(r2.steps.size(), inline_run.steps.size());
  for (std::size_t i = 0; i < r2.steps.size(); ++i) {
    EXPECT_EQ(r2.steps[i].gradient_norm, inline_run.steps[i].gradient_norm) << i;
  }
}

TEST(SelSync, GoesOnPastACrashAndAReturnLikeBsp) {
  const auto sc = testing::scenario_from_text(scenario_text(
      R"("patience": 1000, "max_iterations": 60, "max_sim_time_s": 1000)",
      R"(, "events": [{"kind": "crash", "node": "w1", "at_s": 0.3, "duration_s": 0.5}])"));
  const Outcome s = selsync_outcome(sc, params(0, 25));
  ASSERT_EQ(s.result.status, RunStatus::kOk);
  // Ended by its cap on updates, not by waiting for w1 until the cap on time.
  EXPECT_EQ(s.result.stop_reason, StopReason::kMaxIterations);
  EXPECT_EQ(s.result.churn[2].outages, 1);
  // Some averagings while w1 was gone took two models: updates are not all multiples of 3.
  bool two = false;
  for (std::size_t i = 1; i < s.result.global.size(); ++i) {
    two = two || s.result.global[i].updates - s.result.global[i - 1].updates == 2;
  }
  EXPECT_TRUE(two);
  // w1 steps again after its return.
  bool after = false;
  for (const auto& it : s.result.local_iteration_log) {
    after = after || (it.worker == 1 && it.start >= engine::from_seconds(0.8));
  }
  EXPECT_TRUE(after);
}

TEST(SelSync, ParametersOutOfRangeAreRefusedBeforeTheRun) {
  const auto sc = testing::scenario_from_text(scenario_text(kThirtyUpdates));
  const auto data = testing::blocks_split();
  EXPECT_THROW(make_selsync(sc, sc.runs[1], data, params(-1, 25)), std::invalid_argument);
  EXPECT_THROW(make_selsync(sc, sc.runs[1], data, params(0.3, 0)), std::invalid_argument);
}

TEST(SelSync, TheRegisteredRunTakesTheScenariosParametersAndOneMiniBatchPerStep) {
  const auto sc = testing::scenario_from_text(scenario_text(kThirtyUpdates));
  const auto data = testing::blocks_split();
  const SelSyncParams p = selsync_params(sc.runs[1]);
  EXPECT_EQ(p.delta, 0.05);
  EXPECT_EQ(p.window, 1);
  EXPECT_EQ(p.smoothing, selsync_defaults::kSmoothing);
  const RunResult registered = run_protocol(sc, sc.runs[1], data);
  Outcome direct = selsync_outcome(sc, params(0.05, 1));
  direct.result.api = count_api_calls(sc.api, direct.result);  // as run_protocol counts them
  EXPECT_EQ(testing::run_outputs(sc, sc.runs[1], registered),
            testing::run_outputs(sc, sc.runs[1], direct.result));
  // Another delta is another run.
  auto other = sc;
  other.runs[1].own["delta"] = 0;
  EXPECT_NE(testing::run_outputs(other, other.runs[1], run_protocol(other, other.runs[1], data)),
            testing::run_outputs(sc, sc.runs[1], registered));
}

TEST(SelSync, RecordingStepsOfAnotherProtocolIsRefused) {
  const auto sc = testing::scenario_from_text(scenario_text(kThirtyUpdates));
  const auto data = testing::blocks_split();
  auto other = make_ebsp(sc, sc.runs[0], data);  // any ProtocolRun but SelSync
  std::vector<SelSyncStepRecord> sink;
  EXPECT_THROW(record_selsync_steps(*other, &sink), std::invalid_argument);
}

}  // namespace
}  // namespace hermes::protocols
