// Slowdowns in a protocol run: a slowed worker makes a BSP run take longer in simulated time (and
// changes nothing else: BSP's math does not depend on timing), and a slowdown that no job reaches
// leaves every output byte-identical.
#include <gtest/gtest.h>

#include <string>

#include "tests/protocols/full_output.h"

namespace hermes::protocols {
namespace {

// The frozen regression's tiny cluster (a B1ms with an empty bank, a DS2_v2, an F4s_v2), BSP only.
std::string tiny_bsp(const std::string& extra) {
  return R"({
  "name": "tiny", "seed": 11,
  "cluster": {"ps": {"profile": "DS3_v2"},
              "workers": [{"profile": "B1ms", "overrides": {"burst": {"baseline_pct": 20,
                             "credits_per_hour": 12, "max_credits": 288, "initial_credits": 0}}},
                          {"profile": "DS2_v2"}, {"profile": "F4s_v2"}]},
  "training": {"chunk_size": 60, "local_epochs": 1, "batch_size": 16,
               "stop": {"patience": 4, "max_iterations": 15}},
  "runs": [{"name": "bsp", "protocol": "bsp"}])" +
         extra + "}";
}

TEST(SlowdownRun, ASlowdownNoJobReachesChangesNoOutput) {
  const std::string plain = testing::full_output(testing::scenario_from_text(tiny_bsp("")));
  const std::string late = testing::full_output(testing::scenario_from_text(tiny_bsp(
      R"(, "events": [{"kind": "slowdown", "node": "w0", "at_s": 100000, "duration_s": 10,
                       "speed_factor": 0.5}])")));
  EXPECT_EQ(plain, late);
}

TEST(SlowdownRun, SlowingTheSlowestWorkerLengthensBspAndNothingElse) {
  const auto data = testing::blocks_split();
  const auto plain_sc = testing::scenario_from_text(tiny_bsp(""));
  const auto slow_sc = testing::scenario_from_text(tiny_bsp(
      R"(, "events": [{"kind": "slowdown", "node": "w0", "at_s": 0, "duration_s": 100000,
                       "speed_factor": 0.5}])"));
  const RunResult plain = run_protocol(plain_sc, plain_sc.runs[0], data);
  const RunResult slow = run_protocol(slow_sc, slow_sc.runs[0], data);
  ASSERT_EQ(plain.status, RunStatus::kOk);
  ASSERT_EQ(slow.status, RunStatus::kOk);
  EXPECT_GT(slow.sim_time, plain.sim_time);
  EXPECT_EQ(slow.updates, plain.updates);
  EXPECT_EQ(slow.aggregations, plain.aggregations);
  EXPECT_EQ(slow.accuracy_at_best, plain.accuracy_at_best);
  // Worker 0's first iteration (same start, its compute at half speed) ends later.
  auto first_of_w0 = [](const RunResult& r) {
    for (const auto& it : r.local_iteration_log) {
      if (it.worker == 0) return it;
    }
    ADD_FAILURE() << "no iteration of worker 0";
    return WorkerIterationRecord{};
  };
  EXPECT_EQ(first_of_w0(slow).start, first_of_w0(plain).start);
  EXPECT_GT(first_of_w0(slow).end, first_of_w0(plain).end);
}

}  // namespace
}  // namespace hermes::protocols
