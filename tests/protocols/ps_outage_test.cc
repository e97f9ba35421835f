// PS outages (docs/churn.md, "A PS outage"): every protocol goes on after the PS comes back from
// its latest checkpoint; the updates applied since that checkpoint are lost; without checkpoints
// the run starts over from the initial model; an evicted PS checkpoints at its notice and is not
// billed while gone; the outputs do not depend on the thread count.
#include <gtest/gtest.h>

#include <string>

#include "tests/protocols/tiny_bsp.h"

namespace hermes::protocols {
namespace {

// The tiny cluster; `availability` and `events` complete it. A tiny run lasts about a simulated
// second.
std::string tiny(const std::string& runs, const std::string& availability,
                 const std::string& events) {
  return R"({
  "name": "tiny", "seed": 11,)" +
         testing::kTinyCluster + R"(
  "training": {"chunk_size": 60, "local_epochs": 1, "batch_size": 16,
               "stop": {"patience": 6, "max_iterations": 30, "max_sim_time_s": 1000}},
  "availability": )" +
         availability + R"(,
  "events": )" +
         events +
         R"(,
  "runs": )" +
         runs + "}";
}

const std::string kAllProtocols = R"([{"name": "bsp", "protocol": "bsp"},
  {"name": "bsp-timeout", "protocol": "bsp", "barrier_timeout_s": 0.05},
  {"name": "asp", "protocol": "asp"}, {"name": "ssp", "protocol": "ssp", "staleness": 1},
  {"name": "asp-fedbuff", "protocol": "asp", "staleness_weight": "polynomial", "buffer_size": 2},
  {"name": "ssp-inv", "protocol": "ssp", "staleness": 1, "staleness_weight": "inverse",
   "buffer_size": 2},
  {"name": "ebsp", "protocol": "ebsp", "lookahead": 5},
  {"name": "hermes", "protocol": "hermes", "alpha": -0.5, "lambda": 5},
  {"name": "selsync", "protocol": "selsync", "delta": 0.05, "window_size": 2},
  {"name": "diloco", "protocol": "local_sgd", "local_steps": 2, "participation": 0.7,
   "outer_lr": 0.7, "outer_momentum": 0.9},
  {"name": "hybrid-1group", "protocol": "hybrid", "grouping": "size", "sync_group_size": 3}])";

const std::string kBsp = R"([{"name": "bsp", "protocol": "bsp"}])";

RunResult run_one(const scenario::Scenario& sc, std::size_t i) {
  return run_protocol(sc, sc.runs[i], testing::blocks_split());
}

// The evaluations before `t` and the first one at or after it.
struct AroundTime {
  const AggregationRecord* last_before = nullptr;
  const AggregationRecord* first_after = nullptr;
};
AroundTime around(const RunResult& r, engine::SimTime t) {
  AroundTime a;
  for (const auto& g : r.global) {
    if (g.time < t) a.last_before = &g;
    if (g.time >= t && a.first_after == nullptr) a.first_after = &g;
  }
  return a;
}

TEST(PsOutage, EveryProtocolGoesOnFromItsLatestCheckpoint) {
  const auto sc = testing::scenario_from_text(
      tiny(kAllProtocols, R"({"checkpoint_interval_s": 0.1})",
           R"([{"kind": "crash", "node": "ps", "at_s": 0.45, "duration_s": 0.3}])"));
  for (std::size_t i = 0; i < sc.runs.size(); ++i) {
    SCOPED_TRACE(sc.runs[i].name);
    const RunResult r = run_one(sc, i);
    ASSERT_EQ(r.status, RunStatus::kOk);
    EXPECT_TRUE(r.stop_reason == StopReason::kPatience ||
                r.stop_reason == StopReason::kMaxIterations)
        << stop_reason_text(r.stop_reason);
    const NodeChurn& ps = r.churn[0];
    EXPECT_EQ(ps.outages, 1);
    EXPECT_EQ(ps.downtime, engine::from_seconds(0.3));
    EXPECT_EQ(ps.deallocated, engine::SimTime{});
    // The first evaluation after the return is the restored model's: it holds the updates of the
    // checkpoint at 0.4 s, no more than the PS had applied when it failed.
    const AroundTime a = around(r, engine::from_seconds(0.75));
    ASSERT_NE(a.last_before, nullptr);
    ASSERT_NE(a.first_after, nullptr);
    EXPECT_EQ(a.first_after->worker, -1);
    EXPECT_LE(a.first_after->updates, a.last_before->updates);
    // What was applied after the checkpoint is counted as dropped on the PS's row.
    EXPECT_GE(ps.dropped_updates, a.last_before->updates - a.first_after->updates);
    // No update is applied while the PS is down, and every worker iterates again after it.
    for (const auto& g : r.global) {
      EXPECT_FALSE(g.time > engine::from_seconds(0.45) && g.time < engine::from_seconds(0.75));
    }
    for (int w = 0; w < 3; ++w) {
      bool after = false;
      for (const auto& it : r.local_iteration_log) {
        after = after || (it.worker == w && it.start >= engine::from_seconds(0.75));
      }
      EXPECT_TRUE(after) << "worker " << w;
    }
  }
}

TEST(PsOutage, WithoutCheckpointsTheRunStartsOverFromTheInitialModel) {
  const auto sc = testing::scenario_from_text(
      tiny(kBsp, "{}", R"([{"kind": "crash", "node": "ps", "at_s": 0.4, "duration_s": 0.1}])"));
  const RunResult r = run_one(sc, 0);
  const AroundTime a = around(r, engine::from_seconds(0.5));
  ASSERT_NE(a.last_before, nullptr);
  ASSERT_NE(a.first_after, nullptr);
  EXPECT_GT(a.last_before->updates, 0);
  EXPECT_EQ(a.first_after->updates, 0);
  EXPECT_GE(r.churn[0].dropped_updates, a.last_before->updates);
  // The restored model is w0: its loss is above every trained model's of before.
  EXPECT_GT(a.first_after->loss, a.last_before->loss);
}

TEST(PsOutage, AnEvictedPsCheckpointsAtItsNoticeAndIsNotBilledWhileGone) {
  // The interval is longer than the run: the notice's checkpoint is the only one after w0.
  const auto sc = testing::scenario_from_text(
      tiny(kBsp, R"({"checkpoint_interval_s": 1000})",
           R"([{"kind": "eviction", "node": "ps", "at_s": 0.4, "duration_s": 0.2,
                "notice_s": 0.05}])"));
  const RunResult r = run_one(sc, 0);
  ASSERT_EQ(r.status, RunStatus::kOk);
  const AroundTime a = around(r, engine::from_seconds(0.6));
  ASSERT_NE(a.first_after, nullptr);
  EXPECT_GT(a.first_after->updates, 0);
  EXPECT_EQ(r.churn[0].deallocated, engine::from_seconds(0.2));
  EXPECT_EQ(r.billed_time[0], r.sim_time - engine::from_seconds(0.2));
  EXPECT_EQ(r.billed_time[1], r.sim_time);
}

// The events of a PS outage (`ps`, a JSON event) while the three workers crash at 0.25, 0.3 and
// 0.35 s; `w1_back` gives w1's crash a duration (it comes back), "" leaves it gone for good.
std::string workers_leave(const std::string& ps, const std::string& w1_back = "") {
  return "[" + ps + R"(,
           {"kind": "crash", "node": "w0", "at_s": 0.25},
           {"kind": "crash", "node": "w1", "at_s": 0.3)" +
         w1_back + R"(},
           {"kind": "crash", "node": "w2", "at_s": 0.35}])";
}

TEST(PsOutage, ARunEndsWhenEveryWorkerIsGoneForGood) {
  // The PS fails and checkpoints every millisecond; every worker crashes for good while it is
  // down. Nothing can change the model after the last one goes: each protocol ends there (the cap
  // is 1000 simulated seconds, a million checkpoints away).
  const auto sc = testing::scenario_from_text(
      tiny(kAllProtocols, R"({"checkpoint_interval_s": 0.001})",
           workers_leave(R"({"kind": "crash", "node": "ps", "at_s": 0.2, "duration_s": 0.5})")));
  for (std::size_t i = 0; i < sc.runs.size(); ++i) {
    SCOPED_TRACE(sc.runs[i].name);
    const RunResult r = run_one(sc, i);
    EXPECT_EQ(r.stop_reason, StopReason::kNoWorkers) << stop_reason_text(r.stop_reason);
    EXPECT_EQ(r.sim_time, engine::from_seconds(0.35));
    EXPECT_LT(r.events, 10000u);
  }
  // With the PS up, the run ends at the last departure if the PS holds no update; else once the
  // PS has missed every worker (detection_s after a crash) and applied what it can: what it
  // still holds then (a FedBuff buffer short of K) is dropped.
  const auto up = testing::scenario_from_text(
      tiny(kAllProtocols, R"({"checkpoint_interval_s": 0.001, "detection_s": 0.05})",
           workers_leave(R"({"kind": "eviction", "node": "ps", "at_s": 900, "duration_s": 1})")));
  for (std::size_t i = 0; i < up.runs.size(); ++i) {
    SCOPED_TRACE(up.runs[i].name);
    const RunResult r = run_one(up, i);
    if (r.stop_reason == StopReason::kPatience || r.stop_reason == StopReason::kMaxIterations) {
      EXPECT_LT(r.sim_time, engine::from_seconds(0.35));  // ended before they all went
      continue;
    }
    EXPECT_EQ(r.stop_reason, StopReason::kNoWorkers) << stop_reason_text(r.stop_reason);
    EXPECT_GE(r.sim_time, engine::from_seconds(0.35));
    EXPECT_LT(r.sim_time, engine::from_seconds(1));
    // BSP evaluates every round it closes: the last one's evaluation is not cut off by the end.
    if (up.runs[i].name == "bsp") {
      ASSERT_FALSE(r.global.empty());
      EXPECT_EQ(r.global.back().updates, r.updates);
    }
  }
  // A worker that comes back keeps the run going: it is not gone for good.
  const auto back = testing::scenario_from_text(
      tiny(kBsp, R"({"checkpoint_interval_s": 0.001})",
           workers_leave(R"({"kind": "crash", "node": "ps", "at_s": 0.2, "duration_s": 0.5})",
                         R"(, "duration_s": 1)")));
  const RunResult r = run_one(back, 0);
  EXPECT_NE(r.stop_reason, StopReason::kNoWorkers);
  EXPECT_GT(r.sim_time, engine::from_seconds(1.3));
}

TEST(PsOutage, OutputsDoNotDependOnTheThreadCount) {
  const auto sc = testing::scenario_from_text(
      tiny(kAllProtocols, R"({"checkpoint_interval_s": 0.1, "detection_s": 0.05})",
           R"([{"kind": "crash", "node": "ps", "at_s": 0.2, "duration_s": 0.1},
               {"kind": "crash", "node": "w1", "at_s": 0.25, "duration_s": 0.3},
               {"kind": "eviction", "node": "ps", "at_s": 0.5, "duration_s": 0.1,
                "notice_s": 0.05}])"));
  parallel::ThreadPool three(3);
  EXPECT_EQ(testing::full_output(sc), testing::full_output(sc, &three));
}

}  // namespace
}  // namespace hermes::protocols
