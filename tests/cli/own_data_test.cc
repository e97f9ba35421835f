// A dataset of your own (docs/data.md) end to end with the real binary: three classes of the
// synthetic blocks written as IDX files, found under --data-dir like a built-in dataset, trained
// with a layer list of your own, its files checksummed into provenance.json; and what only the
// files can tell (a label beyond the classes, a chunk larger than the training set) refused
// before any run, with nothing left behind.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/run_command.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/synthetic_mnist.h"

namespace {

namespace fs = std::filesystem;
using hermes::testing::file_text;
using hermes::testing::run_command;

class OwnData : public hermes::testing::ScratchDirTest {
 protected:
  // The tiny cluster on dataset "three" (dir: `dir`) with `classes` classes and a small MLP.
  std::string scenario(const std::string& dir, int classes, int chunk = 60) {
    return R"({"name": "own", "seed": 11,
      "cluster": {"ps": {"profile": "DS3_v2"},
                  "workers": [{"profile": "B1ms"}, {"profile": "DS2_v2"}, {"profile": "F4s_v2"}]},
      "dataset": {"name": "three", "format": "idx", "dir": ")" +
           dir + R"(", "shape": [1, 28, 28], "classes": )" + std::to_string(classes) + R"(},
      "model": {"name": "mlp-16", "layers": [{"type": "flatten"}, {"type": "dense", "units": 16},
                {"type": "relu"}, {"type": "dense", "units": "classes"}]},
      "training": {"chunk_size": )" +
           std::to_string(chunk) + R"(, "local_epochs": 1, "batch_size": 16,
                   "stop": {"patience": 4, "max_iterations": 12}},
      "runs": [{"name": "bsp", "protocol": "bsp"},
               {"name": "hermes", "protocol": "hermes", "alpha": -0.5}]})";
  }
  hermes::testing::CommandResult run(const std::string& file, const std::string& extra = "") {
    return run_command(std::string(HERMES_BINARY) + " run " + path(file) + " --out " + path("out") +
                       " --data-dir " + path("data") + " " + extra);
  }
};

TEST_F(OwnData, ThreeClassesAsIdxTrainWithBspAndHermesAndAreRecorded) {
  hermes::sweep::testing::write_blocks_idx(path("data") + "/three", 3);
  put("own.json", scenario("three", 3));
  const auto r = run("own.json");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("data: three from " + path("data") + "/three (--data-dir)"),
            std::string::npos)
      << r.output;
  const auto provenance = nlohmann::json::parse(file_text(path("out/provenance.json")));
  const auto& dataset = provenance["datasets"][0];
  EXPECT_EQ(dataset["name"], "three");
  ASSERT_EQ(dataset["files"].size(), 4u) << dataset.dump();
  for (const auto& f : dataset["files"]) EXPECT_EQ(f["sha256"].get<std::string>().size(), 64u);
  const std::string summary = file_text(path("out/summary.csv"));
  EXPECT_NE(summary.find("\nbsp,"), std::string::npos) << summary;
  EXPECT_NE(summary.find("\nhermes,"), std::string::npos) << summary;
  // The resolved scenario names the dataset's files and loads again.
  const auto v = run_command(std::string(HERMES_BINARY) + " validate " + path("out/scenario.json") +
                             " --data-dir " + path("data"));
  EXPECT_EQ(v.status, 0) << v.output;
}

TEST_F(OwnData, AnAbsoluteDirIsTheOnlyPlaceLookedAt) {
  hermes::sweep::testing::write_blocks_idx(path("elsewhere"), 3);
  put("own.json", scenario(path("elsewhere"), 3));
  const auto ok = run_command(std::string(HERMES_BINARY) + " validate " + path("own.json"));
  EXPECT_EQ(ok.status, 0) << ok.output;
  put("missing.json", scenario(path("nowhere"), 3));
  const auto r = run_command(std::string(HERMES_BINARY) + " validate " + path("missing.json") +
                             " --data-dir " + path("elsewhere"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("its dataset.dir " + path("nowhere") + ": no such directory"),
            std::string::npos)
      << r.output;
}

TEST_F(OwnData, ALabelBeyondTheClassesIsRefusedBeforeAnyRunNamingTheFile) {
  hermes::sweep::testing::write_blocks_idx(path("data") + "/three", 10);
  put("own.json", scenario("three", 3));
  const auto r = run("own.json");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find(path("data") + "/three/train-labels-idx1-ubyte"), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("run bsp"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(path("out")));
}

TEST_F(OwnData, AChunkLargerThanTheTrainingSetIsRefusedBeforeAnyRun) {
  hermes::sweep::testing::write_blocks_idx(path("data") + "/three", 3);
  put("own.json", scenario("three", 3, 5000));
  const auto r = run("own.json");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("/training/chunk_size: out of range (accepted: chunk_size in [1, "),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("the training samples of three; got 5000"), std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(path("out")));
}

}  // namespace
