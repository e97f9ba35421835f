// Crashes and evictions in protocol runs (docs/churn.md): an outage after the end changes no
// output; every protocol goes on past a crash and a return; BSP aggregates the live workers once
// a crash is detected and drops a silent worker after its barrier timeout; an evicted node is not
// billed while gone; the outputs do not depend on the thread count.
#include <gtest/gtest.h>

#include <string>

#include "tests/protocols/tiny_bsp.h"

namespace hermes::protocols {
namespace {

// The frozen regression's tiny cluster (a B1ms with an empty bank, a DS2_v2, an F4s_v2); `runs`
// and `extra` (top-level keys) complete it. A tiny run lasts about a simulated second.
std::string tiny(const std::string& runs, const std::string& extra) {
  return R"({
  "name": "tiny", "seed": 11,)" +
         testing::kTinyCluster + R"(
  "training": {"chunk_size": 60, "local_epochs": 1, "batch_size": 16,
               "stop": {"patience": 6, "max_iterations": 30, "max_sim_time_s": 1000}},
  "availability": {"detection_s": 0.05},
  "runs": )" +
         runs + extra + "}";
}

const std::string kAllProtocols = R"([{"name": "bsp", "protocol": "bsp"},
  {"name": "asp", "protocol": "asp"}, {"name": "ssp", "protocol": "ssp", "staleness": 1},
  {"name": "ebsp", "protocol": "ebsp", "lookahead": 5},
  {"name": "hermes", "protocol": "hermes", "alpha": -0.5, "lambda": 5}])";

RunResult run_one(const scenario::Scenario& sc, std::size_t i) {
  return run_protocol(sc, sc.runs[i], testing::blocks_split());
}

TEST(ChurnRun, AnOutageAfterTheEndChangesNoOutput) {
  const std::string plain =
      testing::full_output(testing::scenario_from_text(tiny(kAllProtocols, "")));
  const std::string late = testing::full_output(testing::scenario_from_text(
      tiny(kAllProtocols,
           R"(, "events": [{"kind": "crash", "node": "w1", "at_s": 900, "duration_s": 10},
                      {"kind": "eviction", "node": "w0", "at_s": 950}])")));
  EXPECT_EQ(plain, late);
}

TEST(ChurnRun, EveryProtocolGoesOnPastACrashAndAReturn) {
  const auto sc = testing::scenario_from_text(
      tiny(kAllProtocols,
           R"(, "events": [{"kind": "crash", "node": "w1", "at_s": 0.15, "duration_s": 0.3}])"));
  for (std::size_t i = 0; i < sc.runs.size(); ++i) {
    SCOPED_TRACE(sc.runs[i].name);
    const RunResult r = run_one(sc, i);
    // Ended by its own rule, not by the cap on simulated time: nothing waited for w1 forever.
    EXPECT_TRUE(r.stop_reason == StopReason::kPatience ||
                r.stop_reason == StopReason::kMaxIterations)
        << stop_reason_text(r.stop_reason);
    const NodeChurn& w1 = r.churn[2];
    EXPECT_EQ(w1.outages, 1);
    EXPECT_EQ(w1.downtime, engine::from_seconds(0.3));
    EXPECT_EQ(w1.deallocated, engine::SimTime{});  // a crashed VM stays allocated
    EXPECT_EQ(r.churn_total().outages, 1);
    // w1 iterates after its return.
    bool after = false;
    for (const auto& it : r.local_iteration_log) {
      after = after || (it.worker == 1 && it.start >= engine::from_seconds(0.45));
    }
    EXPECT_TRUE(after);
  }
}

TEST(ChurnRun, BspAggregatesTheLiveWorkersOnceACrashIsDetected) {
  const auto sc = testing::scenario_from_text(
      tiny(R"([{"name": "bsp", "protocol": "bsp"}])",
           R"(, "events": [{"kind": "crash", "node": "w2", "at_s": 0.2}])"));
  const RunResult r = run_one(sc, 0);
  ASSERT_EQ(r.status, RunStatus::kOk);
  EXPECT_NE(r.stop_reason, StopReason::kMaxSimTime);
  ASSERT_GE(r.global.size(), 3u);
  // Rounds after the crash average two updates, not three.
  const auto& last = r.global.back();
  const auto& before = r.global[r.global.size() - 2];
  EXPECT_GT(before.time, engine::from_seconds(0.25));
  EXPECT_EQ(last.updates - before.updates, 2);
  EXPECT_EQ(r.churn[3].downtime, r.sim_time - engine::from_seconds(0.2));
}

TEST(ChurnRun, BspTimeoutDropsTheSlowWorkerFromItsRound) {
  // The throttled B1ms takes far longer than the F4s_v2 + 20 ms per iteration.
  const auto sc = testing::scenario_from_text(
      tiny(R"([{"name": "bsp", "protocol": "bsp", "barrier_timeout_s": 0.02}])", ""));
  const RunResult r = run_one(sc, 0);
  ASSERT_EQ(r.status, RunStatus::kOk);
  EXPECT_GT(r.churn[1].dropped_updates, 0);  // w0's late updates
  EXPECT_EQ(r.churn[1].lost_iterations, r.churn[1].dropped_updates);
  EXPECT_EQ(r.churn[3].dropped_updates, 0);  // the F4s_v2 comes first
  EXPECT_EQ(r.churn[1].outages, 0);
}

TEST(ChurnRun, AnEvictedNodeIsNotBilledWhileGone) {
  const auto sc = testing::scenario_from_text(
      tiny(R"([{"name": "hermes", "protocol": "hermes", "alpha": -0.5, "lambda": 5}])",
           R"(, "events": [{"kind": "eviction", "node": "w0", "at_s": 0.2, "duration_s": 0.4,
                       "notice_s": 0.05}])"));
  const RunResult r = run_one(sc, 0);
  ASSERT_EQ(r.status, RunStatus::kOk);
  EXPECT_EQ(r.churn[1].downtime, engine::from_seconds(0.4));
  EXPECT_EQ(r.churn[1].deallocated, engine::from_seconds(0.4));
  EXPECT_EQ(r.billed_time[1], r.sim_time - engine::from_seconds(0.4));
  EXPECT_EQ(r.billed_time[2], r.sim_time);
  // From its notice on it starts nothing: no iteration of w0 begins in [0.15, 0.6).
  for (const auto& it : r.local_iteration_log) {
    if (it.worker != 0) continue;
    EXPECT_FALSE(it.start >= engine::from_seconds(0.15) && it.start < engine::from_seconds(0.6))
        << engine::to_seconds(it.start);
  }
}

TEST(ChurnRun, OutputsDoNotDependOnTheThreadCount) {
  const auto sc = testing::scenario_from_text(
      tiny(kAllProtocols,
           R"(, "events": [{"kind": "crash", "node": "w1", "at_s": 0.15, "duration_s": 0.3},
                      {"kind": "eviction", "node": "w0", "at_s": 0.3, "duration_s": 0.2}])"));
  parallel::ThreadPool three(3);
  EXPECT_EQ(testing::full_output(sc), testing::full_output(sc, &three));
}

}  // namespace
}  // namespace hermes::protocols
