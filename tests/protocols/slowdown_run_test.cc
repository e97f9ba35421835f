// Slowdowns in a protocol run: a slowed worker makes a BSP run take longer in simulated time (and
// changes nothing else: BSP's math does not depend on timing), and a slowdown that no job reaches
// leaves every output byte-identical.
#include <gtest/gtest.h>

#include <string>

#include "tests/protocols/full_output.h"
#include "tests/protocols/tiny_bsp.h"

namespace hermes::protocols {
namespace {

TEST(SlowdownRun, ASlowdownNoJobReachesChangesNoOutput) {
  const std::string plain =
      testing::full_output(testing::scenario_from_text(testing::tiny_bsp("")));
  const std::string late = testing::full_output(testing::scenario_from_text(testing::tiny_bsp(
      R"(, "events": [{"kind": "slowdown", "node": "w0", "at_s": 100000, "duration_s": 10,
                       "speed_factor": 0.5}])")));
  EXPECT_EQ(plain, late);
}

TEST(SlowdownRun, SlowingTheSlowestWorkerLengthensBspAndNothingElse) {
  const auto [plain, slow] = testing::tiny_bsp_without_and_with(
      R"(, "events": [{"kind": "slowdown", "node": "w0", "at_s": 0, "duration_s": 100000,
                       "speed_factor": 0.5}])");
  EXPECT_GT(slow.sim_time, plain.sim_time);
  testing::expect_same_training({plain, slow});
  // Worker 0's first iteration (same start, its compute at half speed) ends later.
  EXPECT_EQ(testing::first_iteration(slow, 0).start, testing::first_iteration(plain, 0).start);
  EXPECT_GT(testing::first_iteration(slow, 0).end, testing::first_iteration(plain, 0).end);
}

}  // namespace
}  // namespace hermes::protocols
