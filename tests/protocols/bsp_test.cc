#include <gtest/gtest.h>

#include <map>
#include <set>

#include "sim/protocols/registry.h"
#include "tests/support/scenario_text.h"
#include "tests/support/synthetic_blocks.h"

namespace hermes::protocols {
namespace {

scenario::Scenario small_cluster(const std::string& runs, int patience = 3) {
  const std::string text = R"({
    "name": "bsp-test", "seed": 5,
    "cluster": {"ps": {"profile": "DS3_v2"},
                "workers": [{"profile": "B1ms"}, {"profile": "DS2_v2"}, {"profile": "F4s_v2"}]},
    "training": {"chunk_size": 120, "local_epochs": 1, "batch_size": 16, "learning_rate": 0.1,
                 "stop": {"patience": )" +
                           std::to_string(patience) +
                           R"(, "max_iterations": 60}},
    "runs": )" + runs + "}";
  return hermes::testing::scenario_from_text(text, "bsp-test");
}

TEST(Bsp, EveryRoundHasEveryWorkerExactlyOnceAndWiIsOne) {
  const auto sc = small_cluster(R"([{"name": "bsp", "protocol": "bsp"}])");
  const auto data = testing::blocks_split();
  const RunResult r = run_protocol(sc, sc.runs[0], data);
  ASSERT_EQ(r.status, RunStatus::kOk);
  const std::int64_t rounds = r.aggregations;
  ASSERT_GT(rounds, 3);
  EXPECT_EQ(r.updates, 3 * rounds);  // every update of every round applied
  // Round k = every worker's k-th local iteration: each worker appears once per round.
  std::map<std::int64_t, std::multiset<int>> by_round;
  for (const auto& it : r.local_iteration_log) by_round[it.local_iteration].insert(it.worker);
  EXPECT_EQ(static_cast<std::int64_t>(by_round.size()), rounds);
  for (const auto& [round, workers] : by_round) {
    EXPECT_EQ(workers, (std::multiset<int>{0, 1, 2})) << "round " << round;
  }
  // A round's aggregation comes after the last of its iterations, and the next round's
  // iterations start after it.
  for (std::int64_t k = 1; k <= rounds; ++k) {
    engine::SimTime last_end{}, next_start = engine::kTimeInfinity;
    for (const auto& it : r.local_iteration_log) {
      if (it.local_iteration == k) last_end = std::max(last_end, it.end);
      if (it.local_iteration == k + 1) next_start = std::min(next_start, it.start);
    }
    const engine::SimTime agg = r.global[static_cast<std::size_t>(k - 1)].time;
    EXPECT_GT(agg, last_end);
    if (k < rounds) {
      EXPECT_GT(next_start, agg);
    }
  }
  EXPECT_DOUBLE_EQ(r.wi_avg(), 1.0);
  for (std::size_t w = 0; w < 3; ++w) EXPECT_EQ(r.local_iterations[w], rounds);
  EXPECT_GT(r.accuracy_at_best, 0.5);  // 10 classes: chance is 0.1
  // The API calls are one data request, one time report, one push and one pull per iteration.
  EXPECT_EQ(r.api.data_requests, 3 * rounds);
  EXPECT_EQ(r.api.pushes, 3 * rounds);
  EXPECT_EQ(r.api.pulls, 3 * rounds);  // the initial model plus one per finished round but last
}

TEST(Bsp, TheBarrierWaitsForTheSlowestWorker) {
  const auto sc = small_cluster(R"([{"name": "bsp", "protocol": "bsp"}])");
  const auto data = testing::blocks_split();
  const RunResult r = run_protocol(sc, sc.runs[0], data);
  // The B1ms (worker 0) is the slowest node: its iterations end last in most rounds, and every
  // round's aggregation waits for it.
  int slowest_is_b1ms = 0;
  for (std::int64_t k = 1; k <= r.aggregations; ++k) {
    engine::SimTime end0{}, end_others{};
    for (const auto& it : r.local_iteration_log) {
      if (it.local_iteration != k) continue;
      (it.worker == 0 ? end0 : end_others) = std::max(it.worker == 0 ? end0 : end_others, it.end);
    }
    slowest_is_b1ms += end0 > end_others;
  }
  EXPECT_GE(slowest_is_b1ms, r.aggregations - 1);
}

TEST(Bsp, SameScenarioAndSeedGiveTheSameRun) {
  const auto sc = small_cluster(R"([{"name": "bsp", "protocol": "bsp"}])", 2);
  const auto data = testing::blocks_split();
  const RunResult a = run_protocol(sc, sc.runs[0], data);
  const RunResult b = run_protocol(sc, sc.runs[0], data);
  ASSERT_EQ(a.global.size(), b.global.size());
  for (std::size_t i = 0; i < a.global.size(); ++i) {
    EXPECT_EQ(a.global[i].time, b.global[i].time);
    EXPECT_EQ(a.global[i].loss, b.global[i].loss);  // bit-identical math
  }
  EXPECT_EQ(a.sim_time, b.sim_time);
}

TEST(Bsp, MaxIterationsCapEndsTheRunWithItsReason) {
  auto sc = small_cluster(R"([{"name": "bsp", "protocol": "bsp"}])", 1000);
  sc.training.stop.max_iterations = 9;
  const auto data = testing::blocks_split();
  const RunResult r = run_protocol(sc, sc.runs[0], data);
  EXPECT_EQ(r.stop_reason, StopReason::kMaxIterations);
  EXPECT_EQ(r.updates, 9);  // three rounds of three
}

TEST(Bsp, DivergenceEndsTheRunWithStatusDiverged) {
  auto sc = small_cluster(R"([{"name": "bsp", "protocol": "bsp"}])", 1000);
  sc.training.learning_rate = 1e30;  // the first steps overflow
  const auto data = testing::blocks_split();
  const RunResult r = run_protocol(sc, sc.runs[0], data);
  EXPECT_EQ(r.status, RunStatus::kDiverged);
  EXPECT_EQ(r.stop_reason, StopReason::kDiverged);
}

}  // namespace
}  // namespace hermes::protocols
