// API calls by kind, and the waits that the analytic polls stand for; dynamic allocation for the
// baselines (the skeleton applies it to any protocol).
#include <gtest/gtest.h>

#include <set>

#include "sim/protocols/registry.h"
#include "tests/support/scenario_text.h"
#include "tests/support/synthetic_blocks.h"

namespace hermes::protocols {
namespace {

scenario::Scenario three_workers(const std::string& runs, const std::string& api = "{}") {
  const std::string text = R"({
    "name": "api-test", "seed": 5,
    "cluster": {"ps": {"profile": "DS3_v2"},
                "workers": [{"profile": "B1ms"}, {"profile": "DS2_v2"}, {"profile": "F4s_v2"}]},
    "training": {"chunk_size": 120, "local_epochs": 1, "batch_size": 16, "learning_rate": 0.1,
                 "stop": {"patience": 3, "max_iterations": 45}},
    "api": )" + api + R"(,
    "runs": )" + runs + "}";
  return hermes::testing::scenario_from_text(text, "api-test");
}

engine::SimTime total_wait(const RunResult& r) {
  engine::SimTime t{};
  for (const auto w : r.wait_time) t += w;
  return t;
}

TEST(ApiCalls, PollsAreEachWorkersWaitOverTheIntervalAndKindsSumToTheTotal) {
  const auto sc = three_workers(R"([{"name": "bsp", "protocol": "bsp"}])",
                                R"({"poll_interval_ms": 2.5, "flags_per_iteration": 2,
                                    "logs_per_iteration": 3})");
  const auto data = testing::blocks_split();
  const RunResult r = run_protocol(sc, sc.runs[0], data);
  ASSERT_EQ(r.status, RunStatus::kOk);
  const engine::SimTime interval = engine::from_seconds(0.0025);
  std::int64_t polls = 0;
  for (const auto w : r.wait_time) polls += engine::whole_periods(w, interval);
  EXPECT_EQ(r.api.polls, polls);
  EXPECT_GT(r.api.polls, 0);
  const std::int64_t iterations = r.total_local_iterations();
  EXPECT_EQ(r.api.flags, 2 * iterations);
  EXPECT_EQ(r.api.logs, 3 * iterations);
  EXPECT_EQ(r.api.total(), r.api.data_requests + r.api.time_reports + r.api.flags + r.api.pushes +
                               r.api.pulls + r.api.logs + r.api.polls);
  // At a barrier the fastest node waits longest: F4s_v2 (worker 2) more than B1ms (worker 0).
  EXPECT_GT(r.wait_time[2], r.wait_time[0]);
  // Every worker's time is its iterations' time plus its waits: nothing is counted twice.
  engine::SimTime busy{};
  for (const auto& it : r.local_iteration_log) busy += it.end - it.start;
  EXPECT_LE(busy + total_wait(r), 3 * r.sim_time);
}

TEST(ApiCalls, ALongerPollIntervalMeansProportionallyFewerPollsAndTheSameRun) {
  const auto runs = R"([{"name": "bsp", "protocol": "bsp"}])";
  const auto data = testing::blocks_split();
  const auto fast = three_workers(runs, R"({"poll_interval_ms": 1})");
  const auto slow = three_workers(runs, R"({"poll_interval_ms": 10})");
  const RunResult a = run_protocol(fast, fast.runs[0], data);
  const RunResult b = run_protocol(slow, slow.runs[0], data);
  // The interval only changes the count: the simulated run is the same.
  EXPECT_EQ(a.sim_time, b.sim_time);
  EXPECT_EQ(a.wait_time, b.wait_time);
  EXPECT_EQ(a.best_loss, b.best_loss);
  // Each worker's floor(wait / interval) rounds down by less than one poll.
  EXPECT_NEAR(static_cast<double>(a.api.polls) / 10.0, static_cast<double>(b.api.polls), 3.0);
}

TEST(ApiCalls, HermesMinorIterationsDoNotWait) {
  // Without any major update (alpha far below any z-score) a worker never waits after its first
  // model: its only wait is the initial pull.
  const auto sc = three_workers(
      R"([{"name": "h", "protocol": "hermes", "alpha": -50, "beta": 0, "dynamic_allocation": false}])");
  auto capped = sc;
  capped.training.stop.max_sim_time = engine::from_seconds(10);
  const auto data = testing::blocks_split();
  const RunResult r = run_protocol(capped, capped.runs[0], data);
  ASSERT_EQ(r.stop_reason, StopReason::kMaxSimTime);
  EXPECT_EQ(r.major_updates, 0);
  for (std::size_t w = 0; w < 3; ++w) {
    EXPECT_GT(r.local_iterations[w], 2);
    // The initial model's transfer: well under a second on these links.
    EXPECT_LT(r.wait_time[w], engine::from_seconds(0.1)) << "worker " << w;
  }
}

TEST(DynamicAllocation, BaselinesResizeTheChunksOfOutliersWhenAsked) {
  const auto data = testing::blocks_split();
  for (const char* protocol : {"bsp", "asp", "ssp", "ebsp"}) {
    const std::string run =
        std::string(R"({"name": "x", "protocol": ")") + protocol + R"(", "dynamic_allocation": )";
    const auto fixed = three_workers("[" + run + "false}]");
    const auto dynamic = three_workers("[" + run + "true}]");
    const RunResult a = run_protocol(fixed, fixed.runs[0], data);
    const RunResult b = run_protocol(dynamic, dynamic.runs[0], data);
    std::set<std::int64_t> sizes_a, sizes_b;
    for (const auto& it : a.local_iteration_log) sizes_a.insert(it.chunk_size);
    for (const auto& it : b.local_iteration_log) sizes_b.insert(it.chunk_size);
    EXPECT_EQ(sizes_a, std::set<std::int64_t>{120}) << protocol;
    // The B1ms is an outlier against the two faster nodes: its chunks shrink.
    EXPECT_GT(sizes_b.size(), 1u) << protocol;
    EXPECT_LT(*sizes_b.begin(), 120) << protocol;
  }
}

}  // namespace
}  // namespace hermes::protocols
