// hermes-sim sweep's options beyond the grid, end to end on the tiny scenario: --runs (and the
// note naming the runs the grid leaves alone), --dry-run and --point-timeout.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tests/sweep/sweep_cli_fixture.h"

namespace hermes::sweep {
namespace {

TEST_F(SweepCli, RunsSelectsTheRunsOfEveryPointAndResumeKeepsTheSelection) {
  // Without --runs the sweep says which run the grid leaves alone (bsp: 2 x 2 alpha/beta points);
  // with --no-reuse, which computes it at every point, it names the --runs that leaves it out.
  auto r = sweep(dir("runs-all"), "--jobs 2 --no-reuse");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("note: no grid key changes run bsp, so each seed computes it "
                          "identically at all 4 grid points (3 repeats per seed); --runs hermes "
                          "runs only the runs the grid varies (summary.csv then has no bsp rows, "
                          "and no speedup_vs_bsp, which needs the BSP run)"),
            std::string::npos)
      << r.output;

  r = sweep(dir("runs"), "--jobs 2 --runs hermes");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output.find("note: no grid key"), std::string::npos) << r.output;
  const std::string summary = slurp(dir("runs") + "/summary.csv");
  EXPECT_EQ(lines(summary), 1u + 4);
  EXPECT_EQ(summary.find(",bsp,"), std::string::npos) << summary;
  // Hermes ran as in the sweep of every run: its timeline is the same lines.
  for (const char* point : {"0000", "0003"}) {
    const std::string all = slurp(dir("runs-all") + "/points/" + point + "/global.csv");
    const std::string hermes = slurp(dir("runs") + "/points/" + point + "/global.csv");
    EXPECT_EQ(lines(hermes), 1u + 12) << hermes;
    std::istringstream rows(hermes);
    for (std::string row; std::getline(rows, row);) {
      EXPECT_NE(all.find(row + "\n"), std::string::npos) << row;
    }
  }
  EXPECT_EQ(Json::parse(slurp(dir("runs") + "/sweep.json"))["runs"].dump(), R"(["hermes"])");
  const auto point = Json::parse(slurp(dir("runs") + "/points/0001/scenario.json"));
  ASSERT_EQ(point["runs"].size(), 1u);
  EXPECT_EQ(point["runs"][0]["name"], "hermes");

  // A resume must select the same runs.
  fs::remove_all(dir("runs") + "/points/0001");
  r = sweep(dir("runs"), "--jobs 2");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("runs (--runs): hermes (recorded) vs bsp,hermes (now)"),
            std::string::npos)
      << r.output;
  r = sweep(dir("runs"), "--jobs 2 --runs hermes");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("3 done before, 1 to run"), std::string::npos) << r.output;

  r = sweep(dir("runs-bad"), "--runs hermes,asp");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--runs: " + (*tmp_ / "tiny.json") +
                          " has no run named 'asp' (its runs: bsp, hermes)"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(dir("runs-bad")));
}

// Every path under `root` with its size and modification time: what a dry run must not change.
std::string tree_state(const std::string& root) {
  std::string out;
  if (!fs::exists(root)) return out;
  std::vector<std::string> entries;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    std::string line = fs::relative(e.path(), root).string();
    if (e.is_regular_file()) {
      line += " " + std::to_string(e.file_size()) + " " +
              std::to_string(e.last_write_time().time_since_epoch().count());
    }
    entries.push_back(line);
  }
  std::sort(entries.begin(), entries.end());
  for (const auto& e : entries) out += e + "\n";
  return out;
}

TEST_F(SweepCli, DryRunChecksEverythingListsThePointsAndWritesNothing) {
  auto r = sweep(dir("dry"), "--dry-run --jobs 2");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_FALSE(fs::exists(dir("dry")));
  EXPECT_NE(r.output.find("\ndata: mnist from " + (*tmp_ / "data/mnist") + " (--data-dir)\n"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("sweep " + dir("dry") +
                          ": 4 points (2 grid keys x 1 seed), 0 done before, 4 to run on 2 "
                          "threads\nruns: 8 at 4 points to run, 3 of them equal to a run of "
                          "another: 5 to compute, 3 reused\neach point runs: bsp, hermes\nlargest "
                          "estimate, point 0000: "),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("point  runs.hermes.alpha  runs.hermes.beta  seed  state\n"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("\n0002                  -1               0.1    11  to run\n"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("dry run: nothing was created or changed"), std::string::npos);

  // In a sweep that ran in part: which points are done; still nothing changes.
  ASSERT_EQ(sweep(dir("dry"), "--jobs 2").status, 0);
  fs::remove_all(dir("dry") + "/points/0002");
  std::ofstream(dir("dry") + "/points/0002.partial-99999") << "left by kill -9";
  const std::string before = tree_state(dir("dry"));
  r = sweep(dir("dry"), "--dry-run --runs hermes,bsp");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("3 done before, 1 to run"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\n0001                -0.5               0.2    11  done\n"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("11  to run\n"), std::string::npos) << r.output;
  EXPECT_EQ(tree_state(dir("dry")), before);

  // It refuses what the sweep would refuse, in the same words.
  r = sweep(dir("dry"), "--dry-run --runs hermes");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("runs (--runs): bsp,hermes (recorded) vs hermes (now)"),
            std::string::npos)
      << r.output;
  r = run_command(std::string(HERMES_BINARY) + " sweep " + (*tmp_ / "tiny.json") + " --data-dir " +
                  (*tmp_ / "nodata") + " --out " + dir("dry") + " --dry-run");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("no such directory"), std::string::npos) << r.output;
  r = sweep(dir("dry2"), "--dry-run --grid runs.hermes.alpha=0.5");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("/runs/1/alpha"), std::string::npos) << r.output;
  {
    const int fd = ::open((dir("dry") + "/.sweep.lock").c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::flock(fd, LOCK_EX), 0);  // as a running sweep holds it
    r = sweep(dir("dry"), "--dry-run");
    ::close(fd);
  }
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("another hermes-sim sweep is running in '" + dir("dry") + "'"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(tree_state(dir("dry")), before);
  EXPECT_FALSE(fs::exists(dir("dry2")));
}

TEST_F(SweepCli, ADryRunOfManyPointsListsTheEndsAndCountsTheRest) {
  // 4 grid points x 60 seeds: loaded once per grid combination, listed in part.
  const auto r = sweep(dir("dry-many"), "--dry-run --seeds 60");
  ASSERT_EQ(r.status, 0) << r.output;
  expect_says(r, "240 points (2 grid keys x 60 seeds)");
  expect_says(r, "\n0009                -0.5               0.1    20  to run\n...");
  expect_says(r, "\n0230                  -1               0.2    61  to run\n");
  expect_says(r,
              "(220 points not listed, 0010 to 0229: 0 done, 220 to run; a dry run lists "
              "every point of a sweep of at most 100)\n");
  EXPECT_EQ(r.output.find("\n0010 "), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir("dry-many")));
}

// The files of every point of `a` are those of `b` (provenance.json aside); `points` of them.
void expect_same_points(const std::string& a, const std::string& b, std::size_t points) {
  std::size_t dirs = 0;
  for (const auto& entry : fs::directory_iterator(a + "/points")) {
    ++dirs;
    for (const auto& file : fs::directory_iterator(entry.path())) {
      if (file.path().filename() == "provenance.json") continue;
      const fs::path other =
          fs::path(b) / "points" / entry.path().filename() / file.path().filename();
      EXPECT_EQ(slurp(file.path()), slurp(other)) << other;
    }
  }
  EXPECT_EQ(dirs, points);
}

TEST_F(SweepCli, APointPastItsTimeoutIsAbandonedRecordedAndRunAgain) {
  // Two points: 0000 stops after one update, 0001 would apply 10^6 of them: it is abandoned. The
  // timeout leaves the first point seconds to spare even under a sanitizer on a loaded machine
  // (0.3 s did not, once), and is far below what 10^6 updates take.
  const std::string two_points =
      "--runs hermes --grid runs.hermes.alpha=-0.5 --grid runs.hermes.beta=0.1 "
      "--set training.stop.patience=1000000 --jobs 1 --grid training.stop.max_iterations=";
  const std::string timeout = two_points + "1,1000000 --point-timeout 4.5";
  auto r = sweep(dir("timeout"), timeout);
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("training.stop.max_iterations=1000000 seed=11: FAILED: timed out: still "
                          "running after --point-timeout 4.5 s of wall time; abandoned, its "
                          "partial output removed"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("sweep " + dir("timeout") + ": 1/2 points done (1 now)"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("1 point timed out (--point-timeout 4.5 s): abandoned, partial outputs "
                          "removed, listed in " +
                          dir("timeout") +
                          "/timed_out.json; run the same command again to retry them (with a "
                          "larger --point-timeout if they need more time):\n  0001 "),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("failed (run the same command"), std::string::npos) << r.output;
  std::vector<std::string> entries;
  for (const auto& e : fs::directory_iterator(dir("timeout") + "/points")) {
    entries.push_back(e.path().filename().string());
  }
  EXPECT_EQ(entries, std::vector<std::string>{"0000"});  // no partial directory of 0001 left
  EXPECT_EQ(Json::parse(slurp(dir("timeout") + "/timed_out.json")).dump(),
            R"({"points":[{"point":"0001","timeout_s":4.5}]})");
  EXPECT_EQ(lines(slurp(dir("timeout") + "/summary.csv")), 1u + 1);

  // The point that finished is the same bytes as without a timeout.
  ASSERT_EQ(sweep(dir("no-timeout"), two_points + "1").status, 0);
  expect_same_points(dir("no-timeout"), dir("timeout"), 1);

  // The next start says which points it runs again (here 0000 too, as if it had timed out in an
  // earlier start); the record then keeps only the point that timed out again.
  fs::remove_all(dir("timeout") + "/points/0000");
  std::ofstream(dir("timeout") + "/timed_out.json")
      << R"({"points": [{"point": "0000", "timeout_s": 0.1}, {"point": "0001", "timeout_s": 4.5}]})";
  r = sweep(dir("timeout"), timeout + " --dry-run");
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string note =
      "note: 2 points timed out before (0000 after 0.1 s, 0001 after 4.5 s): they run again now";
  EXPECT_NE(r.output.find(note), std::string::npos) << r.output;
  r = sweep(dir("timeout"), timeout);
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find(note), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("0 done before, 2 to run"), std::string::npos) << r.output;
  EXPECT_EQ(Json::parse(slurp(dir("timeout") + "/timed_out.json")).dump(),
            R"({"points":[{"point":"0001","timeout_s":4.5}]})");
  expect_same_points(dir("no-timeout"), dir("timeout"), 1);

  // With no point done there is no summary.csv, and the closing line does not name one.
  r = sweep(dir("all-timed-out"), two_points + "1000000 --point-timeout 1");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("sweep " + dir("all-timed-out") +
                          ": 0/1 points done (0 now), no summary.csv (no point done)"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(dir("all-timed-out") + "/summary.csv"));

  r = sweep(dir("timeout-bad"), two_points + "1 --point-timeout 0");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--point-timeout 0: accepted: a number of seconds of wall time > 0 and "
                          "<= 1000000000 (e.g. 600 or 1.5)"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(dir("timeout-bad")));
}

TEST_F(SweepCli, AFinishedPointWhoseSummaryIsAFifoIsRefusedBeforeAnyPointRuns) {
  const std::string two_points =
      "--runs hermes --grid runs.hermes.alpha=-0.5,-1 --grid "
      "runs.hermes.beta=0.1 --jobs 1";
  ASSERT_EQ(sweep(dir("fifo"), two_points).status, 0);
  const std::string summary = dir("fifo") + "/points/0000/summary.csv";
  fs::remove(summary);
  ASSERT_EQ(::mkfifo(summary.c_str(), 0600), 0);
  fs::remove_all(dir("fifo") + "/points/0001");
  for (const std::string extra : {"", " --dry-run"}) {
    const auto r = run_command("timeout 60 " + sweep_command(dir("fifo"), two_points + extra));
    EXPECT_EQ(r.status, 2) << r.output;
    expect_says(r, "point summary '" + summary +
                       "' is a FIFO (named pipe), not a regular file "
                       "(a finished point's summary.csv, from which the sweep's summary is built: "
                       "remove that point's directory to run the point again)");
    EXPECT_FALSE(fs::exists(dir("fifo") + "/points/0001")) << extra;  // nothing ran
  }
}

// Garbage, a header alone or a cut row in a finished point's summary.csv would drop or shift that
// point's rows in the sweep's summary: each is refused, naming the file and the line.
TEST_F(SweepCli, AFinishedPointWhoseSummaryIsNotOneIsRefusedWithItsLine) {
  const std::string two_points =
      "--runs hermes --grid runs.hermes.alpha=-0.5,-1 --grid runs.hermes.beta=0.1 --jobs 1";
  ASSERT_EQ(sweep(dir("bad-point"), two_points).status, 0);
  const std::string summary = dir("bad-point") + "/points/0001/summary.csv";
  const std::string good = slurp(summary);
  const std::string header = good.substr(0, good.find('\n') + 1);
  const std::pair<std::string, std::string> cases[] = {
      {"\xAA\x01{[garbage",
       "' line 1 is not a summary.csv header (one starts with the columns "
       "run,protocol)"},
      {header, "' has a header and no row"},
      {good.substr(0, good.size() - 20), "' line 2 has "}};
  for (const auto& [text, says] : cases) {
    std::ofstream(summary, std::ios::binary | std::ios::trunc) << text;
    const auto r = sweep(dir("bad-point"), two_points);
    EXPECT_EQ(r.status, 2) << r.output;
    expect_says(r, "'" + summary + says);
    EXPECT_EQ(slurp(summary), text);  // kept as it was
  }
}

TEST_F(SweepCli, AnUnreadableTimeoutRecordIsMovedAsideNeverDeleted) {
  const std::string one_point =
      "--runs hermes --grid runs.hermes.alpha=-0.5 --grid "
      "runs.hermes.beta=0.1 --jobs 1";
  ASSERT_EQ(sweep(dir("garbage"), one_point).status, 0);
  const std::string record = dir("garbage") + "/timed_out.json";
  const std::string garbage = "\x01\x02 not a record";
  std::ofstream(record) << garbage;
  // A dry run says what a start would do and moves nothing.
  auto r = sweep(dir("garbage"), one_point + " --dry-run");
  ASSERT_EQ(r.status, 0) << r.output;
  expect_says(r, "note: " + record + " could not be read (not JSON): a start moves it aside to " +
                     record + ".unreadable");
  EXPECT_EQ(slurp(record), garbage);
  // A start moves it aside, with a name of its own each time, and goes on.
  for (const char* aside : {".unreadable", ".unreadable-2"}) {
    std::ofstream(record) << garbage;
    r = sweep(dir("garbage"), one_point);
    ASSERT_EQ(r.status, 0) << r.output;
    expect_says(r, "note: " + record + " could not be read (not JSON): moved aside to " + record +
                       aside + "; the points it listed run again anyway");
    EXPECT_EQ(slurp(record + aside), garbage);
    EXPECT_FALSE(fs::exists(record));
  }
  // A directory in its place is not a record either.
  fs::create_directory(record);
  r = sweep(dir("garbage"), one_point);
  ASSERT_EQ(r.status, 0) << r.output;
  expect_says(r,
              "could not be read (not a regular file): moved aside to " + record + ".unreadable-3");
  EXPECT_TRUE(fs::is_directory(record + ".unreadable-3"));
}

}  // namespace
}  // namespace hermes::sweep
