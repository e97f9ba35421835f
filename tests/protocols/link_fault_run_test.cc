// Link faults in a protocol run: losing a worker's link holds up BSP's rounds (and changes
// nothing else: BSP's math does not depend on timing), and a fault no flow meets leaves every
// output byte-identical.
#include <gtest/gtest.h>

#include <string>

#include "tests/protocols/full_output.h"
#include "tests/protocols/tiny_bsp.h"

namespace hermes::protocols {
namespace {

using namespace engine::time_literals;

TEST(LinkFaultRun, AFaultNoFlowMeetsChangesNoOutput) {
  const std::string plain =
      testing::full_output(testing::scenario_from_text(testing::tiny_bsp("")));
  const std::string late = testing::full_output(testing::scenario_from_text(testing::tiny_bsp(
      R"(, "events": [{"kind": "link", "node": "w0", "at_s": 100000, "duration_s": 10,
                       "bandwidth_factor": 0, "added_latency_ms": 50}])")));
  EXPECT_EQ(plain, late);
}

constexpr const char* kLostW2 = R"(, "events": [{"kind": "link", "node": "w2", "at_s": 0,
                                                 "duration_s": 5, "bandwidth_factor": 0}])";

// w2's link (the fastest worker's) is down for the run's first 5 s: the initial model cannot
// reach it before, so its first iteration and BSP's first round wait for the link, and the run
// ends later (by a little less than 5 s: without the fault the first round waited for the slow
// B1ms worker during part of them); the updates are the same.
TEST(LinkFaultRun, ALostLinkDelaysBspByItsOutage) {
  const auto runs = testing::tiny_bsp_without_and_with(kLostW2);
  testing::expect_same_training(runs);
  const RunResult& plain = runs.without;
  const RunResult& lost = runs.with;
  EXPECT_LT(testing::first_iteration(plain, 2).start, 1_s);
  EXPECT_GT(testing::first_iteration(lost, 2).start, 5_s);
  // The other workers get their first model sooner: the PS's link is shared by two transfers,
  // not three, while w2's stalls.
  EXPECT_LT(testing::first_iteration(lost, 1).start, testing::first_iteration(plain, 1).start);
  EXPECT_GT(lost.sim_time, plain.sim_time + 4_s);
  // Same scenario, same outputs.
  const auto lost_sc = testing::scenario_from_text(testing::tiny_bsp(kLostW2));
  EXPECT_EQ(testing::full_output(lost_sc), testing::full_output(lost_sc));
}

// A degraded PS link with added latency slows every transfer: the run takes longer.
TEST(LinkFaultRun, ADegradedPsLinkSlowsTheRun) {
  const auto runs = testing::tiny_bsp_without_and_with(
      R"(, "events": [{"kind": "link", "node": "ps", "at_s": 0, "duration_s": 100000,
                       "bandwidth_factor": 0.01, "added_latency_ms": 20}])");
  testing::expect_same_training(runs);
  EXPECT_GT(runs.with.sim_time, runs.without.sim_time);
}

}  // namespace
}  // namespace hermes::protocols
