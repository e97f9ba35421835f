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
  EXPECT_NE(r.output.find(" training samples of three; got 5000"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(path("out")));
}

// The files are counted before anything is loaded: validate names the training set's size, and
// the memory estimate holds the dataset's 1500 + 300 samples of 784 floats and a label (5.6 MB),
// not a guess (the chunk and 10,000 test samples would give 31.6 MB).
TEST_F(OwnData, ValidateCountsTheFilesForTheChunkAndTheMemoryEstimate) {
  hermes::sweep::testing::write_blocks_idx(path("data") + "/three", 10);
  const std::string validate =
      std::string(HERMES_BINARY) + " validate --data-dir " + path("data") + " ";
  put("big-chunk.json", scenario("three", 10, 1501));
  const auto chunk = run_command(validate + path("big-chunk.json"));
  EXPECT_EQ(chunk.status, 1) << chunk.output;
  EXPECT_NE(chunk.output.find("/training/chunk_size: out of range (accepted: chunk_size in [1, "
                              "1500], the 1500 training samples of three; got 1501)"),
            std::string::npos)
      << chunk.output;
  put("own.json", scenario("three", 10, 1500));
  EXPECT_EQ(run_command(validate + path("own.json")).status, 0);
  const auto memory = run_command(validate + path("own.json") + " --max-memory 0.001");
  EXPECT_EQ(memory.status, 1) << memory.output;
  EXPECT_NE(memory.output.find(" + three 5.6 MB;"), std::string::npos) << memory.output;
}

// A sweep counts the files once before its first point: a chunk beyond the training set is
// refused naming the point, and no sweep directory is made.
TEST_F(OwnData, ASweepRefusesAChunkBeyondTheCountedTrainingSetBeforeAnyPoint) {
  hermes::sweep::testing::write_blocks_idx(path("data") + "/three", 10);
  put("own.json", scenario("three", 10, 1501));
  const auto r = run_command(std::string(HERMES_BINARY) + " sweep " + path("own.json") + " --out " +
                             path("sweep") + " --data-dir " + path("data") +
                             " --grid runs.hermes.alpha=-0.5,-0.3");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("/training/chunk_size: out of range (accepted: chunk_size in [1, "
                          "1500], the 1500 training samples of three; got 1501)"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(path("sweep")));
}

// validate prints a layer list's table: shapes as channels x height x width (the order of the
// dataset's "shape", though convolutions store channels last), derived sizes with 6 significant
// digits (4e-6 x 17666 parameters is 0.07066399999999999 in binary).
TEST_F(OwnData, ValidatePrintsTheLayersInTheDatasetsShapeOrder) {
  hermes::sweep::testing::write_blocks_idx(path("data") + "/three", 10);
  std::string text = scenario("three", 10);
  const std::string mlp = R"([{"type": "flatten"}, {"type": "dense", "units": 16},
                {"type": "relu"}, {"type": "dense", "units": "classes"}])";
  text.replace(text.find(mlp), mlp.size(),
               R"([{"type": "conv2d", "filters": 6, "kernel": 5}, {"type": "maxpool", "size": 2},
                   {"type": "flatten"}, {"type": "dense", "units": 20},
                   {"type": "dense", "units": "classes"}])");
  put("conv.json", text);
  const auto r = run_command(std::string(HERMES_BINARY) + " validate --data-dir " + path("data") +
                             " " + path("conv.json"));
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("model mlp-16 on three (1x28x28 samples, 10 classes): 17666 parameters "
                          "(0.070664 MB as float32)"),
            std::string::npos)
      << r.output;
  for (const char* row :
       {"conv2d 6 5x5  6x24x24", "maxpool 2x2   6x12x12", "flatten           864"}) {
    EXPECT_NE(r.output.find(row), std::string::npos) << row << "\n" << r.output;
  }
}

// train --scenario trains the scenario's layer list on its own dataset, centrally; --dataset or
// --model beside it is refused, and --set needs it.
TEST_F(OwnData, TrainTakesTheModelAndTheDatasetOfAScenario) {
  hermes::sweep::testing::write_blocks_idx(path("data") + "/three", 3);
  put("own.json", scenario("three", 3));
  const std::string train = std::string(HERMES_BINARY) + " train --data-dir " + path("data") +
                            " --epochs 2 --threads 1 --scenario " + path("own.json");
  const auto r = run_command(train);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("data: three from " + path("data") + "/three (--data-dir)"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("mlp-16: input 1x28x28, 12611 parameters"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("final test accuracy "), std::string::npos) << r.output;
  const auto wider = run_command(train + " --set model.layers.1.units=32");
  ASSERT_EQ(wider.status, 0) << wider.output;
  EXPECT_NE(wider.output.find("mlp-16: input 1x28x28, 25219 parameters"), std::string::npos)
      << wider.output;
  const auto both = run_command(train + " --dataset mnist");
  EXPECT_EQ(both.status, 2) << both.output;
  EXPECT_NE(both.output.find("--scenario takes the dataset and the model from the scenario"),
            std::string::npos)
      << both.output;
  const auto set_alone = run_command(std::string(HERMES_BINARY) + " train --set seed=2");
  EXPECT_EQ(set_alone.status, 2) << set_alone.output;
  EXPECT_NE(set_alone.output.find("--set needs --scenario"), std::string::npos) << set_alone.output;
}

}  // namespace
