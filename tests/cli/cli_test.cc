// End-to-end checks of the hermes-sim command line: exit codes, messages and files written.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim/common/build_info.h"
#include "tests/support/run_command.h"
#include "tests/support/synthetic_mnist.h"

namespace {

namespace fs = std::filesystem;

using Result = hermes::testing::CommandResult;

Result run(const std::string& args) {
  return hermes::testing::run_command(std::string(HERMES_BINARY) + " " + args);
}

std::string src(const std::string& rel) { return std::string(HERMES_SOURCE_DIR) + "/" + rel; }

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `hermes-sim run` of the demo scenario into `out`, with `extra` options.
std::string demo_run(const fs::path& out, const std::string& extra) {
  return "run " + src("scenarios/examples/demo.json") + " --out " + out.string() + " " + extra;
}

fs::path fresh_dir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("hermes-cli-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(d);
  return d;
}

TEST(Cli, HelpListsEveryCommandAndEachCommandHasHelp) {
  const Result r = run("--help");
  EXPECT_EQ(r.status, 0);
  for (const char* c : {"run", "validate", "profiles", "train", "bench", "sweep"}) {
    EXPECT_NE(r.output.find(c), std::string::npos) << c;
    const Result h = run(std::string(c) + " --help");
    EXPECT_EQ(h.status, 0) << c << ": " << h.output;
    EXPECT_NE(h.output.find("hermes-sim"), std::string::npos) << c;
  }
}

TEST(Cli, VersionPrintsTheBuildOneFieldPerLine) {
  const Result r = run("--version");
  EXPECT_EQ(r.status, 0) << r.output;
  const hermes::BuildInfo& b = hermes::build_info();  // the same build as the binary
  EXPECT_EQ(r.output.rfind(hermes::version_text(b), 0), 0u) << r.output;
  EXPECT_NE(r.output.find("\nmath: " + b.math_profile + " (" + b.math_arch + ")\n"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("\nhost cpu: " + hermes::host_cpu_model() + "\n"), std::string::npos)
      << r.output;
  EXPECT_NE(run("--help").output.find("--version"), std::string::npos);
}

TEST(Cli, UnknownCommandAndUnknownOptionAreUsageErrors) {
  const Result r = run("frobnicate");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("unknown command 'frobnicate'"), std::string::npos);
  const Result o = run("profiles --no-such-option");
  EXPECT_NE(o.status, 0);
  EXPECT_NE(o.output.find("no-such-option"), std::string::npos);
}

TEST(Cli, ValidateReportsAllFiveMistakesWithTheirJsonPaths) {
  const Result r = run("validate " + src("scenarios/examples/invalid-five-mistakes.json"));
  EXPECT_EQ(r.status, 1);
  for (const char* path :
       {"/training/learning_rte", "/cluster/workers/1/profile", "/network/links/4/bandwidth_mbps",
        "/runs/1/alpha", "/training/chunk_size"}) {
    EXPECT_NE(r.output.find(path), std::string::npos) << path << "\n" << r.output;
  }
  EXPECT_NE(r.output.find("5 errors"), std::string::npos) << r.output;
}

TEST(Cli, ValidateAcceptsTheShippedScenarios) {
  // Every scenario file the project ships, except the deliberately invalid examples; a new file
  // is covered without editing this test.
  std::vector<std::string> files;
  // A scenario on a dataset of its own (examples/own-data.json: made by tools/idx-subset) gets a
  // synthetic one of its shape and classes under its dir, in a data root of its own, with enough
  // training samples of those classes for its chunk (validate counts them).
  const fs::path own_root = fresh_dir("own-data-root");
  std::string own_args;
  for (const char* dir : {"scenarios/examples", "scenarios/paper", "scenarios/bench"}) {
    for (const auto& e : fs::directory_iterator(src(dir))) {
      const std::string name = e.path().filename().string();
      if (e.path().extension() != ".json" || name.starts_with("invalid-")) continue;
      files.push_back(e.path().string());
      const auto doc = nlohmann::json::parse(std::ifstream(e.path()));
      if (doc.contains("dataset") && doc["dataset"].contains("format")) {
        ASSERT_EQ(doc["dataset"]["format"], "idx") << name;
        ASSERT_EQ(doc["dataset"]["shape"], nlohmann::json::parse("[1, 28, 28]")) << name;
        hermes::sweep::testing::write_blocks_idx(
            (own_root / doc["dataset"]["name"].get<std::string>()).string(),
            doc["dataset"]["classes"].get<int>(), 5000);
        own_args += " " + e.path().string();
        files.pop_back();
      }
    }
  }
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 9u);
  ASSERT_FALSE(own_args.empty());
  std::string args;
  for (const auto& f : files) args += " " + f;
  const Result r = run("validate" + args);
  EXPECT_EQ(r.status, 0) << r.output;
  for (const auto& f : files) EXPECT_NE(r.output.find(f + ": ok"), std::string::npos) << r.output;
  const Result own = run("validate --data-dir " + own_root.string() + own_args);
  EXPECT_EQ(own.status, 0) << own.output;
  fs::remove_all(own_root);
  // Counts read as English: one run, several workers.
  const std::string demo = src("scenarios/examples/demo.json");
  EXPECT_NE(r.output.find(demo + ": ok (6 workers, 1 run)\n"), std::string::npos) << r.output;
}

TEST(Cli, MalformedJsonNamesLineAndColumn) {
  const fs::path dir = fresh_dir("malformed");
  fs::create_directories(dir);
  std::ofstream(dir / "bad.json") << "{\n  \"name\": \"x\",\n  \"seed\": ,\n}\n";
  const Result r = run("validate " + (dir / "bad.json").string());
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("bad.json"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("line 3"), std::string::npos) << r.output;
  fs::remove_all(dir);
}

TEST(Cli, ValidateEstimatesLargeScenariosAndRefusesThemAboveTheLimits) {
  const std::string mnist = src("scenarios/paper/mnist.json");
  // 4000 workers: within the limits, with the estimate printed.
  Result r = run("validate " + mnist + " --set cluster.workers.0.count=3992");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("mnist.json: estimate: 8.2 GB of memory (4000 workers x 2.0 MB + mnist "
                          "220 MB; largest run ebsp-150); about "),
            std::string::npos)
      << r.output;
  // 10000: above the default 16 GB, accepted with --max-memory 30.
  r = run("validate " + mnist + " --set cluster.workers.0.count=9992");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("mnist.json: /cluster/workers: estimated 20 GB of memory"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(run("validate " + mnist + " --set cluster.workers.0.count=9992 --max-memory 30").status,
            0);
  r = run("validate " + mnist + " --max-memory 0");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--max-memory: 0 (accepted: a number > 0)"), std::string::npos)
      << r.output;
  // run refuses before anything is written.
  const fs::path out = fresh_dir("toolarge");
  r = run("run " + mnist + " --out " + out.string() + " --set cluster.workers.0.count=9992");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--max-memory 21"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(out));
}

TEST(Cli, ValidateGoesOnAfterANumberOutOfRangeAndNamesItsFileAndPath) {
  const fs::path dir = fresh_dir("huge");
  fs::create_directories(dir);
  std::ofstream(dir / "huge.json") << R"({"name": "x", "seed": 1e400})";
  const Result r =
      run("validate " + (dir / "huge.json").string() + " " + src("scenarios/examples/demo.json"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find((dir / "huge.json").string() +
                          ": /seed: number out of range: number overflow parsing '1e400' "
                          "(accepted: numbers of magnitude below 1.8e308"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("demo.json: ok"), std::string::npos) << r.output;  // checked too
  fs::remove_all(dir);
}

TEST(Cli, ProfilesPrintsTheCatalog) {
  const Result r = run("profiles");
  EXPECT_EQ(r.status, 0) << r.output;
  for (const char* p : {"B1ms", "DS2_v2", "F4s_v2", "Standard_D2s_v3"}) {
    EXPECT_NE(r.output.find(p), std::string::npos) << p;
  }
}

TEST(Cli, RunWritesCompleteOutputsAndRefusesToOverwrite) {
  const fs::path out = fresh_dir("run");
  const std::string cmd = demo_run(out, "--set runs.demo.iterations=3");
  const Result r = run(cmd);
  ASSERT_EQ(r.status, 0) << r.output;
  ASSERT_TRUE(fs::exists(out / "demo_workers.csv"));
  ASSERT_TRUE(fs::exists(out / "timeline.csv"));
  ASSERT_TRUE(fs::exists(out / "scenario.json"));
  ASSERT_TRUE(fs::exists(out / "provenance.json"));
  const std::string summary = read(out / "demo_workers.csv");
  // Header + one row per worker of demo.json.
  EXPECT_EQ(summary.rfind("run,node,profile,iterations", 0), 0u) << summary;
  std::size_t rows = 0;
  for (char c : summary) rows += c == '\n';
  EXPECT_EQ(rows, 1u + 6u);
  EXPECT_NE(summary.find("demo,w0,B1ms,3,"), std::string::npos) << summary;
  // The recorded scenario has the override applied.
  EXPECT_NE(read(out / "scenario.json").find("\"iterations\": 3"), std::string::npos);
  // No temporary directory is left beside it.
  for (const auto& e : fs::directory_iterator(out.parent_path())) {
    EXPECT_EQ(e.path().string().find(out.string() + ".partial"), std::string::npos);
  }
  const Result again = run(cmd);
  EXPECT_EQ(again.status, 2);
  EXPECT_NE(again.output.find("--force"), std::string::npos) << again.output;
  const std::string first = read(out / "timeline.csv");
  ASSERT_EQ(run(cmd + " --force").status, 0);
  EXPECT_EQ(read(out / "timeline.csv"), first);  // deterministic: byte-identical rerun
  fs::remove_all(out);
}

TEST(Cli, RunRecordsItsProvenance) {
  const fs::path out = fresh_dir("provenance");
  const Result r = run(demo_run(out, "--set runs.demo.iterations=2 --threads 3"));
  ASSERT_EQ(r.status, 0) << r.output;
  const hermes::BuildInfo& b = hermes::build_info();
  EXPECT_EQ(r.output.rfind(hermes::build_line(b) + "\ndata: none (demo runs compute no math)\n", 0),
            0u)
      << r.output;
  EXPECT_NE(r.output.find("scenario.json,provenance.json}"), std::string::npos) << r.output;
  const auto p = nlohmann::json::parse(read(out / "provenance.json"));
  EXPECT_EQ(p["format"], 1);
  for (const auto& [key, value] : b.fields()) EXPECT_EQ(p["build"][key], value) << key;
  EXPECT_EQ(p["host"]["cpu"], hermes::host_cpu_model());
  EXPECT_EQ(p["host"]["name"], hermes::host_name());
  ASSERT_GE(p["command_line"].size(), 4u);
  EXPECT_EQ(p["command_line"][0], HERMES_BINARY);
  EXPECT_EQ(p["command_line"][1], "run");
  EXPECT_EQ(p["command_line"].back(), "3");
  EXPECT_EQ(p["threads"], 3);
  EXPECT_EQ(p["datasets"], nlohmann::json::array());  // the demo loads no dataset
  EXPECT_FALSE(p.contains("sweep"));
  fs::remove_all(out);
}

TEST(Cli, RunRejectsABadSetWithoutWritingAnything) {
  const fs::path out = fresh_dir("badset");
  const Result r = run(demo_run(out, "--set training.chunk_size=-5"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("/training/chunk_size"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(out));
}

TEST(Cli, RunRejectsAThreadCountOutsideItsRange) {
  const fs::path out = fresh_dir("threads");
  for (const char* n : {"0", "-2", "5000"}) {
    const Result r = run("run " + src("scenarios/examples/demo.json") + " --out " + out.string() +
                         " --threads " + n);
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find("--threads: " + std::string(n) + " threads (accepted: 1 .. 1024"),
              std::string::npos)
        << r.output;
    EXPECT_FALSE(fs::exists(out));
  }
}

TEST(Cli, RunTraceWritesAChromeTraceOfEveryNode) {
  const fs::path out = fresh_dir("trace");
  const fs::path trace = fresh_dir("trace-file").string() + ".json";
  const std::string cmd = demo_run(out, "--set runs.demo.iterations=3 --trace " + trace.string());
  const Result r = run(cmd);
  ASSERT_EQ(r.status, 0) << r.output;
  const auto doc = nlohmann::json::parse(read(trace));
  // The count printed is the count the file holds.
  EXPECT_NE(r.output.find("(" + std::to_string(doc.at("traceEvents").size()) + " trace events: "),
            std::string::npos)
      << r.output;
  std::set<std::string> threads;
  std::size_t computes = 0;
  for (const auto& e : doc.at("traceEvents")) {
    if (e.at("name") == "process_name") {
      EXPECT_EQ(e.at("args").at("name"), "demo (demo)");
    }
    if (e.at("name") == "thread_name") threads.insert(e.at("args").at("name").get<std::string>());
    computes += e.at("name") == "compute" && e.at("ph") == "X";
  }
  EXPECT_EQ(threads.size(), 7u);  // the PS and six workers
  EXPECT_TRUE(threads.count("w0 (B1ms)"));
  EXPECT_EQ(computes, 6u * 3u);
  const std::string first = read(trace);
  ASSERT_EQ(run(cmd + " --force").status, 0);
  EXPECT_EQ(read(trace), first);  // deterministic
  fs::remove_all(out);
  fs::remove(trace);
}

TEST(Cli, RunTraceIntoAMissingDirectoryFailsBeforeRunning) {
  const fs::path out = fresh_dir("badtrace");
  const Result r = run(demo_run(out, "--trace /nonexistent-dir/t.json"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("its directory '/nonexistent-dir' does not exist"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("/nonexistent-dir/t.json"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("run demo"), std::string::npos) << r.output;  // nothing ran
  EXPECT_FALSE(fs::exists(out));
}

TEST(Cli, BenchRunRejectsBadListsBeforeRunningAnything) {
  const std::string mnist = src("scenarios/bench/small.json");
  const Result t = run("bench run " + mnist + " --threads-list 1,0");
  EXPECT_EQ(t.status, 2);
  EXPECT_NE(t.output.find("--threads-list: '0' is not accepted (accepted: comma-separated"),
            std::string::npos)
      << t.output;
  const Result w = run("bench run " + mnist + " --workers-list 12,50");
  EXPECT_EQ(w.status, 2);
  EXPECT_NE(w.output.find("--workers-list: 50 is not a multiple of the 12 workers"),
            std::string::npos)
      << w.output;
  const Result demo = run("bench run " + src("scenarios/examples/demo.json"));
  EXPECT_EQ(demo.status, 2);
  EXPECT_NE(demo.output.find("bench run times protocol runs only"), std::string::npos)
      << demo.output;
  EXPECT_NE(run("bench --help").output.find("run "), std::string::npos);
}

}  // namespace
