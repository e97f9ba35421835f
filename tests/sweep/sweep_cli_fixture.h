// The fixture of the end-to-end sweep tests: a tiny scenario and synthetic data (written as IDX
// files, read through --data-dir) in a temporary directory per test suite, and the real
// hermes-sim binary run on them.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/run_command.h"
#include "tests/support/synthetic_mnist.h"
#include "tests/support/test_files.h"
#include "tests/support/tiny_sweep.h"

namespace hermes::sweep::testing {

namespace fs = std::filesystem;
using hermes::testing::CommandResult;
using hermes::testing::run_command;
using Json = nlohmann::ordered_json;

inline const char* const kScenario = hermes::testing::kTinySweepScenario;

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::size_t lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

class SweepCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new data::testing::TempDir();
    testing::write_blocks_mnist(*tmp_ / "data");
    std::ofstream(*tmp_ / "tiny.json") << kScenario;
  }
  static void TearDownTestSuite() {
    delete tmp_;
    tmp_ = nullptr;
  }

  static std::string dir(const std::string& name) { return *tmp_ / name; }

  // The command line of hermes-sim sweep on the tiny scenario into `out`, with extra options.
  static std::string sweep_command(const std::string& out, const std::string& extra = "") {
    return std::string(HERMES_BINARY) + " sweep " + (*tmp_ / "tiny.json") + " --data-dir " +
           (*tmp_ / "data") + " --out " + out + (extra.empty() ? "" : " " + extra);
  }

  // Runs that command (after `launcher`, such as mpirun) and returns what it printed.
  static CommandResult sweep(const std::string& out, const std::string& extra = "",
                             const std::string& launcher = "") {
    return run_command(launcher + sweep_command(out, extra));
  }

  // `r` printed `text`; if not, the test fails showing all it printed.
  static void expect_says(const CommandResult& r, const std::string& text) {
    EXPECT_NE(r.output.find(text), std::string::npos) << "expected: " << text << "\n" << r.output;
  }

  // Every file of every point, and the summary, are the same bytes in both sweeps; except
  // provenance.json, which records how each was run (command line, --jobs, MPI rank).
  static void expect_identical(const std::string& a, const std::string& b) {
    EXPECT_EQ(slurp(a + "/summary.csv"), slurp(b + "/summary.csv"));
    std::size_t files = 0, provenances = 0;
    for (const auto& entry : fs::recursive_directory_iterator(a + "/points")) {
      if (!entry.is_regular_file()) continue;
      const fs::path rel = fs::relative(entry.path(), a);
      ASSERT_TRUE(fs::exists(fs::path(b) / rel)) << rel;
      if (rel.filename() == "provenance.json") {
        ++provenances;
        continue;
      }
      EXPECT_EQ(slurp(entry.path()), slurp(fs::path(b) / rel)) << rel;
      ++files;
    }
    EXPECT_EQ(files, 28u);  // 4 points x 7 files (6 and the .hermes-run marker)
    EXPECT_EQ(provenances, 4u);
  }

  // The SHA-256 of `path` by coreutils' sha256sum, independent of hermes-sim's.
  static std::string sha256sum(const std::string& path) {
    const auto r = run_command("sha256sum " + path);
    EXPECT_EQ(r.status, 0) << r.output;
    return r.output.substr(0, 64);
  }

  // A provenance.json's one dataset is the synthetic MNIST of this suite, every file checksummed.
  static void expect_synthetic_mnist(const Json& provenance) {
    ASSERT_EQ(provenance["datasets"].size(), 1u) << provenance.dump(2);
    const Json& d = provenance["datasets"][0];
    EXPECT_EQ(d["name"], "mnist");
    EXPECT_EQ(d["dir"], *tmp_ / "data/mnist");
    EXPECT_EQ(d["origin"], "--data-dir");
    ASSERT_EQ(d["files"].size(), 4u);
    const char* names[] = {"train-images-idx3-ubyte", "train-labels-idx1-ubyte",
                           "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"};
    for (std::size_t i = 0; i < 4; ++i) {
      const Json& f = d["files"][i];
      const std::string path = *tmp_ / ("data/mnist/" + std::string(names[i]));
      EXPECT_EQ(f["name"], names[i]);
      EXPECT_EQ(f["bytes"], fs::file_size(path)) << names[i];
      EXPECT_EQ(f["sha256"], sha256sum(path)) << names[i];
    }
  }

  inline static data::testing::TempDir* tmp_ = nullptr;
};

}  // namespace hermes::sweep::testing

namespace hermes::sweep {

// What the sweep test files name unqualified.
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
using hermes::testing::run_command;
using testing::lines;
using testing::slurp;
using SweepCli = testing::SweepCli;

}  // namespace hermes::sweep
