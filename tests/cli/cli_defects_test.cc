// The command line's small promises (issue 26, item 8): whole option names only, with a
// suggestion for a near miss; defaults printed as written; a missing path named with what was
// expected; "did you mean" for a run name; SIGHUP documented; --threads and --data-dir where run
// has them; `keys` printing the scenario reader's own tables.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "tests/support/run_command.h"

namespace {

using hermes::testing::CommandResult;

CommandResult run(const std::string& args) {
  return hermes::testing::run_command(std::string(HERMES_BINARY) + " " + args);
}

std::string src(const std::string& rel) { return std::string(HERMES_SOURCE_DIR) + "/" + rel; }

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(CliDefects, AnOptionPrefixIsAnUnknownOptionWithASuggestion) {
  const CommandResult r = run("run " + src("scenarios/examples/demo.json") + " --thread 1");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(has(r.output,
                  "hermes-sim run: error: unknown option '--thread'; did you mean "
                  "'--threads'? (hermes-sim run --help lists the options)"))
      << r.output;
  // Every command parses alike: a prefix of a sweep or validate option is no option either.
  const CommandResult s = run("sweep " + src("scenarios/examples/demo.json") + " --ou /tmp/x");
  EXPECT_EQ(s.status, 2) << s.output;
  EXPECT_TRUE(has(s.output, "unknown option '--ou'; did you mean '--out'?")) << s.output;
  const CommandResult v = run("validate " + src("scenarios/examples/demo.json") + " --max-mem=3");
  EXPECT_EQ(v.status, 2) << v.output;
  EXPECT_TRUE(has(v.output, "unknown option '--max-mem'; did you mean '--max-memory'?"))
      << v.output;
  // Nothing near: no suggestion.
  const CommandResult z = run("profiles --zzzzzz");
  EXPECT_TRUE(has(z.output, "unknown option '--zzzzzz' (hermes-sim profiles --help")) << z.output;
}

TEST(CliDefects, DefaultsArePrintedAsWritten) {
  EXPECT_TRUE(has(run("bench math --help").output, "--min-time arg (=0.2)"));
  for (const char* command : {"run", "validate", "sweep", "train", "bench math", "bench network",
                              "bench run", "bench engine"}) {
    const CommandResult h = run(std::string(command) + " --help");
    EXPECT_FALSE(has(h.output, "0000000")) << command << ": " << h.output;
    EXPECT_FALSE(has(h.output, "9999999")) << command << ": " << h.output;
  }
}

TEST(CliDefects, CompareNamesAMissingPathAndWhatItExpected) {
  CommandResult r = run("compare /no/such");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(has(r.output,
                  "/no/such: no such file or directory (expected a run or sweep "
                  "directory holding summary.csv"))
      << r.output;
  r = run("compare " + std::filesystem::temp_directory_path().string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(has(r.output, ": a directory without summary.csv (expected")) << r.output;
  r = run("compare " + src("results/reference/paper-mnist.csv") + " --reference /no/ref.csv");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(has(r.output,
                  "--reference /no/ref.csv: no such file or directory (expected a "
                  "reference table CSV"))
      << r.output;
}

TEST(CliDefects, AMistypedRunNameGetsASuggestion) {
  const CommandResult r =
      run("run " + src("scenarios/examples/slowdown.json") + " --runs hermez --out /nonexistent/x");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(has(r.output,
                  "has no run named 'hermez' (its runs: bsp, hermes); did you mean "
                  "'hermes'?"))
      << r.output;
  const CommandResult s =
      run("validate " + src("scenarios/examples/slowdown.json") + " --set runs.hermez.alpha=-1");
  EXPECT_EQ(s.status, 1) << s.output;
  EXPECT_TRUE(has(s.output, "nothing in /runs matches 'hermez.alpha'")) << s.output;
  EXPECT_TRUE(has(s.output, "did you mean 'hermes'?")) << s.output;
}

TEST(CliDefects, SweepHelpSaysWhatSighupDoes) {
  const CommandResult h = run("sweep --help");
  EXPECT_TRUE(has(h.output, "SIGHUP (the terminal closing)")) << h.output;
  EXPECT_TRUE(has(h.output, "129 (SIGHUP)")) << h.output;
}

TEST(CliDefects, TrainAndSweepTakeThreadsAndValidateTakesDataDir) {
  EXPECT_TRUE(has(run("train --help").output, "--threads arg"));
  EXPECT_TRUE(has(run("sweep --help").output, "--threads arg (=1)"));
  EXPECT_TRUE(has(run("validate --help").output, "--data-dir arg"));
  const CommandResult t = run("train --threads 0");
  EXPECT_EQ(t.status, 2) << t.output;
  EXPECT_TRUE(has(t.output, "--threads must be in 1 .. 1024")) << t.output;
  // validate looks for the data where run would: an explicit --data-dir that lacks it is an error
  // at the dataset's key; a demo scenario needs no data.
  const CommandResult v =
      run("validate " + src("scenarios/examples/slowdown.json") + " --data-dir /no/data");
  EXPECT_EQ(v.status, 1) << v.output;
  EXPECT_TRUE(has(v.output, "/dataset/name: ")) << v.output;
  EXPECT_TRUE(has(v.output, "/no/data")) << v.output;
  EXPECT_EQ(run("validate " + src("scenarios/examples/demo.json") + " --data-dir /no/data").status,
            0);
}

TEST(CliDefects, KeysPrintsTheReaderTablesFilteredByPrefix) {
  const CommandResult all = run("keys");
  EXPECT_EQ(all.status, 0) << all.output;
  for (const char* key :
       {"seed  integer", "cluster.workers[].count  integer", "network.links[].a",
        "training.learning_rate  number, default 0.1", "runs[].alpha  number",
        "transfers.chunk_encoding", "api.poll_interval_ms", "sweep.grid.<key>.step", "trace.file",
        "prices.overrides", "outputs.target_accuracy"}) {
    EXPECT_TRUE(has(all.output, std::string("\n") + key)) << key;
  }
  const CommandResult stop = run("keys training.stop");
  EXPECT_EQ(stop.status, 0) << stop.output;
  EXPECT_EQ(stop.output.rfind("training.stop  object", 0), 0u) << stop.output;
  EXPECT_TRUE(has(stop.output,
                  "\ntraining.stop.patience  integer, default 25, accepted: "
                  "patience >= 1\n"))
      << stop.output;
  EXPECT_FALSE(has(stop.output, "learning_rate")) << stop.output;
  const CommandResult typo = run("keys trainig");
  EXPECT_EQ(typo.status, 2) << typo.output;
  EXPECT_TRUE(has(typo.output, "no scenario key starts with 'trainig'; did you mean 'training'?"))
      << typo.output;
}

}  // namespace
