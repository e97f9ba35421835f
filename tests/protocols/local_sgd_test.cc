// Local SGD runs (docs/local_sgd.md), made through make_local_sgd with explicit parameters (and
// through the registry, with the scenario's): with every worker and plain averaging a round is
// BSP's round of H mini-batches (for H = 1 and H = 4), the global model after a round is the mean
// of the round's models, DiLoCo's Nesterov outer step matches a hand computation round after
// round, partial participation draws floor(C K) workers from the run's own stream, a crash and a
// PS outage are taken (the outer momentum restored from the checkpoint), bad parameters are
// refused before the run.
#include "sim/protocols/algorithms/local_sgd.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "sim/protocols/algorithms/factories.h"
#include "sim/protocols/registry.h"
#include "sim/protocols/reporting/api_counting.h"
#include "sim/protocols/reporting/result_csv.h"
#include "tests/protocols/full_output.h"

namespace hermes::protocols {
namespace {

// Three unequal workers; runs[0] and runs[1] are BSP of 4 and of 1 mini-batch per round
// (update_unit "steps"), runs[2] local SGD with its defaults but H = 4.
std::string scenario_text(const std::string& stop, const std::string& extra = "",
                          std::uint64_t seed = 4) {
  return R"({
    "name": "local-sgd", "seed": )" +
         std::to_string(seed) + R"(,
    "cluster": {"ps": {"profile": "DS3_v2"},
                "workers": [{"profile": "B1ms"}, {"profile": "DS2_v2"}, {"profile": "F4s_v2"}]},
    "training": {"chunk_size": 100, "local_epochs": 2, "batch_size": 16, "learning_rate": 0.1,
                 "stop": {)" +
         stop + R"(}},
    "availability": {"detection_s": 0.05, "checkpoint_interval_s": 0.1},
    "runs": [{"name": "x4", "protocol": "bsp", "update_unit": "steps", "steps_per_update": 4},
             {"name": "x1", "protocol": "bsp", "update_unit": "steps"},
             {"name": "l", "protocol": "local_sgd", "local_steps": 4}])" +
         extra + "}";
}

const std::string kThirtyUpdates = R"("patience": 1000, "max_iterations": 30)";

LocalSgdParams params(int h, double participation = 1, double lr = 1, double mu = 0) {
  LocalSgdParams p;
  p.local_steps = h;
  p.participation = participation;
  p.outer_lr = lr;
  p.outer_momentum = mu;
  return p;
}

struct Outcome {
  RunResult result;
  std::vector<LocalSgdRoundRecord> rounds;
};

Outcome local_outcome(const scenario::Scenario& sc, const LocalSgdParams& p) {
  const auto data = testing::blocks_split();
  auto run = make_local_sgd(sc, sc.runs[2], data, p);
  Outcome out;
  record_local_sgd_rounds(*run, &out.rounds);
  out.result = run->run();
  out.result.api = count_api_calls(sc.api, out.result);  // as run_protocol counts them
  return out;
}

std::vector<double> mean_of(const std::vector<std::vector<float>>& models) {
  std::vector<double> m(models.at(0).size(), 0.0);
  for (const auto& x : models) {
    for (std::size_t i = 0; i < m.size(); ++i) m[i] += x[i];
  }
  for (double& v : m) v /= static_cast<double>(models.size());
  return m;
}

TEST(LocalSgd, EveryWorkerAndPlainAveragingIsBspOfHMiniBatchesPerRound) {
  const auto sc = testing::scenario_from_text(scenario_text(kThirtyUpdates));
  const auto data = testing::blocks_split();
  for (const int h : {4, 1}) {
    SCOPED_TRACE("H = " + std::to_string(h));
    const scenario::RunSpec& bsp_spec = sc.runs[h == 4 ? 0 : 1];
    const RunResult bsp = run_protocol(sc, bsp_spec, data);
    const Outcome l = local_outcome(sc, params(h));
    ASSERT_EQ(l.result.status, RunStatus::kOk);
    EXPECT_EQ(l.result.updates, 30);
    // The same models, times, bytes and calls, bit for bit: global.csv, workers.csv, api.csv.
    EXPECT_EQ(testing::run_outputs(sc, bsp_spec, l.result),
              testing::run_outputs(sc, bsp_spec, bsp));
    for (const auto& r : l.rounds) EXPECT_EQ(r.participants.size(), 3u);
  }
}

TEST(LocalSgd, TheGlobalModelAfterARoundIsTheMeanOfTheRoundsModels) {
  const auto sc = testing::scenario_from_text(scenario_text(kThirtyUpdates));
  const Outcome l = local_outcome(sc, params(4));
  ASSERT_GE(l.rounds.size(), 10u);
  for (std::size_t k = 0; k < l.rounds.size(); ++k) {
    const LocalSgdRoundRecord& r = l.rounds[k];
    if (!r.applied) continue;
    SCOPED_TRACE("round " + std::to_string(r.round));
    // Every participant's change, each taken from the round's global model.
    std::set<int> averaged(r.averaged.begin(), r.averaged.end());
    EXPECT_EQ(averaged, std::set<int>(r.participants.begin(), r.participants.end()));
    const std::vector<double> mean = mean_of(r.models);
    double moved = 0;
    for (std::size_t i = 0; i < mean.size(); ++i) {
      EXPECT_NEAR(r.after[i], mean[i], 1e-5) << i;
      moved = std::max(moved, std::abs(static_cast<double>(r.after[i]) - r.before[i]));
    }
    EXPECT_GT(moved, 1e-4);  // the models did move: the check is not vacuous
    if (k + 1 < l.rounds.size()) {
      EXPECT_EQ(l.rounds[k + 1].before, r.after);
    }
  }
}

TEST(LocalSgd, DiLoCosNesterovOuterStepMatchesAHandComputation) {
  const auto sc = testing::scenario_from_text(scenario_text(kThirtyUpdates));
  const Outcome l = local_outcome(sc, params(4, 1, 0.7, 0.9));
  ASSERT_EQ(l.result.status, RunStatus::kOk);
  ASSERT_GE(l.rounds.size(), 10u);
  std::vector<double> m(l.rounds[0].before.size(), 0.0);  // the PS's momentum, in double
  double off_mean = 0;
  for (const LocalSgdRoundRecord& r : l.rounds) {
    if (!r.applied) continue;
    SCOPED_TRACE("round " + std::to_string(r.round));
    const std::vector<double> mean = mean_of(r.models);
    for (std::size_t i = 0; i < m.size(); ++i) {
      const double d = mean[i] - r.before[i];
      m[i] = 0.9 * m[i] + d;
      const double expected = r.before[i] + 0.7 * (d + 0.9 * m[i]);
      EXPECT_NEAR(r.after[i], expected, 1e-4) << i;
      EXPECT_NEAR(r.momentum_after[i], m[i], 1e-4) << i;
      off_mean = std::max(off_mean, std::abs(r.after[i] - mean[i]));
    }
  }
  EXPECT_GT(off_mean, 1e-3);  // not the plain mean: the rule is another one
}

TEST(LocalSgd, PartialParticipationDrawsFloorOfCKFromTheRunsStream) {
  const auto sc = testing::scenario_from_text(scenario_text(kThirtyUpdates));
  const Outcome a = local_outcome(sc, params(4, 0.7));  // floor(0.7 x 3) = 2 of 3
  ASSERT_EQ(a.result.status, RunStatus::kOk);
  EXPECT_EQ(a.result.updates, 30);
  std::set<std::vector<int>> pairs;
  std::vector<int> picked(3, 0);
  for (const auto& r : a.rounds) {
    EXPECT_EQ(r.available, 3u);
    ASSERT_EQ(r.participants.size(), 2u);
    pairs.insert(r.participants);
    for (const int w : r.participants) ++picked[static_cast<std::size_t>(w)];
    if (r.applied) {
      EXPECT_EQ(r.averaged.size(), 2u);
    }
  }
  EXPECT_EQ(a.rounds.size(), 15u);
  EXPECT_GE(pairs.size(), 2u);  // drawn, not always the same two
  for (int w = 0; w < 3; ++w) {
    EXPECT_GT(picked[static_cast<std::size_t>(w)], 0) << w;
    EXPECT_LT(picked[static_cast<std::size_t>(w)], 15) << w;
  }
  // Only participants train: two iterations of H steps per round.
  EXPECT_EQ(a.result.total_local_iterations(), 30);
  // The same seed draws the same participants; another seed others.
  const Outcome again = local_outcome(sc, params(4, 0.7));
  const auto other_sc = testing::scenario_from_text(scenario_text(kThirtyUpdates, "", 5));
  const Outcome other = local_outcome(other_sc, params(4, 0.7));
  const auto draws = [](const Outcome& o) {
    std::vector<std::vector<int>> out;
    for (const auto& r : o.rounds) out.push_back(r.participants);
    return out;
  };
  EXPECT_EQ(draws(again), draws(a));
  EXPECT_NE(draws(other), draws(a));
  // C = 0.5 of 3: max(1, floor(1.5)) = 1 worker a round.
  const Outcome one = local_outcome(sc, params(4, 0.5));
  for (const auto& r : one.rounds) EXPECT_EQ(r.participants.size(), 1u);
}

TEST(LocalSgd, ADepartedParticipantIsDroppedFromItsRoundAndDrawnAgainAfterItsReturn) {
  const auto sc = testing::scenario_from_text(scenario_text(
      R"("patience": 1000, "max_iterations": 60, "max_sim_time_s": 1000)",
      R"(, "events": [{"kind": "crash", "node": "w1", "at_s": 0.3, "duration_s": 0.5}])"));
  const Outcome l = local_outcome(sc, params(2));
  ASSERT_EQ(l.result.status, RunStatus::kOk);
  // Ended by its cap on updates, not by waiting for w1 until the cap on time.
  EXPECT_EQ(l.result.stop_reason, StopReason::kMaxIterations);
  EXPECT_EQ(l.result.churn[2].outages, 1);
  bool dropped = false;  // a round drew w1 and closed without it
  bool without = false;  // a round drawn while w1 was gone
  bool after = false;    // w1 averaged again after its return
  for (const auto& r : l.rounds) {
    const bool drew = std::count(r.participants.begin(), r.participants.end(), 1) > 0;
    const bool used = std::count(r.averaged.begin(), r.averaged.end(), 1) > 0;
    dropped = dropped || (r.applied && drew && !used);
    without = without || (r.available == 2 && !drew);
    after = after || (without && used);
  }
  EXPECT_TRUE(dropped);
  EXPECT_TRUE(without);
  EXPECT_TRUE(after);
}

TEST(LocalSgd, APsOutageRestoresTheOuterMomentumOfItsCheckpoint) {
  const auto sc = testing::scenario_from_text(scenario_text(
      R"("patience": 1000, "max_iterations": 90, "max_sim_time_s": 1000)",
      R"(, "events": [{"kind": "crash", "node": "ps", "at_s": 0.45, "duration_s": 0.3}])"));
  const Outcome l = local_outcome(sc, params(2, 1, 0.7, 0.9));
  ASSERT_EQ(l.result.status, RunStatus::kOk);
  EXPECT_EQ(l.result.churn[0].outages, 1);
  // The first round after the restart starts from the checkpoint's model: some applied round's
  // `after` (not the latest's: rounds were applied between the checkpoint and the crash).
  std::size_t j = 1;
  while (j < l.rounds.size() && l.rounds[j].before == l.rounds[j - 1].after) ++j;
  ASSERT_LT(j, l.rounds.size()) << "no restart found";
  std::size_t i = j;
  for (std::size_t k = 0; k < j; ++k) {
    if (l.rounds[k].applied && l.rounds[k].after == l.rounds[j].before) i = k;
  }
  ASSERT_LT(i, j) << "the restored model is no round's";
  std::size_t last = i;  // the latest round applied before the crash
  for (std::size_t k = i; k < j; ++k) {
    if (l.rounds[k].applied) last = k;
  }
  ASSERT_NE(last, i) << "no round applied between the checkpoint and the crash";
  EXPECT_NE(l.rounds[last].momentum_after, l.rounds[i].momentum_after);
  // Round j's outer step continued from round i's momentum, not from the lost one.
  const LocalSgdRoundRecord& r = l.rounds[j];
  ASSERT_TRUE(r.applied);
  const std::vector<double> mean = mean_of(r.models);
  for (std::size_t p = 0; p < mean.size(); ++p) {
    const double m = 0.9 * l.rounds[i].momentum_after[p] + (mean[p] - r.before[p]);
    EXPECT_NEAR(r.momentum_after[p], m, 1e-4) << p;
  }
}

TEST(LocalSgd, ParametersOutOfRangeAreRefusedBeforeTheRun) {
  const auto sc = testing::scenario_from_text(scenario_text(kThirtyUpdates));
  const auto data = testing::blocks_split();
  EXPECT_THROW(make_local_sgd(sc, sc.runs[2], data, params(0)), std::invalid_argument);
  EXPECT_THROW(make_local_sgd(sc, sc.runs[2], data, params(4, 0)), std::invalid_argument);
  EXPECT_THROW(make_local_sgd(sc, sc.runs[2], data, params(4, 1, 0.7, 1)), std::invalid_argument);
  // In a scenario: an error naming the key and the accepted range, before anything runs.
  for (const auto& [key, value, range] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"local_steps", "0", "local_steps in [1, 1000000]"},
           {"participation", "0", "participation in (0, 1]"},
           {"outer_lr", "0", "outer_lr in (0, 100]"},
           {"outer_momentum", "1", "outer_momentum in [0, 1)"}}) {
    Diagnostics diags("test scenario");
    const auto bad = scenario::check_scenario_text(
        scenario_text(kThirtyUpdates), {"runs.2." + key + "=" + value}, HERMES_SOURCE_DIR, diags);
    EXPECT_FALSE(diags.ok()) << key;
    EXPECT_NE(diags.format().find("/runs/2/" + key), std::string::npos) << diags.format();
    EXPECT_NE(diags.format().find(range), std::string::npos) << diags.format();
  }
}

TEST(LocalSgd, TheRegisteredRunTakesTheScenariosParameters) {
  const auto sc = testing::scenario_from_text(scenario_text(kThirtyUpdates));
  const auto data = testing::blocks_split();
  const LocalSgdParams p = local_sgd_params(sc.runs[2]);
  EXPECT_EQ(p.local_steps, 4);
  EXPECT_EQ(p.participation, local_sgd_defaults::kParticipation);
  EXPECT_EQ(p.outer_lr, local_sgd_defaults::kOuterLr);
  EXPECT_EQ(p.outer_momentum, local_sgd_defaults::kOuterMomentum);
  const RunResult registered = run_protocol(sc, sc.runs[2], data);
  const Outcome direct = local_outcome(sc, params(4));
  EXPECT_EQ(testing::run_outputs(sc, sc.runs[2], registered),
            testing::run_outputs(sc, sc.runs[2], direct.result));
  auto other = sc;
  other.runs[2].own["outer_momentum"] = 0.9;
  EXPECT_NE(testing::run_outputs(other, other.runs[2], run_protocol(other, other.runs[2], data)),
            testing::run_outputs(sc, sc.runs[2], registered));
}

TEST(LocalSgd, RecordingRoundsOfAnotherProtocolIsRefused) {
  const auto sc = testing::scenario_from_text(scenario_text(kThirtyUpdates));
  const auto data = testing::blocks_split();
  auto other = make_ebsp(sc, sc.runs[0], data);
  std::vector<LocalSgdRoundRecord> sink;
  EXPECT_THROW(record_local_sgd_rounds(*other, &sink), std::invalid_argument);
}

}  // namespace
}  // namespace hermes::protocols
