// `hermes-sim bench run` end to end on a tiny scenario over synthetic MNIST: the table of where
// the time goes adds up, and the run files it writes to time them leave nothing behind.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/run_command.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/synthetic_mnist.h"
#include "tests/support/tiny_sweep.h"

namespace {

namespace fs = std::filesystem;

class BenchRun : public hermes::testing::ScratchDirTest {};

// The numbers of the row of `text` whose first field is `first`, after a line holding `after`.
std::vector<double> row_after(const std::string& text, const std::string& after,
                              const std::string& first) {
  std::istringstream in(text.substr(text.find(after)));
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string head;
    if (!(fields >> head) || head != first) continue;
    std::vector<double> values;
    for (double v; fields >> v;) values.push_back(v);
    return values;
  }
  return {};
}

TEST_F(BenchRun, SharesOfTheWorkAddUpAndTheTimedOutputIsRemoved) {
  hermes::sweep::testing::write_blocks_mnist(path("data"));
  put("tiny.json", hermes::testing::kTinySweepScenario);
  fs::create_directories(path("tmp"));
  const auto r = hermes::testing::run_command(
      "TMPDIR=" + path("tmp") + " " + HERMES_BINARY + " bench run " + path("tiny.json") +
      " --threads-list 1,2 --workers-list '' --gemm-repeats 1 --data-dir " + path("data"));
  ASSERT_EQ(r.status, 0) << r.output;
  ASSERT_NE(r.output.find("where the time goes"), std::string::npos) << r.output;
  for (const char* threads : {"1", "2"}) {
    // thr train_s eval_s sim_s io_s train% eval% sim% io% wait_s idle% wall_s limit_s wall/lim
    const std::vector<double> v = row_after(r.output, "where the time goes", threads);
    ASSERT_EQ(v.size(), 13u) << r.output;
    EXPECT_GT(v[0], 0.0) << "training seconds";
    EXPECT_GT(v[1], 0.0) << "evaluation seconds";
    EXPECT_GE(v[3], 0.0) << "output seconds";  // under 0.0005 s for so small a run
    EXPECT_NEAR(v[4] + v[5] + v[6] + v[7], 100.0, 0.3) << r.output;
    EXPECT_GT(v[12], 0.0) << "wall / limit";
  }
  EXPECT_TRUE(fs::is_empty(path("tmp"))) << "bench run left its timed output behind";
}

}  // namespace
