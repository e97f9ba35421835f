// Files a user names that are not regular files (issue 31, item 1): a FIFO nobody writes, a
// device that never ends, a directory. Each reader refuses them at once with the file and what it
// is, instead of waiting for ever or running out of memory. Every command runs under `timeout`,
// so a regression fails the test instead of hanging the suite.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/run_command.h"
#include "tests/support/scratch_dir.h"

namespace {

namespace fs = std::filesystem;
using Result = hermes::testing::CommandResult;

class SpecialFiles : public hermes::testing::ScratchDirTest {
 protected:
  Result hermes(const std::string& args) const {
    return hermes::testing::run_command("cd " + dir_.string() + " && timeout 60 " + HERMES_BINARY +
                                        " " + args);
  }
  std::string fifo(const std::string& name) const {
    fs::create_directories(fs::path(path(name)).parent_path());
    EXPECT_EQ(::mkfifo(path(name).c_str(), 0600), 0) << name;
    return path(name);
  }
  // `status`: 2 for a refused input, 1 for `validate`'s report of an invalid file; 124 would be
  // the timeout's (a hang).
  static void expect_refused(const Result& r, const std::string& says, int status = 2) {
    EXPECT_EQ(r.status, status) << r.output;
    EXPECT_NE(r.output.find(says), std::string::npos) << "expected: " << says << "\n" << r.output;
  }
};

TEST_F(SpecialFiles, CompareRefusesAFifoADeviceAndARunDirectoryHoldingOne) {
  const std::string pipe = fifo("pipe");
  expect_refused(hermes("compare " + pipe),
                 "summary '" + pipe + "' is a FIFO (named pipe), not a regular file");
  expect_refused(hermes("compare /dev/zero"),
                 "summary '/dev/zero' is a character device, not a regular file");
  const std::string in_dir = fifo("run/summary.csv");
  expect_refused(hermes("compare " + path("run")),
                 "summary '" + in_dir + "' is a FIFO (named pipe), not a regular file");
  fs::create_directories(path("dir/summary.csv"));
  expect_refused(hermes("compare " + path("dir/summary.csv")), "a directory without summary.csv");
}

TEST_F(SpecialFiles, ValidateRefusesAFifoAsTheTrace) {
  std::ifstream in(std::string(HERMES_SOURCE_DIR) + "/scenarios/examples/trace-outages.json");
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(in);
  doc["trace"]["file"] = fifo("trace.csv");
  put("scenario.json", doc.dump(2));
  expect_refused(hermes("validate " + path("scenario.json")),
                 "/trace/file: " + path("trace.csv") + ": cannot open the trace (resolved to " +
                     path("trace.csv") + "): is a FIFO (named pipe), not a regular file",
                 1);
}

}  // namespace
