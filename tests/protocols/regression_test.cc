// Frozen full output of a tiny scenario, one run per simulated protocol (the TESH idea of SimGrid,
// the refs of ASTRA-sim): any change of the event order, the compute or network model, the math
// or the CSV layout shows up here as a diff. After an intended change, regenerate with
//   HERMES_UPDATE_REFS=1 build/test_protocols --gtest_filter='Regression.*'
// and review the diff of tests/protocols/refs/ like code. The numbers hold for x86-64 builds of
// this project's Release build (Eigen's kernels and the optimiser's choices differ between
// instruction sets and optimisation levels at the last bit).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "tests/protocols/full_output.h"

namespace hermes::protocols {
namespace {

const char* kScenario = R"({
  "name": "tiny", "seed": 11,
  "cluster": {"ps": {"profile": "DS3_v2"},
              "workers": [{"profile": "B1ms", "overrides": {"burst": {"baseline_pct": 20,
                             "credits_per_hour": 12, "max_credits": 288, "initial_credits": 0}}},
                          {"profile": "DS2_v2"}, {"profile": "F4s_v2"}]},
  "training": {"chunk_size": 60, "local_epochs": 1, "batch_size": 16,
               "stop": {"patience": 4, "max_iterations": 15}},
  "runs": [{"name": "bsp", "protocol": "bsp"},
           {"name": "asp", "protocol": "asp"},
           {"name": "ssp-1", "protocol": "ssp", "staleness": 1},
           {"name": "hermes-ref", "protocol": "hermes", "alpha": -0.5},
           {"name": "hermes-paper", "protocol": "hermes", "alpha": -0.5, "variant": "paper"}]
})";

TEST(Regression, TinyScenarioFullOutputIsFrozen) {
#if defined(__SANITIZE_ADDRESS__)
  // The reference is the Release build's output (-O3 -march=native). The sanitizer build
  // (-O1) rounds some float operations differently in the last bit, which moves z-scores in their
  // 6th decimal; every other test still runs there.
  GTEST_SKIP() << "frozen output is checked in the Release build";
#endif
  const std::string path = std::string(HERMES_SOURCE_DIR) + "/tests/protocols/refs/tiny.txt";
  const std::string got = testing::full_output(testing::scenario_from_text(kScenario));
  if (const char* update = std::getenv("HERMES_UPDATE_REFS");
      update && std::string(update) == "1") {
    std::ofstream(path) << got;
    GTEST_SKIP() << "reference rewritten: " << path;
  }
  std::ifstream in(path);
  ASSERT_TRUE(in) << "missing " << path << " (generate it with HERMES_UPDATE_REFS=1)";
  std::stringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(got, expected.str()) << "the tiny scenario's output changed; see the test's comment";
}

}  // namespace
}  // namespace hermes::protocols
