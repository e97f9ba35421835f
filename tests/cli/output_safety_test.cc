// Output safety through the binary (issue 12, cases 1, 2 and 7): hermes-sim run deletes only what
// it can prove it wrote, refuses every path it cannot write before the run starts, replaces with
// --force atomically, and leaves nothing behind when interrupted (or, after kill -9, has the next
// start clean up).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "tests/support/run_command.h"
#include "tests/support/scratch_dir.h"

namespace {

namespace fs = std::filesystem;
using Result = hermes::testing::CommandResult;

const std::string kDemo = std::string(HERMES_SOURCE_DIR) + "/scenarios/examples/demo.json";

class OutputSafety : public hermes::testing::ScratchDirTest {
 protected:
  static std::string slurp(const std::string& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  // hermes-sim run of the demo (3 iterations) with `extra`, in the test's directory.
  Result run(const std::string& extra) const {
    return hermes::testing::run_command("cd " + dir_.string() + " && " + HERMES_BINARY + " run " +
                                        kDemo + " --set runs.demo.iterations=3 " + extra);
  }
  // Every entry of the test's directory, sorted, with a '/' after directories.
  std::string listing() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) {
      names.push_back(e.path().filename().string() + (e.is_directory() ? "/" : ""));
    }
    std::sort(names.begin(), names.end());
    std::string out;
    for (const auto& n : names) out += n + " ";
    return out;
  }
};

TEST_F(OutputSafety, ForceNeverDeletesWhatHermesSimDidNotWrite) {
  put("x/a");
  put("x/b");
  // `cd x; hermes-sim run demo.json --out . --force` used to delete every file of x.
  Result r = hermes::testing::run_command("cd " + path("x") + " && " + HERMES_BINARY + " run " +
                                          kDemo + " --out . --force");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--out '.' is the current directory: hermes-sim never writes a run "
                          "directory there"),
            std::string::npos)
      << r.output;
  r = run("--out .. --force");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("is a directory holding the current directory"), std::string::npos);
  // A scenario naming a directory of other files.
  r = run("--set outputs.dir=x --force");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("demo.json: /outputs/dir: 'x' exists, is not empty (2 entries: "),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("is not a run directory hermes-sim wrote (it has no .hermes-run): "
                          "hermes-sim never replaces it, even with --force"),
            std::string::npos)
      << r.output;
  // Files, empty or not, are never replaced by a run directory.
  put("file.txt", "precious");
  put("empty.txt", "");
  for (const char* f : {"file.txt --force", "empty.txt"}) {
    r = run(std::string("--out ") + f);
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find("exists and is a regular file, not a directory: hermes-sim never "
                            "replaces it"),
              std::string::npos)
        << r.output;
  }
  // $HOME and the source tree.
  r = hermes::testing::run_command("cd " + dir_.string() + " && HOME=" + path("x") + " " +
                                   HERMES_BINARY + " run " + kDemo + " --out " + path("x") +
                                   " --force");
  EXPECT_NE(r.output.find("is your home directory ($HOME)"), std::string::npos) << r.output;
  r = run(std::string("--out ") + HERMES_SOURCE_DIR + " --force");
  EXPECT_NE(r.output.find("is the hermes-sim source tree"), std::string::npos) << r.output;
  // Nothing was touched or left behind.
  EXPECT_EQ(slurp(path("x/a")), "x");
  EXPECT_EQ(slurp(path("file.txt")), "precious");
  EXPECT_EQ(listing(), "empty.txt file.txt x/ ");
  // "/" is refused by validation already.
  r = hermes::testing::run_command(std::string(HERMES_BINARY) + " validate " + kDemo +
                                   " --set outputs.dir=/");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("/outputs/dir: '/' is the root directory"), std::string::npos)
      << r.output;
}

TEST_F(OutputSafety, ForceReplacesARunDirectoryAtomicallyAndOnlyThat) {
  ASSERT_EQ(run("--out r").status, 0);
  EXPECT_TRUE(fs::exists(path("r/.hermes-run")));
  put("r/old-only.txt");
  const std::string first = slurp(path("r/timeline.csv"));
  Result r = run("--out r");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("--out 'r' holds the results of an earlier run: choose another "
                          "directory, or pass --force"),
            std::string::npos)
      << r.output;
  // A file the user added is never removed: --force refuses, naming it.
  r = run("--out r --force --set runs.demo.iterations=4");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--out 'r' holds 'old-only.txt', which hermes-sim did not write (its "
                          ".hermes-run does not list it): --force never removes what it did not "
                          "write"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(slurp(path("r/old-only.txt")), "x");
  put("r/sub/b.txt");
  r = run("--out r --force");
  EXPECT_NE(r.output.find("holds 'old-only.txt', 'sub/', which"), std::string::npos) << r.output;
  fs::remove(path("r/old-only.txt"));
  fs::remove_all(path("r/sub"));
  // tools/plot's figures of the run (plots/, listed in its .hermes-plots) go with it; a figure of
  // the user's among them does not.
  put("r/plots/.hermes-plots", "hermes-sim figures\nacc.png\n");
  put("r/plots/acc.png");
  put("r/plots/mine.png");
  r = run("--out r --force");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("holds 'plots/', which"), std::string::npos) << r.output;
  fs::remove(path("r/plots/mine.png"));
  r = run("--out r --force --set runs.demo.iterations=4");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(slurp(path("r/timeline.csv")), first);
  EXPECT_EQ(listing(), "r/ ");  // no .partial-, .old- or .kept- left beside it
  // A marker without the list of files (an older run directory, or a copy in a directory of the
  // user's) does not make a directory the tool's.
  put("mine/a.txt");
  put("mine/sub/b.txt");
  put("mine/.hermes-run", "hermes-sim run directory\n");
  r = run("--out mine --force");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--out 'mine': its .hermes-run does not list the files hermes-sim "
                          "wrote there"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(slurp(path("mine/a.txt")), "x");
  EXPECT_EQ(slurp(path("mine/sub/b.txt")), "x");
  // Its list names what a run wrote, and nothing else.
  const std::string marker = slurp(path("r/.hermes-run"));
  EXPECT_EQ(marker.substr(marker.find("files:\n")),
            "files:\ndemo_workers.csv\nprovenance.json\nscenario.json\ntimeline.csv\n")
      << marker;
  // A sweep directory is never replaced by a run.
  put("s/.hermes-sweep", "hermes-sim sweep directory\n");
  r = run("--out s --force");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("--out 's' is a sweep directory"), std::string::npos) << r.output;
}

TEST_F(OutputSafety, TrailingSlashesAndTraceTargetsAreSettledBeforeTheRun) {
  // --out new10/ used to put the temporary inside new10/ and lose the results.
  Result r = run("--out new10/");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("wrote new10/{demo_workers.csv,"), std::string::npos) << r.output;
  EXPECT_EQ(listing(), "new10/ ");
  fs::create_directories(path("tdir"));
  const struct {
    std::string args, message;
  } refused[] = {
      {"--trace tdir", "--trace 'tdir' exists and is a directory, not a file hermes-sim wrote"},
      {"--trace tdir/", "--trace 'tdir/' names a directory (it ends in '/')"},
      {"--trace nodir/t.json", "its directory '" + path("nodir") + "' does not exist"},
      {"--trace out/t.json --force", "is inside the run directory 'out'"},
      {"--trace new10/demo_workers.csv --force", "exists and is not a trace hermes-sim wrote"},
  };
  for (const auto& c : refused) {
    r = run("--out out " + c.args);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.args << "\n" << r.output;
    EXPECT_EQ(r.output.find("run demo"), std::string::npos) << r.output;  // nothing ran
  }
  EXPECT_EQ(listing(), "new10/ tdir/ ");
  ASSERT_EQ(run("--out out --trace t.json").status, 0);
  r = run("--out out2 --trace t.json");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("--trace 't.json' exists: choose another name, or pass --force"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(run("--out out2 --trace t.json --force").status, 0);
}

// Starts `command` with its output in `log`; the PID is hermes-sim's.
using hermes::testing::spawn_command;

// Waits (up to a minute, a safety net only) until `p` exists.
bool wait_for(const std::string& p) {
  for (int i = 0; i < 60000; ++i) {
    if (fs::exists(p)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

// A demo run long enough to be interrupted: 1,000,000 iterations per worker.
std::string long_run(const fs::path& dir, const std::string& out) {
  return std::string(HERMES_BINARY) + " run " + kDemo +
         " --set runs.demo.iterations=1000000 --out " + (dir / out).string() + " --trace " +
         (dir / (out + ".trace.json")).string();
}

TEST_F(OutputSafety, AnInterruptedRunLeavesNothingBehind) {
  for (const int sig : {SIGTERM, SIGINT}) {
    const pid_t pid = spawn_command(long_run(dir_, "long"), path("log"));
    const std::string partial = path("long.partial-" + std::to_string(pid));
    ASSERT_TRUE(wait_for(partial + "/.hermes-run"));
    ::kill(pid, sig);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status)) << slurp(path("log"));
    EXPECT_EQ(WEXITSTATUS(status), 128 + sig);
    const std::string log = slurp(path("log"));
    EXPECT_NE(log.find(std::string("hermes-sim run: interrupted by ") +
                       (sig == SIGTERM ? "SIGTERM" : "SIGINT") +
                       ": removed its unfinished outputs " + partial),
              std::string::npos)
        << log;
    fs::remove(path("log"));
    EXPECT_EQ(listing(), "");
  }
}

TEST_F(OutputSafety, LeftoversOfAKilledRunAreCleanedByTheNextStart) {
  const pid_t pid = spawn_command(long_run(dir_, "long"), path("log"));
  const std::string partial = path("long.partial-" + std::to_string(pid));
  const std::string trace_tmp = path("long.trace.json.tmp-" + std::to_string(pid));
  // Both temporaries must exist before the kill: the trace's is created a moment after the run
  // directory's marker, and killing in between left no trace temporary (a flaky failure).
  ASSERT_TRUE(wait_for(partial + "/.hermes-run"));
  ASSERT_TRUE(wait_for(trace_tmp));
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  fs::remove(path("log"));
  EXPECT_TRUE(fs::exists(partial));
  EXPECT_TRUE(fs::exists(trace_tmp));
  // Another run beside it, with the same trace name, cleans both up and says so.
  const Result r = run("--out other --trace " + path("long.trace.json"));
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("note: removed stale '" + partial + "' (left by process " +
                          std::to_string(pid) + ", which no longer runs)"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("note: removed stale '" + trace_tmp + "'"), std::string::npos)
      << r.output;
  EXPECT_EQ(listing(), "long.trace.json other/ ");
}

TEST_F(OutputSafety, ATargetThatAppearsDuringTheRunKeepsTheResultsAside) {
  // A demo of a few tenths of a second; stopped as soon as its temporary directory exists, while
  // someone else creates its target, then continued.
  const pid_t pid =
      spawn_command(std::string(HERMES_BINARY) + " run " + kDemo +
                        " --set runs.demo.iterations=20000 --set outputs.timeline=false "
                        "--out " +
                        path("late"),
                    path("log"));
  ASSERT_TRUE(wait_for(path("late.partial-" + std::to_string(pid)) + "/.hermes-run"));
  ::kill(pid, SIGSTOP);
  put("late/theirs.txt", "theirs");
  ::kill(pid, SIGCONT);
  int status = 0;
  ::waitpid(pid, &status, 0);
  const std::string log = slurp(path("log"));
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1) << log;
  const std::string kept = path("late.kept-" + std::to_string(pid));
  EXPECT_NE(log.find("(it changed during the run): hermes-sim never replaces it, even with "
                     "--force; choose another directory; the results of this run are kept in '" +
                     kept + "'"),
            std::string::npos)
      << log;
  EXPECT_EQ(slurp(path("late/theirs.txt")), "theirs");
  EXPECT_TRUE(fs::exists(kept + "/demo_workers.csv"));
}

}  // namespace
