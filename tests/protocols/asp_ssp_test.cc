#include <gtest/gtest.h>

#include <algorithm>

#include "sim/protocols/registry.h"
#include "tests/support/scenario_text.h"
#include "tests/support/synthetic_blocks.h"

namespace hermes::protocols {
namespace {

scenario::Scenario cluster(const std::string& run, int patience = 1000, int max_iterations = 60) {
  const std::string text = R"({
    "name": "async-test", "seed": 9,
    "cluster": {"ps": {"profile": "DS3_v2"},
                "workers": [{"profile": "B1ms", "overrides": {"burst": {"baseline_pct": 20,
                               "credits_per_hour": 12, "max_credits": 288, "initial_credits": 0}}},
                            {"profile": "DS2_v2"}, {"profile": "F4s_v2"}, {"profile": "F8s_v2"}]},
    "training": {"chunk_size": 100, "local_epochs": 1, "batch_size": 16,
                 "stop": {"patience": )" +
                           std::to_string(patience) + R"(, "max_iterations": )" +
                           std::to_string(max_iterations) + R"(}},
    "runs": [)" + run + "]}";
  return hermes::testing::scenario_from_text(text, "async-test");
}

// Completed iterations of worker v at time t.
std::int64_t completed(const RunResult& r, int v, engine::SimTime t) {
  return std::count_if(
      r.local_iteration_log.begin(), r.local_iteration_log.end(),
      [&](const WorkerIterationRecord& it) { return it.worker == v && it.end <= t; });
}

TEST(Asp, AppliesEveryUpdateOnArrivalAndEvaluatesEach) {
  const auto sc = cluster(R"({"name": "asp", "protocol": "asp"})");
  const auto data = testing::blocks_split();
  const RunResult r = run_protocol(sc, sc.runs[0], data);
  EXPECT_EQ(r.stop_reason, StopReason::kMaxIterations);
  EXPECT_EQ(r.updates, 60);
  EXPECT_EQ(r.aggregations, 60);  // one evaluation per applied update
  for (std::size_t i = 0; i < r.global.size(); ++i) {
    EXPECT_EQ(r.global[i].updates, static_cast<std::int64_t>(i) + 1);
    EXPECT_GE(r.global[i].worker, 0);
  }
  EXPECT_NEAR(r.wi_avg(), 1.0, 0.0);
  // Without a barrier the credit-less B1ms (20% speed) falls far behind the F8s_v2.
  EXPECT_GT(r.local_iterations[3], 3 * r.local_iterations[0]);
  EXPECT_GT(r.accuracy_at_best, 0.5);
}

TEST(Ssp, NoWorkerStartsMoreThanStalenessAheadOfTheSlowest) {
  for (int s : {0, 1, 3}) {
    const auto sc =
        cluster(R"({"name": "ssp", "protocol": "ssp", "staleness": )" + std::to_string(s) + "}");
    const auto data = testing::blocks_split();
    const RunResult r = run_protocol(sc, sc.runs[0], data);
    ASSERT_GT(r.updates, 20);
    std::int64_t max_lead = 0;
    for (const auto& it : r.local_iteration_log) {
      // When w starts its k-th iteration it has completed k-1; the slowest has completed m.
      std::int64_t slowest = INT64_MAX;
      for (int v = 0; v < 4; ++v) slowest = std::min(slowest, completed(r, v, it.start));
      const std::int64_t lead = (it.local_iteration - 1) - slowest;
      EXPECT_LE(lead, s) << "s=" << s << " worker " << it.worker << " iteration "
                         << it.local_iteration;
      max_lead = std::max(max_lead, lead);
    }
    EXPECT_EQ(max_lead, s) << "the bound is reached: the slow B1ms holds the others back";
    EXPECT_NEAR(r.wi_avg(), 1.0, 0.0);
  }
}

TEST(Ssp, LargeStalenessBehavesLikeAsp) {
  const auto data = testing::blocks_split();
  const auto ssp = cluster(R"({"name": "ssp", "protocol": "ssp", "staleness": 100000})");
  const auto asp = cluster(R"({"name": "asp", "protocol": "asp"})");
  const RunResult a = run_protocol(ssp, ssp.runs[0], data);
  const RunResult b = run_protocol(asp, asp.runs[0], data);
  EXPECT_EQ(a.sim_time, b.sim_time);
  ASSERT_EQ(a.global.size(), b.global.size());
  for (std::size_t i = 0; i < a.global.size(); ++i) EXPECT_EQ(a.global[i].loss, b.global[i].loss);
}

// "average" applies delta / n instead of delta. Everything before the first application is the
// same (every worker's first iteration starts from w0), then the global models part.
TEST(AsyncUpdate, AverageAppliesAnNthOfEachUpdate) {
  const auto data = testing::blocks_split();
  for (const char* protocol : {"asp", "ssp", "ebsp"}) {
    const std::string p = std::string(R"("protocol": ")") + protocol + R"(")";
    const auto add = cluster("{" + p + "}");
    const auto avg = cluster("{" + p + R"(, "async_update": "average"})");
    const RunResult a = run_protocol(add, add.runs[0], data);
    const RunResult b = run_protocol(avg, avg.runs[0], data);
    ASSERT_FALSE(a.global.empty());
    ASSERT_FALSE(b.global.empty());
    for (int w = 0; w < 4; ++w) {
      const auto first = [w](const RunResult& r) {
        return *std::find_if(r.local_iteration_log.begin(), r.local_iteration_log.end(),
                             [w](const WorkerIterationRecord& it) { return it.worker == w; });
      };
      EXPECT_EQ(first(a).local_loss, first(b).local_loss) << protocol << " worker " << w;
      EXPECT_EQ(first(a).end, first(b).end) << protocol << " worker " << w;
    }
    EXPECT_NE(a.global[0].loss, b.global[0].loss) << protocol;
    // A quarter of one worker's step from w0 improves the loss less than the whole step.
    EXPECT_GT(b.global[0].loss, a.global[0].loss) << protocol;
  }
}

TEST(AsyncUpdate, AverageIsAddForASingleWorker) {
  const auto data = testing::blocks_split();
  const auto one = [](const char* extra) {
    const std::string text = R"({"name": "one", "seed": 3,
      "cluster": {"ps": {"profile": "DS3_v2"}, "workers": [{"profile": "DS2_v2"}]},
      "training": {"chunk_size": 100, "local_epochs": 1, "stop": {"max_iterations": 12}},
      "runs": [{"protocol": "asp")" +
                             std::string(extra) + "}]}";
    Diagnostics diags("one");
    auto sc = scenario::check_scenario_text(text, {}, HERMES_SOURCE_DIR, diags);
    EXPECT_TRUE(diags.ok()) << diags.format();
    return *sc;
  };
  const auto add = one("");
  const auto avg = one(R"(, "async_update": "average")");
  const RunResult a = run_protocol(add, add.runs[0], data);
  const RunResult b = run_protocol(avg, avg.runs[0], data);
  ASSERT_EQ(a.global.size(), 12u);
  ASSERT_EQ(b.global.size(), 12u);
  for (std::size_t i = 0; i < a.global.size(); ++i) EXPECT_EQ(a.global[i].loss, b.global[i].loss);
  EXPECT_EQ(a.sim_time, b.sim_time);
}

}  // namespace
}  // namespace hermes::protocols
