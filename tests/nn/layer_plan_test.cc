// plan_layers: the shapes, parameters and FLOPs of a model worked out without building it agree
// with the built model to the bit, and a layer that does not fit is named by its index.
#include "models/nn/layer_plan.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>

#include "models/nn/model.h"
#include "models/nn/zoo.h"

namespace hermes::nn {
namespace {

void expect_plan_matches_model(const ModelSpec& spec) {
  const auto plans = plan_layers(spec);
  const Model model(spec);
  ASSERT_EQ(plans.size(), model.num_layers());
  for (std::size_t i = 0; i < plans.size(); ++i) {
    EXPECT_EQ(plans[i].name, model.layer(i).name()) << i;
    EXPECT_EQ(plans[i].out, model.layer(i).out_shape()) << i;
    EXPECT_EQ(plans[i].params, model.layer(i).num_params()) << i;
  }
  const ModelPlanTotals t = plan_totals(plans);
  EXPECT_EQ(t.params, model.num_params());
  EXPECT_EQ(std::bit_cast<std::uint64_t>(t.flops_forward),
            std::bit_cast<std::uint64_t>(model.flops_forward_per_sample()));
  EXPECT_EQ(std::bit_cast<std::uint64_t>(t.flops_train),
            std::bit_cast<std::uint64_t>(model.flops_train_per_sample()));
}

ModelSpec custom(Shape input, std::vector<LayerSpec> layers, int classes = 10) {
  input.layout = Layout::kCHW;
  return ModelSpec{"custom", input, classes, std::move(layers), Init::kGlorotUniform};
}

// Which layer a plan refuses, and its message.
std::pair<std::size_t, std::string> refusal(const ModelSpec& spec) {
  try {
    plan_layers(spec);
  } catch (const LayerError& e) {
    return {e.layer(), e.what()};
  }
  ADD_FAILURE() << "no LayerError";
  return {99, ""};
}

TEST(LayerPlan, ThePresetsPlanAsTheyBuild) {
  expect_plan_matches_model(mlp_spec());
  expect_plan_matches_model(cnn_spec());
  expect_plan_matches_model(mlp_spec({3, 32, 32, Layout::kCHW}, 3));
  const auto t = plan_totals(plan_layers(mlp_spec()));
  EXPECT_EQ(t.params, 109386u);
  EXPECT_EQ(t.flops_forward, 218570.0);
  EXPECT_EQ(t.flops_train, 454804.0);
}

TEST(LayerPlan, AnOwnConvNetPlansAsItBuilds) {
  // LeNet-like, with a dense layer straight on a conv map (dense sees its input as one vector).
  expect_plan_matches_model(
      custom({1, 28, 28},
             {LayerSpec::conv2d(6, 5), LayerSpec::relu(), LayerSpec::maxpool2(),
              LayerSpec::conv2d(16, 5), LayerSpec::relu(), LayerSpec::maxpool2(),
              LayerSpec::dense(84), LayerSpec::relu(), LayerSpec::dense(3)},
             3));
}

TEST(LayerPlan, AKernelLargerThanItsInputIsNamedByItsLayer) {
  const auto [layer, what] = refusal(
      custom({1, 28, 28}, {LayerSpec::maxpool2(), LayerSpec::maxpool2(), LayerSpec::conv2d(4, 9),
                           LayerSpec::flatten(), LayerSpec::dense(10)}));
  EXPECT_EQ(layer, 2u);
  EXPECT_NE(what.find("a 9x9 kernel does not fit its input of 1x7x7 (channels x height x width)"),
            std::string::npos)
      << what;
  EXPECT_NE(what.find("kernel from 1 to 7"), std::string::npos) << what;
}

TEST(LayerPlan, APoolOnAVectorIsNamedByItsLayer) {
  const auto [layer, what] = refusal(
      custom({1, 28, 28}, {LayerSpec::dense(32), LayerSpec::maxpool2(), LayerSpec::dense(10)}));
  EXPECT_EQ(layer, 1u);
  EXPECT_NE(what.find("a 2x2 pool does not fit its input of 32 values"), std::string::npos) << what;
}

TEST(LayerPlan, TheLastLayerMustGiveOneLogitPerClass) {
  const auto [layer, what] =
      refusal(custom({1, 28, 28}, {LayerSpec::flatten(), LayerSpec::dense(5)}, 3));
  EXPECT_EQ(layer, 1u);
  EXPECT_NE(what.find("outputs 5 values, but the dataset has 3 classes"), std::string::npos)
      << what;
}

TEST(LayerPlan, AModelBeyondTheLimitsIsRefusedBeforeAnythingIsAllocated) {
  // 784 x 1,048,576 weights = 8.2e8, then 1,048,576^2 = 1.1e12: refused at layer 2.
  const auto [layer, what] =
      refusal(custom({1, 28, 28}, {LayerSpec::dense(kMaxLayerWidth), LayerSpec::relu(),
                                   LayerSpec::dense(kMaxLayerWidth), LayerSpec::dense(10)}));
  EXPECT_EQ(layer, 2u);
  EXPECT_NE(what.find("parameters here (accepted: at most 1000000000)"), std::string::npos) << what;
  EXPECT_EQ(refusal(custom({1, 28, 28}, {LayerSpec::dense(0)})).first, 0u);
  EXPECT_EQ(refusal(custom({1, 28, 28}, {})).first, 0u);
}

TEST(LayerPlan, LayersTextNamesEachLayer) {
  EXPECT_EQ(layers_text(mlp_spec().layers), "flatten, dense 128, relu, dense 64, relu, dense 10");
  EXPECT_EQ(layers_text(cnn_spec().layers),
            "conv2d 32 3x3, relu, maxpool, conv2d 64 3x3, relu, maxpool, flatten, dense 64, "
            "relu, dense 10");
}

}  // namespace
}  // namespace hermes::nn
