// The switches of the "released-code" accounting (docs/released-code.md), each on its own and in a
// run: the reported-accuracy rule, T_med from the latest times, the dropped first row and the
// fixed epoch order, the PS's delay before a chunk, the model sent after its evaluation, the
// request counts, and E-BSP's pulls between barriers.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <vector>

#include "models/nn/zoo.h"
#include "sim/policies/dynamic_allocation.h"
#include "sim/policies/stop_rule.h"
#include "sim/protocols/registry.h"
#include "sim/protocols/skeleton/worker_math.h"
#include "tests/support/scenario_text.h"
#include "tests/support/synthetic_blocks.h"

namespace hermes::protocols {
namespace {

scenario::Scenario cluster(const std::string& accounting, const std::string& run,
                           int max_iterations = 12) {
  const std::string text = R"({
    "name": "released-test", "seed": 5, "accounting": ")" +
                           accounting + R"(",
    "cluster": {"ps": {"profile": "DS3_v2"},
                "workers": [{"profile": "DS2_v2"}, {"profile": "F4s_v2"}, {"profile": "F8s_v2"}]},
    "training": {"chunk_size": 100, "local_epochs": 1, "batch_size": 16,
                 "stop": {"patience": 1000, "max_iterations": )" +
                           std::to_string(max_iterations) + R"(}},
    "runs": [)" + run + "]}";
  return hermes::testing::scenario_from_text(text, "released-test");
}

// The released code's best_acc starts at 0; the first evaluation only sets the best loss.
TEST(ReleasedStopRule, TheFirstEvaluationSetsTheBestLossButNoAccuracy) {
  StopRule code(3, /*first_sets_accuracy=*/false);
  StopRule clean(3);
  EXPECT_FALSE(code.observe(0.5, 0.8));
  EXPECT_FALSE(clean.observe(0.5, 0.8));
  EXPECT_EQ(code.accuracy_at_best(), 0.0);
  EXPECT_EQ(clean.accuracy_at_best(), 0.8);
  EXPECT_EQ(code.best_loss(), 0.5);
  EXPECT_TRUE(code.last_improved());  // the patience count starts from it as from any best
  EXPECT_FALSE(code.observe(0.6, 0.9));
  EXPECT_EQ(code.accuracy_at_best(), 0.0);
  EXPECT_FALSE(code.observe(0.5, 0.85));  // a tie is an improvement: it sets the accuracy
  EXPECT_EQ(code.accuracy_at_best(), 0.85);
  EXPECT_EQ(code.since_best(), 0);
}

// updateBinarySearch: the median of every node's latest time when the last one first reports.
TEST(ReleasedTMed, TheMedianIsOfTheLatestTimesWhenTheLastWorkerFirstReports) {
  AllocatorConfig cfg;
  cfg.workers = 3;
  cfg.min_chunk = 16;
  cfg.max_chunk = cfg.dataset_size = 60000;
  AllocatorConfig latest_cfg = cfg;
  latest_cfg.t_med_from_latest = true;
  DynamicAllocator first(cfg), latest(latest_cfg);
  for (DynamicAllocator* a : {&first, &latest}) {
    a->report(0, 1.0, 100);
    a->report(0, 4.0, 100);  // worker 0 again before the others have reported
    a->report(1, 2.0, 100);
    a->report(2, 3.0, 100);
  }
  EXPECT_EQ(first.t_med(), 2.0);   // median(1, 2, 3): first times
  EXPECT_EQ(latest.t_med(), 3.0);  // median(4, 2, 3): latest times
  latest.report(0, 10.0, 100);     // frozen from then on
  EXPECT_EQ(latest.t_med(), 3.0);
}

TEST(ReleasedChunk, TheFirstRowOfTheTrainingPartIsDroppedAfterTheSplit) {
  scenario::TrainingSpec t;
  ModelCost cost;
  IterationWork w = iteration_work(t, cost, 100);
  EXPECT_EQ(w.dropped, 0);
  EXPECT_EQ(w.train, 85);
  EXPECT_EQ(w.test, 15);
  t.drop_first_row = true;
  w = iteration_work(t, cost, 100);
  EXPECT_EQ(w.dropped, 1);
  EXPECT_EQ(w.train, 84);  // x[1:] of the 85% part
  EXPECT_EQ(w.test, 15);   // the 15% is split off first
}

// Trains one chunk twice with different shuffle streams: the same model under "fixed", not under
// "reshuffle".
std::vector<float> trained(scenario::EpochOrder order, std::uint64_t shuffle_seed,
                           bool drop_first_row = false) {
  const auto data = testing::blocks_split();
  nn::Model model = nn::make_model(nn::model_spec("mlp", *data.train), 1);
  scenario::TrainingSpec t;
  t.local_epochs = 3;
  t.epoch_order = order;
  t.drop_first_row = drop_first_row;
  std::vector<std::uint32_t> chunk(60);
  for (std::uint32_t i = 0; i < chunk.size(); ++i) chunk[i] = i * 3;
  RandomStream shuffle = RandomStream::named(shuffle_seed, "shuffle", 0);
  train_on_chunk(model, *data.train, chunk, t, model_cost(model), shuffle);
  const auto p = model.params();
  return {p.begin(), p.end()};
}

TEST(ReleasedEpochOrder, FixedOrderIgnoresTheShuffleStreamReshuffleDoesNot) {
  using scenario::EpochOrder;
  EXPECT_EQ(trained(EpochOrder::kFixed, 1), trained(EpochOrder::kFixed, 2));
  EXPECT_NE(trained(EpochOrder::kReshuffle, 1), trained(EpochOrder::kReshuffle, 2));
  EXPECT_NE(trained(EpochOrder::kFixed, 1), trained(EpochOrder::kFixed, 1, true));  // one row less
}

TEST(ReleasedRun, EveryIterationWaitsForTheChunkDelay) {
  const auto data = testing::blocks_split();
  const auto sc = cluster("released-code", R"({"name": "b", "protocol": "bsp"})");
  const RunResult r = run_protocol(sc, sc.runs[0], data);
  ASSERT_FALSE(r.local_iteration_log.empty());
  for (const auto& it : r.local_iteration_log) {
    EXPECT_GE(it.end - it.start, engine::from_seconds(2)) << "iteration " << it.local_iteration;
  }
  const auto clean = cluster("clean", R"({"name": "b", "protocol": "bsp"})");
  const RunResult c = run_protocol(clean, clean.runs[0], data);
  for (const auto& it : c.local_iteration_log)
    EXPECT_LT(it.end - it.start, engine::from_seconds(2));
}

TEST(ReleasedRun, ApiCallsAreTheCodesRequestListAndTheMastersLoop) {
  const auto data = testing::blocks_split();
  const auto sc = cluster("released-code", R"({"name": "h", "protocol": "hermes", "alpha": -0.5})");
  const RunResult r = run_protocol(sc, sc.runs[0], data);
  const ApiCalls& a = r.api;
  ASSERT_EQ(a.counting, ApiCounting::kReleasedCode);
  const std::int64_t iterations = r.total_local_iterations();
  EXPECT_GT(iterations, a.pushes);  // some minor updates
  EXPECT_EQ(a.major_iteration_requests, 25 * a.pushes);
  EXPECT_EQ(a.minor_iteration_requests, 18 * (iterations - a.pushes));
  EXPECT_EQ(a.master_update_requests, 2 * r.updates);
  EXPECT_EQ(a.master_polls,
            static_cast<std::int64_t>(std::floor(2948 * engine::to_seconds(r.sim_time))));
  EXPECT_EQ(a.total(), a.major_iteration_requests + a.minor_iteration_requests +
                           a.master_update_requests + a.master_polls);
  EXPECT_EQ(a.rows().size(), 4u);
  EXPECT_EQ(a.polls, 0);  // waiting workers block: no polls of the "calls" counting
}

// For each of a worker's major updates: when its evaluation ended and when the worker's next
// iteration started (the global records and the iterations, in order per worker).
struct MajorTiming {
  engine::SimTime evaluated, next_start;
};
std::vector<MajorTiming> major_timings(const RunResult& r) {
  std::map<int, std::vector<engine::SimTime>> evaluations, next_starts;
  for (const auto& g : r.global) evaluations[g.worker].push_back(g.time);
  std::map<int, bool> after_major;
  for (const auto& it : r.local_iteration_log) {
    if (after_major[it.worker]) next_starts[it.worker].push_back(it.start);
    after_major[it.worker] = it.update == UpdateKind::kMajor;
  }
  std::vector<MajorTiming> out;
  for (const auto& [w, starts] : next_starts) {
    for (std::size_t k = 0; k < starts.size() && k < evaluations[w].size(); ++k) {
      out.push_back({evaluations[w][k], starts[k]});
    }
  }
  return out;
}

TEST(ReleasedRun, TheNewModelLeavesAfterItsEvaluation) {
  const auto data = testing::blocks_split();
  const std::string run = R"({"name": "h", "protocol": "hermes", "alpha": -0.5})";
  const auto released = cluster("released-code", run);
  const auto after = major_timings(run_protocol(released, released.runs[0], data));
  ASSERT_GE(after.size(), 3u);
  for (const auto& m : after) EXPECT_GE(m.next_start, m.evaluated);
  // The clean accounting sends it at once: a worker may start before the evaluation has ended.
  auto clean = cluster("clean", run);
  const auto before = major_timings(run_protocol(clean, clean.runs[0], data));
  ASSERT_GE(before.size(), 3u);
  std::size_t early = 0;
  for (const auto& m : before) early += m.next_start < m.evaluated ? 1 : 0;
  EXPECT_GT(early, 0u);
}

TEST(EbspPulls, PullingBetweenBarriersMakesEveryIterationStartFromTheGlobalModel) {
  const auto data = testing::blocks_split();
  const auto pulls = cluster("clean", R"({"name": "e", "protocol": "ebsp", "lookahead": 2,
                           "pull_between_barriers": true})",
                             40);
  const RunResult r = run_protocol(pulls, pulls.runs[0], data);
  EXPECT_EQ(r.stop_reason, StopReason::kMaxIterations);
  EXPECT_DOUBLE_EQ(r.wi_avg(), 1.0);
  const auto own = cluster("clean", R"({"name": "e", "protocol": "ebsp", "lookahead": 2})", 40);
  const RunResult o = run_protocol(own, own.runs[0], data);
  EXPECT_EQ(o.stop_reason, StopReason::kMaxIterations);
  EXPECT_GT(o.wi_avg(), 1.5);  // without pulls, several iterations per barrier model
}

}  // namespace
}  // namespace hermes::protocols
