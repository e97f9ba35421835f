// `hermes-sim run` --progress json and --quiet end to end, on a tiny scenario and synthetic MNIST
// files (read through --data-dir): the JSON Lines events in order, an empty stderr with --quiet,
// and bad values refused at parse time.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/run_command.h"
#include "tests/support/test_files.h"

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// Two protocol runs that end in well under a second each.
const char* kScenario = R"({
  "name": "tiny-progress", "seed": 3,
  "cluster": {"ps": {"profile": "DS3_v2"},
              "workers": [{"profile": "B1ms"}, {"profile": "DS2_v2"}, {"profile": "F4s_v2"}]},
  "training": {"chunk_size": 60, "local_epochs": 1, "batch_size": 16,
               "stop": {"patience": 4, "max_iterations": 12}},
  "runs": [{"name": "bsp", "protocol": "bsp"}, {"name": "hermes", "protocol": "hermes"}]
})";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

using Output = hermes::testing::SplitResult;

class ProgressCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new hermes::data::testing::TempDir();
    hermes::data::testing::write_idx_dataset(*tmp_ / "data", "mnist", 600, 100, /*gz=*/false);
    std::ofstream(*tmp_ / "tiny.json") << kScenario;
  }
  static void TearDownTestSuite() {
    delete tmp_;
    tmp_ = nullptr;
  }

  // hermes-sim `args`: its exit status, stdout and stderr.
  static Output hermes_sim(const std::string& args) {
    return hermes::testing::run_command_split(std::string(HERMES_BINARY) + " " + args);
  }
  // `hermes-sim run` of the tiny scenario into the directory `out` (under the test's temp dir).
  static Output run(const std::string& out, const std::string& extra) {
    return hermes_sim("run " + (*tmp_ / "tiny.json") + " --data-dir " + (*tmp_ / "data") +
                      " --threads 1 --out " + (*tmp_ / out) + " " + extra);
  }

  static hermes::data::testing::TempDir* tmp_;
};

hermes::data::testing::TempDir* ProgressCli::tmp_ = nullptr;

TEST_F(ProgressCli, JsonProgressIsOneEventPerLineInOrder) {
  const Output r = run("json", "--progress json");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos);  // never rewritten in place
  std::vector<Json> events;
  for (const auto& line : lines_of(r.err)) {
    const Json e = Json::parse(line, nullptr, /*allow_exceptions=*/false);
    ASSERT_TRUE(e.is_object()) << "not a JSON object: " << line;
    ASSERT_TRUE(e["event"].is_string()) << line;
    ASSERT_TRUE(e["wall_s"].is_number()) << line;
    if (!events.empty()) {
      EXPECT_GE(e["wall_s"], events.back()["wall_s"]) << line;
    }
    events.push_back(e);
  }
  // The events in order, a run's run_progress events (at least its first) counted as one.
  std::vector<std::string> order;
  for (const auto& e : events) {
    if (order.empty() || order.back() != "run_progress" || e["event"] != "run_progress") {
      order.push_back(e["event"]);
    }
  }
  const std::vector<std::string> expected = {"scenario_start", "run_start",   "run_progress",
                                             "run_end",        "run_start",   "run_progress",
                                             "run_end",        "scenario_end"};
  ASSERT_EQ(order, expected) << r.err;

  EXPECT_EQ(events.front()["runs"], 2);
  EXPECT_EQ(events.front()["run_names"], Json::array({"bsp", "hermes"}));
  const std::set<std::string> bounds = {"patience", "max_iterations", "max_sim_time"};
  std::size_t runs_ended = 0;
  for (const auto& e : events) {
    if (e["event"] == "run_start") {
      EXPECT_EQ(e["index"], runs_ended + 1);
      EXPECT_EQ(e["runs"], 2);
      EXPECT_EQ(e["run"], runs_ended == 0 ? "bsp" : "hermes");
    } else if (e["event"] == "run_progress") {
      EXPECT_GT(e["updates"].get<int>(), 0) << e;
      EXPECT_GT(e["evaluations"].get<int>(), 0) << e;
      EXPECT_TRUE(e["sim_time_s"].is_number()) << e;
      const Json& eta = e["eta_s"];
      ASSERT_TRUE(eta.is_object()) << e;
      EXPECT_GE(eta["min"].get<double>(), 0.0);
      EXPECT_TRUE(bounds.count(eta["min_by"].get<std::string>())) << e;
      // max_iterations 12 caps the run: an upper bound from the first update on.
      ASSERT_TRUE(eta["max"].is_number()) << e;
      EXPECT_LE(eta["min"].get<double>(), eta["max"].get<double>()) << e;
      const Json& scenario = e["scenario_eta_s"];
      EXPECT_EQ(scenario["runs_to_go"], 1 - runs_ended) << e;
      // The run to go has no estimate before a run finished; after the last, nothing is to go.
      EXPECT_EQ(scenario["runs_to_go_s"].is_null(), runs_ended == 0) << e;
    } else if (e["event"] == "run_end") {
      ++runs_ended;
      EXPECT_EQ(e["status"], "ok") << e;
      EXPECT_TRUE(bounds.count(e["stop_reason"].get<std::string>())) << e;
      EXPECT_EQ(e["runs_done"], runs_ended);
      EXPECT_TRUE(e["runs_to_go_s"].is_number()) << e;  // measured: the bsp run's wall time
    }
  }
  const Json& end = events.back();
  EXPECT_EQ(end["runs_done"], 2);
  EXPECT_EQ(end["scenario"], "tiny-progress");
  EXPECT_NE(std::find(end["files"].begin(), end["files"].end(), "summary.csv"), end["files"].end());
  EXPECT_TRUE(fs::exists(end["dir"].get<std::string>() + "/summary.csv")) << end;
  // stdout is what it is without --progress: a result line per run.
  EXPECT_NE(r.out.find("run bsp "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("run hermes "), std::string::npos) << r.out;
}

TEST_F(ProgressCli, QuietLeavesStderrEmptyAndStdoutAsItWas) {
  const Output text = run("quiet", "");
  ASSERT_EQ(text.status, 0) << text.out << text.err;
  // The text progress, with the iteration cap in the ETA.
  EXPECT_NE(text.err.find("[1/2 bsp] wall "), std::string::npos) << text.err;
  EXPECT_NE(text.err.find("(cap: max_iterations 12"), std::string::npos) << text.err;
  // A stale leftover of a dead process beside the results is removed with a note; --progress
  // none keeps the note, --quiet leaves it out too.
  const std::string stale = *tmp_ / "gone.partial-999999999";
  fs::create_directory(stale);
  const Output noted = run("quiet", "--force --progress none");
  ASSERT_EQ(noted.status, 0) << noted.err;
  EXPECT_EQ(noted.err, "note: removed stale '" + stale +
                           "' (left by process 999999999, which no longer runs)\n");
  fs::create_directory(stale);
  const Output quiet = run("quiet", "--force --quiet");
  ASSERT_EQ(quiet.status, 0) << quiet.out << quiet.err;
  EXPECT_EQ(quiet.err, "");
  EXPECT_FALSE(fs::exists(stale));
  // The same stdout lines, up to the wall times.
  const auto lines = lines_of(quiet.out), before = lines_of(text.out);
  ASSERT_EQ(lines.size(), before.size()) << quiet.out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i].substr(0, lines[i].find("wall")),
              before[i].substr(0, before[i].find("wall")));
  }
  // --quiet with --progress json: the events without the notes.
  const Output events = run("quiet", "--force --quiet --progress json");
  ASSERT_EQ(events.status, 0) << events.err;
  EXPECT_EQ(events.err.rfind("{\"event\":\"scenario_start\"", 0), 0u) << events.err;
  EXPECT_EQ(events.err.find("\"note\""), std::string::npos) << events.err;
}

TEST_F(ProgressCli, ProgressValuesAreCheckedAtParseTime) {
  for (const char* command : {"run", "sweep"}) {
    // Both fail on the option before the scenario is read (it does not exist).
    const std::string base = std::string(command) + " no-such.json --out " + (*tmp_ / "never");
    Output r = hermes_sim(base + " --progress xml");
    EXPECT_EQ(r.status, 2) << command;
    EXPECT_NE(r.err.find("--progress xml: unknown progress format (accepted: text, json, none)"),
              std::string::npos)
        << command << ": " << r.err;
    r = hermes_sim(base + " --quiet --progress text");
    EXPECT_EQ(r.status, 2) << command;
    EXPECT_NE(r.err.find("--progress text contradicts --quiet (accepted with --quiet: --progress "
                         "json or none)"),
              std::string::npos)
        << command << ": " << r.err;
    EXPECT_FALSE(fs::exists(*tmp_ / "never")) << command;
  }
}

}  // namespace
