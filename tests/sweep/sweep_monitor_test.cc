// What the sweep monitor reports (sim/sweep/sweep_monitor.h), through `hermes-sim sweep` on a tiny
// scenario and synthetic data: the JSON Lines events of --progress json in a consistent order,
// and nothing on stderr with --quiet.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/run_command.h"
#include "tests/support/synthetic_mnist.h"
#include "tests/support/test_files.h"

namespace hermes::sweep {
namespace {

using Json = nlohmann::ordered_json;

// One run, three points.
const char* kScenario = R"({
  "name": "tiny-monitor", "seed": 5,
  "cluster": {"ps": {"profile": "DS3_v2"}, "workers": [{"profile": "DS2_v2", "count": 2}]},
  "training": {"chunk_size": 60, "local_epochs": 1, "batch_size": 16,
               "stop": {"patience": 3, "max_iterations": 8}},
  "runs": [{"name": "hermes", "protocol": "hermes"}],
  "sweep": {"grid": {"runs.hermes.alpha": [-0.5, -1.0, -1.5]}}
})";

class SweepMonitorCli : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::write_blocks_mnist(tmp_ / "data");
    std::ofstream(tmp_ / "tiny.json") << kScenario;
  }

  // `hermes-sim sweep` into `out` with `extra`: its exit status, stdout and stderr.
  hermes::testing::SplitResult sweep(const std::string& out, const std::string& extra) {
    return hermes::testing::run_command_split(
        std::string(HERMES_BINARY) + " sweep " + (tmp_ / "tiny.json") + " --data-dir " +
        (tmp_ / "data") + " --out " + (tmp_ / out) + " " + extra);
  }

  data::testing::TempDir tmp_;
};

TEST_F(SweepMonitorCli, JsonEventsStartAndEndEveryPointOnce) {
  const auto r = sweep("s", "--jobs 2 --progress json");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  std::vector<Json> events;
  std::istringstream lines(r.err);
  for (std::string line; std::getline(lines, line);) {
    const Json e = Json::parse(line, nullptr, /*allow_exceptions=*/false);
    ASSERT_TRUE(e.is_object()) << "not a JSON object: " << line;
    ASSERT_TRUE(e["wall_s"].is_number()) << line;
    events.push_back(e);
  }
  ASSERT_GE(events.size(), 2u + 2u * 3u) << r.err;
  EXPECT_EQ(events.front()["event"], "sweep_start");
  EXPECT_EQ(events.front()["points"], 3);
  EXPECT_EQ(events.front()["to_run"], 3);
  EXPECT_EQ(events.back()["event"], "sweep_end");
  EXPECT_EQ(events.back()["done"], 3);
  EXPECT_EQ(events.back()["failed"], 0);
  std::map<std::string, int> started, ended;  // by point name
  std::size_t done = 0;
  for (const auto& e : events) {
    const std::string point = e.value("point", "");
    if (e["event"] == "point_start") {
      EXPECT_EQ(ended.count(point), 0u) << e;
      ++started[point];
    } else if (e["event"] == "point_end") {
      EXPECT_EQ(started[point], 1) << "ends before it starts: " << e;
      ++ended[point];
      EXPECT_EQ(e["status"], "ok") << e;
      EXPECT_EQ(e["done"], ++done) << e;
      ASSERT_EQ(e["results"].size(), 1u) << e;
      EXPECT_EQ(e["results"][0]["run"], "hermes");
      EXPECT_TRUE(e["results"][0]["accuracy"].is_number()) << e;
    } else {
      EXPECT_TRUE(e["event"] == "sweep_start" || e["event"] == "sweep_progress" ||
                  e["event"] == "sweep_end")
          << e;
    }
  }
  EXPECT_EQ(started, (std::map<std::string, int>{{"0000", 1}, {"0001", 1}, {"0002", 1}}));
  EXPECT_EQ(ended, started);
  EXPECT_NE(r.out.find("3/3 points done"), std::string::npos) << r.out;  // stdout as ever
}

TEST_F(SweepMonitorCli, QuietLeavesStderrEmpty) {
  auto r = sweep("q", "--jobs 1");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("point 0002 "), std::string::npos) << r.err;  // the text progress
  // A second sweep resumes (nothing left to run) and prints the same summary line on stdout.
  r = sweep("q", "--jobs 1 --quiet");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("3/3 points done (0 now)"), std::string::npos) << r.out;
  r = sweep("q2", "--jobs 1 --quiet");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("3/3 points done (3 now)"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace hermes::sweep
