// `hermes-sim compare` checks the setup the runs were made with: a run directory's scenario.json,
// or every point's of a sweep directory, each against the paper's scenario under its own
// accounting (the accounting says how runs are charged and counted, not what they run).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/run_command.h"
#include "tests/support/scratch_dir.h"

namespace {

namespace fs = std::filesystem;
using hermes::testing::file_text;
using hermes::testing::unwrapped;

class CompareSetup : public hermes::testing::ScratchDirTest {
 protected:
  // The paper's scenario with `insert` placed after its opening brace.
  static std::string paper_with(const std::string& insert) {
    std::string s = file_text(std::string(HERMES_SOURCE_DIR) + "/scenarios/paper/mnist.json");
    return s.insert(s.find('{') + 1, insert);
  }
  void summary_in(const std::string& dir) const {
    put(dir + "/summary.csv",
        file_text(std::string(HERMES_SOURCE_DIR) + "/results/reference/sim-mnist-seed1.csv"));
  }
  hermes::testing::CommandResult compare(const std::string& dir) const {
    return hermes::testing::run_command(std::string(HERMES_BINARY) + " compare " + path(dir));
  }
};

TEST_F(CompareSetup, ARunDirectoryOfThePapersScenarioGetsNoWarning) {
  summary_in("run");
  put("run/scenario.json", paper_with(""));
  const auto r = compare("run");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("accounting: clean\n"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("not the paper's setup"), std::string::npos) << r.output;
}

TEST_F(CompareSetup, TheReleasedCodeAccountingIsNoSetupDifference) {
  summary_in("run");
  put("run/scenario.json", paper_with(R"("accounting": "released-code",)"));
  const auto r = compare("run");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("accounting: released-code\n"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("not the paper's setup"), std::string::npos) << r.output;
  // A switch set apart from the accounting is one.
  put("run/scenario.json",
      paper_with(R"("accounting": "released-code", "transfers": {"chunk_delay_s": 5},)"));
  const auto d = compare("run");
  EXPECT_NE(d.output.find("not the paper's setup"), std::string::npos) << d.output;
  EXPECT_NE(unwrapped(d.output).find("transfers.chunk_delay_s 5 (paper 2)"), std::string::npos)
      << d.output;
}

TEST_F(CompareSetup, ASweepDirectoryIsCheckedPointByPoint) {
  summary_in("sweep");
  put("sweep/points/0000/scenario.json", paper_with(R"("accounting": "released-code",)"));
  std::string capped = paper_with("");
  const std::string stop = R"("stop": {"patience": 25, "patience_unit": "evaluations"})";
  ASSERT_NE(capped.find(stop), std::string::npos);
  capped.replace(
      capped.find(stop), stop.size(),
      R"("stop": {"patience": 25, "patience_unit": "evaluations", "max_iterations": 40})");
  put("sweep/points/0001/scenario.json", capped);
  const auto r = compare("sweep");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("accounting: clean, released-code\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("not the paper's setup"), std::string::npos) << r.output;
  EXPECT_NE(unwrapped(r.output).find("training.stop.max_iterations 40 (paper 200000)"),
            std::string::npos)
      << r.output;

  fs::remove_all(path("sweep/points"));
  const auto none = compare("sweep");
  ASSERT_EQ(none.status, 0) << none.output;
  EXPECT_NE(none.output.find("no scenario.json beside"), std::string::npos) << none.output;
}

}  // namespace
