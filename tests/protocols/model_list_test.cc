// A model given as a layer list (docs/models.md) trains as the preset it equals, byte for byte,
// and a list of its own (convolutions included) trains and ends normally.
#include <gtest/gtest.h>

#include <string>

#include "sim/protocols/skeleton/workload.h"
#include "tests/protocols/full_output.h"
#include "tests/protocols/tiny_bsp.h"

namespace hermes::protocols {
namespace {

std::string tiny_with_model(const std::string& model) {
  return R"({"name": "tiny", "seed": 11,)" + testing::kTinyCluster + R"(
  "model": )" +
         model + R"(,
  "training": {"chunk_size": 60, "local_epochs": 1, "batch_size": 16,
               "stop": {"patience": 4, "max_iterations": 15}},
  "runs": [{"name": "bsp", "protocol": "bsp"},
           {"name": "hermes", "protocol": "hermes", "alpha": -0.5}]})";
}

const std::string kMlpAsLayers = R"({"name": "mlp-list", "layers": [
    {"type": "flatten"}, {"type": "dense", "units": 128}, {"type": "relu"},
    {"type": "dense", "units": 64}, {"type": "relu"}, {"type": "dense", "units": "classes"}]})";

TEST(ModelList, TheMlpWrittenAsLayersGivesThePresetsBytes) {
  const std::string preset =
      testing::full_output(testing::scenario_from_text(tiny_with_model(R"({"name": "mlp"})")));
  const std::string list =
      testing::full_output(testing::scenario_from_text(tiny_with_model(kMlpAsLayers)));
  EXPECT_EQ(list, preset);
  EXPECT_NE(preset.find("hermes"), std::string::npos);
}

TEST(ModelList, ItsInitAndItsLayersChangeTheRun) {
  const std::string glorot =
      testing::full_output(testing::scenario_from_text(tiny_with_model(kMlpAsLayers)));
  std::string he_model = kMlpAsLayers;
  he_model.insert(1, R"("init": "he_uniform", )");
  const std::string he =
      testing::full_output(testing::scenario_from_text(tiny_with_model(he_model)));
  EXPECT_NE(he, glorot);
  const auto sc = testing::scenario_from_text(tiny_with_model(R"({"name": "small-conv",
      "layers": [{"type": "conv2d", "filters": 4, "kernel": 3}, {"type": "relu"},
                 {"type": "maxpool"}, {"type": "dense", "units": 16}, {"type": "relu"},
                 {"type": "dense", "units": "classes"}]})"));
  const auto data = testing::blocks_split();
  const RunResult r = run_protocol(sc, sc.runs[0], data, {}, nullptr);
  EXPECT_GT(r.updates, 0);
  EXPECT_EQ(r.stop_reason == StopReason::kNone, false);
  // 4 x (9 + 1) + 13 * 13 * 4 * 16 + 16 + 16 * 10 + 10 parameters travel per model.
  const std::size_t params = 40 + 676 * 16 + 16 + 170;
  EXPECT_EQ(model_cost(sc).params, static_cast<std::int64_t>(params));
}

}  // namespace
}  // namespace hermes::protocols
