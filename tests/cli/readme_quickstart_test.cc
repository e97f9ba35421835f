// README.md's step 4, "A first scenario of your own", run as written (issue 26: its compare
// warning and its claims had drifted from what the commands print). The commands are taken from
// the README itself, not copied here: the scenario of its here-document, then validate, run,
// compare and tools/plot, in a scratch directory whose build/ and tools/ are this build's and the
// repository's. Only the run is shortened (a few updates over a tiny synthetic MNIST through
// $HERMES_DATA_DIR), so the test needs no dataset and takes seconds; what the README shows of the
// output is checked against what the commands print: validate's line exactly, the shape of each
// run's line, compare's setup differences one by one, and the figures tools/plot draws.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/run_command.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/synthetic_mnist.h"

namespace {

namespace fs = std::filesystem;
using hermes::testing::file_text;
using hermes::testing::unwrapped;

// README step 4: its first ```sh block (the here-document and the commands) and the text after
// it up to the next step (the outputs it quotes).
struct StepFour {
  std::string script;
  std::string quoted;
};

StepFour step_four() {
  const std::string readme = file_text(fs::path(HERMES_SOURCE_DIR) / "README.md");
  const std::size_t step = readme.find("**4. A first scenario of your own.**");
  const std::size_t next = readme.find("**5. ", step);
  if (step == std::string::npos || next == std::string::npos) return {};
  const std::size_t open = readme.find("```sh\n", step);
  const std::size_t close = readme.find("\n```", open + 6);
  if (open == std::string::npos || close == std::string::npos || close > next) return {};
  return {readme.substr(open + 6, close - open - 6), readme.substr(close, next - close)};
}

// The block's lines after its here-document: the commands, with their "# expected" comments.
std::vector<std::string> commands(const std::string& script) {
  std::vector<std::string> out;
  std::istringstream in(script.substr(script.find("\nJSON\n") + 6));
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

class ReadmeQuickStart : public hermes::testing::ScratchDirTest {};

TEST_F(ReadmeQuickStart, StepFourRunsAsWrittenAndPrintsWhatItQuotes) {
  const StepFour four = step_four();
  ASSERT_FALSE(four.script.empty()) << "README.md has no step 4 with a ```sh block";
  ASSERT_NE(four.script.find("cat > my.json <<'JSON'\n"), std::string::npos) << four.script;
  const std::vector<std::string> cmds = commands(four.script);
  ASSERT_EQ(cmds.size(), 4u) << four.script;  // validate, run, compare, tools/plot

  fs::create_symlink(fs::path(HERMES_BINARY).parent_path(), dir_ / "build");
  fs::create_symlink(fs::path(HERMES_SOURCE_DIR) / "tools", dir_ / "tools");
  hermes::sweep::testing::write_blocks_mnist(path("data"));
  const std::string env = "cd " + dir_.string() + " && HERMES_DATA_DIR=" + path("data") + " ";

  // The here-document writes my.json.
  const std::string heredoc = four.script.substr(0, four.script.find("\nJSON\n") + 6);
  auto r = hermes::testing::run_command(
      env + "bash -c " + "'" + std::regex_replace(heredoc, std::regex("'"), "'\\''") + "'");
  ASSERT_EQ(r.status, 0) << r.output;

  // validate: its line is the README's comment.
  const std::string validate = cmds[0].substr(0, cmds[0].find("  #"));
  const std::string expected = cmds[0].substr(cmds[0].find("# ") + 2);
  r = hermes::testing::run_command(env + validate);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output, expected + "\n");

  // run, shortened: a few updates over the synthetic data; each run's line has the README's form.
  ASSERT_EQ(cmds[1].rfind("build/hermes-sim run my.json", 0), 0u) << cmds[1];
  r = hermes::testing::run_command(env + cmds[1] +
                                   " --set training.chunk_size=100"
                                   " --set training.stop.max_iterations=4");
  ASSERT_EQ(r.status, 0) << r.output;
  const std::regex run_line(
      "run [a-z0-9.-]+ +status ok \\([a-z_]+\\), [0-9]+ updates, [0-9]+ local iterations, "
      "simulated [0-9.]+ min, WI [0-9.]+, accuracy [0-9.]+%, API calls [0-9]+, wall [0-9.]+ s");
  for (const std::string run : {"bsp", "hermes-1.3"}) {
    const std::size_t at = four.quoted.find("\nrun " + run + " ");
    ASSERT_NE(at, std::string::npos) << "README quotes no line of run " << run;
    const std::string quoted = four.quoted.substr(at + 1, four.quoted.find('\n', at + 1) - at - 1);
    EXPECT_TRUE(std::regex_match(quoted, run_line)) << quoted;
    const std::size_t got = r.output.find("run " + run + " ");
    ASSERT_NE(got, std::string::npos) << r.output;
    const std::string line = r.output.substr(got, r.output.find('\n', got) - got);
    EXPECT_TRUE(std::regex_match(line, run_line)) << line;
  }

  // compare: every setup difference the README's warning quotes is in the real one.
  r = hermes::testing::run_command(env + cmds[2]);
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string printed = unwrapped(r.output);
  const std::size_t warn = four.quoted.find("warning: not the paper's setup (");
  ASSERT_NE(warn, std::string::npos) << four.quoted;
  const std::string readme_warning =
      unwrapped(four.quoted.substr(warn, four.quoted.find("\n```", warn) - warn));
  const std::size_t from = readme_warning.find("): ") + 3;
  const std::size_t to = readme_warning.find("; the paper's numbers");
  ASSERT_NE(to, std::string::npos) << readme_warning;
  std::string differences = readme_warning.substr(from, to - from);
  // Split at ", " before a key (a letter), not inside the quoted JSON objects.
  const std::regex item("(^|, )([a-z][a-z0-9_.]*) ");
  std::vector<std::size_t> starts;
  for (auto it = std::sregex_iterator(differences.begin(), differences.end(), item);
       it != std::sregex_iterator(); ++it) {
    starts.push_back(static_cast<std::size_t>(it->position(2)));
  }
  ASSERT_GE(starts.size(), 3u) << differences;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const std::size_t end = i + 1 < starts.size() ? starts[i + 1] - 2 : differences.size();
    const std::string d = differences.substr(starts[i], end - starts[i]);
    EXPECT_NE(printed.find(d), std::string::npos)
        << "README quotes '" << d << "'; compare printed:\n"
        << r.output;
  }

  // tools/plot draws the run's figures and the comparison.
  r = hermes::testing::run_command(env + cmds[3]);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(fs::exists(dir_ / "results/my-first/plots/comparison.png")) << r.output;
}

}  // namespace
