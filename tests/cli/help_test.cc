// `--help` is complete: every command `hermes-sim --help` lists answers its own --help naming
// itself and its positional arguments, and `bench --help` lists every benchmark, each of which
// answers --help too. The top-level help documents HERMES_HOME.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/run_command.h"

namespace {

using hermes::testing::CommandResult;

CommandResult run(const std::string& args) {
  return hermes::testing::run_command(std::string(HERMES_BINARY) + " " + args);
}

// The first word of each line of the first block of indented lines after the line holding
// `header`.
std::vector<std::string> listed(const std::string& text, const std::string& header) {
  std::vector<std::string> names;
  const auto at = text.find(header);
  if (at == std::string::npos) return names;
  std::istringstream in(text.substr(at));
  std::string line;
  std::getline(in, line);  // the header's line
  while (std::getline(in, line) && (line.rfind("  ", 0) == 0 || names.empty())) {
    std::istringstream words(line);
    std::string first;
    if (words >> first) names.push_back(first);
  }
  return names;
}

// The line of `text` starting with `start`.
std::string line_starting(const std::string& text, const std::string& start) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(start, 0) == 0) return line;
  }
  return "";
}

// The positional arguments each command's usage line must name (none: options only).
const std::map<std::string, std::string> kPositional = {
    {"run", "SCENARIO"},
    {"validate", "FILE..."},
    {"profiles", ""},
    {"train", ""},
    {"compare", "RUN_DIR|SUMMARY.csv"},
    {"sweep", "SCENARIO"},
    {"keys", "[PREFIX]"},
    {"bench", "<what>"},
    {"bench engine", ""},
    {"bench math", ""},
    {"bench network", ""},
    {"bench run", "SCENARIO"},
};

void expect_help(const std::string& command) {
  const CommandResult h = run(command + " --help");
  EXPECT_EQ(h.status, 0) << command << ": " << h.output;
  const std::string usage = "hermes-sim " + command + " ";
  const auto at = h.output.find(usage);
  ASSERT_NE(at, std::string::npos) << command << ": " << h.output;
  const auto it = kPositional.find(command);
  ASSERT_NE(it, kPositional.end()) << "'" << command << "' is new: add its positionals here";
  if (!it->second.empty()) {
    EXPECT_EQ(h.output.compare(at + usage.size(), it->second.size(), it->second), 0)
        << command << ": " << h.output;
  }
}

TEST(Help, EveryListedCommandAnswersHelpNamingItselfAndItsArguments) {
  const CommandResult r = run("--help");
  ASSERT_EQ(r.status, 0) << r.output;
  const std::vector<std::string> commands = listed(r.output, "commands:");
  EXPECT_EQ(commands.size(), 8u) << r.output;
  for (const auto& c : commands) expect_help(c);
}

TEST(Help, BenchListsEveryBenchmarkAndEachAnswersHelp) {
  const CommandResult r = run("bench --help");
  ASSERT_EQ(r.status, 0) << r.output;
  const std::vector<std::string> benches = listed(r.output, "usage: hermes-sim bench");
  EXPECT_EQ(benches, (std::vector<std::string>{"engine", "math", "network", "run"})) << r.output;
  for (const auto& b : benches) expect_help("bench " + b);
  // The top-level summary of bench names them all too.
  const std::string line = line_starting(run("--help").output, "  bench ");
  for (const auto& b : benches) EXPECT_NE(line.find(b), std::string::npos) << b << ": " << line;
}

TEST(Help, TopLevelHelpDocumentsTheEnvironment) {
  const std::string top = run("--help").output;
  EXPECT_NE(top.find("HERMES_HOME "), std::string::npos) << top;
  EXPECT_NE(top.find("HERMES_DATA_DIR "), std::string::npos) << top;
}

TEST(Help, VersionNamesTheSourceTreeHomeOfABuildTreeBinary) {
  const CommandResult r = hermes::testing::run_command("env -u HERMES_HOME " +
                                                       std::string(HERMES_BINARY) + " --version");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("\nhome: " + std::string(HERMES_SOURCE_DIR) +
                          " (the source tree this binary was built from)\n"),
            std::string::npos)
      << r.output;
}

}  // namespace
