// Stopping a sweep with signals (issue 16): the texts that say what is done and how to resume, and
// end to end on the tiny scenario, a first SIGINT that lets the running point finish, a second
// signal that abandons it, and (under mpirun) SIGUSR1; each time the same command then completes
// the sweep.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "sim/sweep/sweep_stop.h"
#include "tests/sweep/sweep_cli_fixture.h"

namespace hermes::sweep {
namespace {

using hermes::testing::spawn_command;

TEST(SweepStop, TheResumeCommandReadsBackInAShell) {
  EXPECT_EQ(shell_command({"build/hermes-sim", "sweep", "a b.json", "--out", "it's", "--set",
                           "runs.h.alpha=-1", ""}),
            "build/hermes-sim sweep 'a b.json' --out 'it'\\''s' --set runs.h.alpha=-1 ''");
  const std::vector<std::string> argv = {"hermes-sim", "sweep", "s.json", "--out", "d"};
  EXPECT_EQ(resume_text(argv, "/work dir", 1),
            "To resume, run the same command again (in '/work dir'):\n"
            "  hermes-sim sweep s.json --out d\n");
  EXPECT_EQ(resume_text(argv, "/w", 3),
            "To resume, run the same command again (in /w):\n"
            "  mpirun -n 3 hermes-sim sweep s.json --out d\n"
            "  (with the other options you gave mpirun)\n");
}

TEST(SweepStop, EachMessageSaysWhatIsDoneAndWhatIsLeft) {
  const SweepState state{"out", 9, 4, 3, {"0004", "0005"}};
  EXPECT_EQ(stopping_notice(SIGINT, state, false, "R\n"),
            "hermes-sim sweep: SIGINT: no new point starts; the 2 running points (0004, 0005) "
            "finish first (SIGINT or SIGTERM again abandons them)\n");
  EXPECT_EQ(stopping_notice(SIGUSR1, {"out", 9, 4, 3, {"0004"}}, true, "R\n"),
            "hermes-sim sweep: SIGUSR1: no new point starts; the running point (0004) finishes "
            "first (SIGINT or SIGTERM abandons it)\nR\n");
  EXPECT_EQ(stopping_notice(SIGTERM, {"out", 9, 4, 3, {}}, true, "R\n"),
            "hermes-sim sweep: SIGTERM: no new point starts\nUnder mpirun, send SIGUSR1 to mpirun "
            "to stop this way: Open MPI's mpirun turns SIGINT and SIGTERM into a SIGTERM to every "
            "rank and kills them all a second later.\nR\n");
  EXPECT_EQ(stopped_report(SIGTERM, {"out", 9, 5, 3, {}}, "R\n"),
            "hermes-sim sweep: stopped by SIGTERM: 5/9 points done, 3 not started, 1 failed or "
            "timed out, none abandoned (the running points finished)\nR\n");
  EXPECT_EQ(abort_epilogue(state, "R\n"),
            "sweep out: 4/9 points done, 2 abandoned (0004, 0005), 3 not started\nR\n");
}

// Points long enough to be interrupted while they run, and short enough. The test sends its signal
// within milliseconds of seeing a point start, but under a loaded ctest -j the sweep may take far
// longer to be scheduled and handle it: with 40 iterations a Hermes point took 0.1 s on an Intel
// AVX-512 machine and finished first. 200 iterations give each point about half a second there.
const std::string kSlowPoints =
    "--set training.stop.max_iterations=200 --set training.stop.patience=1000000";

// Waits (up to two minutes, a safety net only) until `done()`.
bool wait_until(const std::function<bool()>& done) {
  for (int i = 0; i < 120000; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

// The exit status of `pid`; -1 if it did not exit normally.
int exit_status(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The names in `dir`, sorted.
std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// What the sweep says about resuming, run from this test's working directory.
std::string resume_lines(const std::string& command) {
  return "To resume, run the same command again (in " + fs::current_path().string() + "):\n  " +
         command + "\n";
}

TEST_F(SweepCli, AFirstSignalLetsTheRunningPointFinishAndTheSameCommandResumes) {
  const std::string args = "--jobs 1 " + kSlowPoints;
  ASSERT_EQ(sweep(dir("uninterrupted"), "--jobs 2 " + kSlowPoints).status, 0);
  const std::string command = sweep_command(dir("stop"), args);
  const pid_t pid = spawn_command(command, dir("log"));
  // Point 0000 is done and 0001 runs: Ctrl-C.
  const std::string running = dir("stop") + "/points/0001.partial-" + std::to_string(pid);
  ASSERT_TRUE(wait_until([&] { return fs::exists(running + "/.hermes-run"); }));
  ::kill(pid, SIGINT);
  EXPECT_EQ(exit_status(pid), 130);
  const std::string log = slurp(dir("log"));
  EXPECT_NE(log.find("hermes-sim sweep: SIGINT: no new point starts; the running point (0001) "
                     "finishes first (SIGINT or SIGTERM again abandons it)\n"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("\nhermes-sim sweep: stopped by SIGINT: 2/4 points done, 2 not started, none "
                     "abandoned (the running points finished)\n" +
                     resume_lines(command)),
            std::string::npos)
      << log;
  // The point that ran at the signal is complete, none started after it, nothing is half-written.
  EXPECT_EQ(entries(dir("stop") + "/points"), (std::vector<std::string>{"0000", "0001"}));
  EXPECT_EQ(
      entries(dir("stop") + "/points/0001"),
      (std::vector<std::string>{".hermes-run", "api.csv", "global.csv", "nodes.csv",
                                "provenance.json", "scenario.json", "summary.csv", "workers.csv"}));
  EXPECT_EQ(lines(slurp(dir("stop") + "/summary.csv")), 1u + 2 * 2);

  const auto r = run_command(command);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("2 done before, 2 to run"), std::string::npos) << r.output;
  expect_identical(dir("uninterrupted"), dir("stop"));
}

TEST_F(SweepCli, ASecondSignalAbandonsTheRunningPointAndRemovesItsOutput) {
  const std::string command = sweep_command(dir("abort"), "--jobs 1 " + kSlowPoints);
  const pid_t pid = spawn_command(command, dir("log"));
  const std::string running = dir("abort") + "/points/0001.partial-" + std::to_string(pid);
  ASSERT_TRUE(wait_until([&] { return fs::exists(running + "/.hermes-run"); }));
  ::kill(pid, SIGINT);
  ASSERT_TRUE(wait_until(
      [&] { return slurp(dir("log")).find("no new point starts") != std::string::npos; }));
  ::kill(pid, SIGTERM);
  EXPECT_EQ(exit_status(pid), 143);
  const std::string log = slurp(dir("log"));
  EXPECT_NE(
      log.find("hermes-sim sweep: interrupted by SIGTERM (after a request to stop): removed "
               "its unfinished outputs " +
               running + "\nsweep " + dir("abort") +
               ": 1/4 points done, 1 abandoned (0001), 2 not started\n" + resume_lines(command)),
      std::string::npos)
      << log;
  EXPECT_EQ(entries(dir("abort") + "/points"), std::vector<std::string>{"0000"});

  const auto r = run_command(command);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("1 done before, 3 to run"), std::string::npos) << r.output;
  EXPECT_EQ(lines(slurp(dir("abort") + "/summary.csv")), 1u + 4 * 2);
}

#ifdef HERMES_MPIRUN
TEST_F(SweepCli, UnderMpirunSigusr1StopsEveryRankGently) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "Open MPI's runtime is not clean under LeakSanitizer; checked in Release";
#endif
  ASSERT_EQ(sweep(dir("usr1-local"), "--jobs 2 " + kSlowPoints).status, 0);
  const std::string mpirun =
      std::string(HERMES_MPIRUN) + " --allow-run-as-root --oversubscribe -n 2 ";
  const std::string command = sweep_command(dir("usr1-mpi"), "--jobs 1 " + kSlowPoints);
  const pid_t pid = spawn_command(mpirun + command, dir("log"));
  // Some point runs on some rank: ask mpirun to stop, which it forwards to every rank.
  const auto running = [&] {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir("usr1-mpi") + "/points", ec)) {
      if (e.path().filename().string().find(".partial-") != std::string::npos) return true;
    }
    return false;
  };
  ASSERT_TRUE(wait_until(running));
  ::kill(pid, SIGUSR1);
  EXPECT_NE(exit_status(pid), 0);
  const std::string log = slurp(dir("log"));
  EXPECT_NE(log.find("hermes-sim sweep: stopped by SIGUSR1: "), std::string::npos) << log;
  EXPECT_NE(log.find("  mpirun -n 2 " + command + "\n  (with the other options you gave mpirun)"),
            std::string::npos)
      << log;
  // Every point there is complete; some were never started.
  const auto done = entries(dir("usr1-mpi") + "/points");
  EXPECT_LT(done.size(), 4u) << log;
  for (const auto& point : done) {
    EXPECT_TRUE(fs::exists(dir("usr1-mpi") + "/points/" + point + "/summary.csv")) << point;
  }
  const auto r = run_command(mpirun + command);
  ASSERT_EQ(r.status, 0) << r.output;
  expect_identical(dir("usr1-local"), dir("usr1-mpi"));
}
#endif

}  // namespace
}  // namespace hermes::sweep
