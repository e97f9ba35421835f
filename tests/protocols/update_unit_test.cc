// The baselines' update unit (update_unit "steps"), the server step (async_update) and the PS's
// evaluation period (evaluate_every): each rule pinned by what breaking it would change.
#include <gtest/gtest.h>

#include <string>

#include "tests/protocols/full_output.h"

namespace hermes::protocols {
namespace {

// Chunks of 100 samples: 85 train at batch 16 = 6 mini-batches per epoch (5 of 16, one of 5),
// 2 local epochs = 12 steps per chunk.
std::string cluster(const std::string& runs, int max_iterations = 48) {
  return R"({
    "name": "update-unit", "seed": 4,
    "cluster": {"ps": {"profile": "DS3_v2"},
                "workers": [{"profile": "B1ms"}, {"profile": "DS2_v2"}, {"profile": "F4s_v2"}]},
    "training": {"chunk_size": 100, "local_epochs": 2, "batch_size": 16,
                 "stop": {"patience": 1000, "max_iterations": )" +
         std::to_string(max_iterations) + R"(}},
    "runs": [)" +
         runs + "]}";
}

// The CSVs of a run but summary.csv, whose parameter columns name the settings.
std::string outputs_but_summary(const std::string& runs, int max_iterations = 48) {
  const std::string all =
      testing::full_output(testing::scenario_from_text(cluster(runs, max_iterations)));
  return all.substr(all.find("== global.csv"));
}

TEST(UpdateUnit, StepsCoveringTheWholeChunkAreTheChunkRun) {
  // 12 steps per push = the chunk's whole pass: the same math, FLOPs, bytes and times.
  for (const std::string p : {"bsp", "asp", "ebsp"}) {
    const std::string chunk = outputs_but_summary(R"({"name": "x", "protocol": ")" + p + "\"}");
    const std::string steps = outputs_but_summary(R"({"name": "x", "protocol": ")" + p +
                                                  R"(", "update_unit": "steps",
                                                   "steps_per_update": 12})");
    EXPECT_EQ(steps, chunk) << p;
    // A pass cut into 5 + 5 + 2 steps is another run.
    EXPECT_NE(outputs_but_summary(R"({"name": "x", "protocol": ")" + p +
                                  R"(", "update_unit": "steps", "steps_per_update": 5})"),
              chunk)
        << p;
  }
}

TEST(UpdateUnit, PerStepAspPushesAndPullsEveryMiniBatchAndFetchesAChunkPerPass) {
  const auto sc = testing::scenario_from_text(
      cluster(R"({"name": "asp", "protocol": "asp", "update_unit": "steps"})", 120));
  const auto data = testing::blocks_split();
  const RunResult r = run_protocol(sc, sc.runs[0], data);
  EXPECT_EQ(r.updates, 120);
  EXPECT_EQ(r.api.pushes, r.total_local_iterations());
  EXPECT_NEAR(r.wi_avg(), 1.0, 0.0);  // a pull before every step
  // One chunk per 12 steps: a worker that began L iterations fetched ceil(L / 12) chunks.
  std::int64_t chunks = 0;
  for (const std::int64_t l : r.local_iterations) chunks += (l + 11) / 12;
  EXPECT_EQ(r.api.data_requests, chunks);
  // A step's compute is a twelfth of a chunk's (up to the held-out evaluation and the short
  // batch): the per-step overhead and FLOPs of one mini-batch, not of two epochs.
  const auto chunk_sc = testing::scenario_from_text(cluster(R"({"name": "a", "protocol": "asp"})"));
  const RunResult c = run_protocol(chunk_sc, chunk_sc.runs[0], data);
  EXPECT_LT(r.train_flops / static_cast<double>(r.total_local_iterations()),
            0.1 * c.train_flops / static_cast<double>(c.total_local_iterations()));
}

TEST(UpdateUnit, EvaluateEveryKUpdatesEvaluatesAfterEachKth) {
  const auto sc = testing::scenario_from_text(cluster(
      R"({"name": "asp", "protocol": "asp", "update_unit": "steps", "evaluate_every": 4})"));
  const auto data = testing::blocks_split();
  const RunResult r = run_protocol(sc, sc.runs[0], data);
  EXPECT_EQ(r.updates, 48);
  ASSERT_EQ(r.global.size(), 12u);
  for (std::size_t i = 0; i < r.global.size(); ++i) {
    EXPECT_EQ(r.global[i].updates, 4 * static_cast<std::int64_t>(i + 1));
  }
  // BSP: a round of 3 updates; every second round is evaluated (6 updates >= 4, then 3 + 3).
  const auto bsp = testing::scenario_from_text(
      cluster(R"({"name": "bsp", "protocol": "bsp", "evaluate_every": 4})"));
  const RunResult b = run_protocol(bsp, bsp.runs[0], data);
  ASSERT_GE(b.global.size(), 3u);
  for (std::size_t i = 0; i < b.global.size(); ++i) {
    EXPECT_EQ(b.global[i].updates, 6 * static_cast<std::int64_t>(i + 1));
  }
}

TEST(ServerStep, ServerLrIsTheWeightServerLrOverLr) {
  // server_lr = lr applies each update whole: "add", bit for bit; another server_lr does not.
  const std::string add = outputs_but_summary(
      R"({"name": "x", "protocol": "asp", "update_unit": "steps", "async_update": "add"})");
  EXPECT_EQ(outputs_but_summary(R"({"name": "x", "protocol": "asp", "update_unit": "steps",
                                    "async_update": "server-lr", "server_lr": 0.1})"),
            add);
  EXPECT_NE(outputs_but_summary(R"({"name": "x", "protocol": "asp", "update_unit": "steps",
                                    "async_update": "server-lr", "server_lr": 0.05})"),
            add);
  EXPECT_NE(outputs_but_summary(R"({"name": "x", "protocol": "asp", "update_unit": "steps",
                                    "async_update": "average"})"),
            add);
}

TEST(UpdateUnit, SspClocksCountSteps) {
  // s = 2 in steps: no worker begins a step more than 2 steps ahead of the slowest's completed.
  const auto sc = testing::scenario_from_text(
      cluster(R"({"name": "ssp", "protocol": "ssp", "staleness": 2, "update_unit": "steps"})", 90));
  const auto data = testing::blocks_split();
  const RunResult r = run_protocol(sc, sc.runs[0], data);
  ASSERT_EQ(r.updates, 90);
  for (const auto& it : r.local_iteration_log) {
    std::int64_t slowest = INT64_MAX;
    for (int v = 0; v < 3; ++v) {
      std::int64_t done = 0;
      for (const auto& o : r.local_iteration_log) done += o.worker == v && o.end <= it.start;
      slowest = std::min(slowest, done);
    }
    EXPECT_LE(it.local_iteration - 1 - slowest, 2) << "worker " << it.worker;
  }
}

}  // namespace
}  // namespace hermes::protocols
