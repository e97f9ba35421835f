// The "model" section: presets by name, layer lists checked against the dataset before a run,
// every mistake at its JSON path.
#include <gtest/gtest.h>

#include "tests/scenario/scenario_test_util.h"

namespace hermes::scenario {
namespace {

using testing::check_doc;
using testing::Contains;
using testing::errors_after;
using testing::minimal_doc;
using testing::only_message;
using testing::Paths;
using testing::with_patch;

TEST(ModelSection, APresetResolvesToItsNameAlone) {
  Diagnostics diags;
  const auto s = with_patch(R"({"model": {"name": "cnn"}, "dataset": {"name": "cifar10"}})", diags);
  ASSERT_TRUE(s) << diags.format();
  EXPECT_TRUE(s->model.is_preset());
  EXPECT_EQ(s->model.name, "cnn");
  EXPECT_EQ(s->document["model"].dump(), R"({"name":"cnn"})");
  const auto d = check_doc(minimal_doc(), diags);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->document["model"].dump(), R"({"name":"mlp"})");
}

TEST(ModelSection, ALayerListResolvesClassesToTheDatasets) {
  Diagnostics diags;
  const auto s = with_patch(R"({"model": {"name": "lenet", "init": "he_uniform", "layers": [
      {"type": "conv2d", "filters": 6, "kernel": 5}, {"type": "relu"}, {"type": "maxpool"},
      {"type": "flatten"}, {"type": "dense", "units": "classes"}]}})",
                            diags);
  ASSERT_TRUE(s) << diags.format();
  EXPECT_EQ(s->model.name, "lenet");
  EXPECT_EQ(s->model.init, nn::Init::kHeUniform);
  EXPECT_EQ(s->model.layers,
            (std::vector<nn::LayerSpec>{nn::LayerSpec::conv2d(6, 5), nn::LayerSpec::relu(),
                                        nn::LayerSpec::maxpool2(), nn::LayerSpec::flatten(),
                                        nn::LayerSpec::dense(10)}));
  // Resolved as written, with maxpool's size: the document loads again to the same model.
  EXPECT_EQ(s->document["model"]["layers"][2].dump(), R"({"type":"maxpool","size":2})");
  EXPECT_EQ(s->document["model"]["layers"][4].dump(), R"({"type":"dense","units":"classes"})");
  Diagnostics again;
  const auto reloaded = check_scenario_text(s->document.dump(), {}, HERMES_SOURCE_DIR, again,
                                            &testing::test_catalog());
  ASSERT_TRUE(reloaded) << again.format();
  EXPECT_EQ(reloaded->model.layers, s->model.layers);
}

TEST(ModelSection, ALayerListWithoutANameIsCustom) {
  Diagnostics diags;
  const auto s = with_patch(R"({"model": {"layers": [{"type": "flatten"}, {"type": "dense",
                         "units": 10}]}})",
                            diags);
  ASSERT_TRUE(s) << diags.format();
  EXPECT_EQ(s->model.name, "custom");
}

TEST(ModelSection, EachMistakeOfALayerAtItsPath) {
  Diagnostics diags;
  EXPECT_EQ(errors_after(R"({"model": {"name": "net", "layers": [
      {"type": "relu", "units": 3}, {"type": "dense"}, {"type": "dense", "units": "many"},
      {"type": "pool"}, {"type": "conv2d", "filters": 0, "kernel": 3}, {"type": "dense",
      "units": 5, "bias": false}, {"type": "maxpool", "size": 3}, "relu", {}]}})",
                         diags),
            (Paths{"/model/layers/0/units", "/model/layers/1/units", "/model/layers/2/units",
                   "/model/layers/3/type", "/model/layers/4/filters", "/model/layers/5/bias",
                   "/model/layers/6/size", "/model/layers/7", "/model/layers/8/type"}))
      << diags.format();
  EXPECT_TRUE(Contains(diags.items()[0].message,
                       "a relu layer takes no units (accepted keys of a relu layer: type)"));
  EXPECT_TRUE(Contains(diags.items()[2].message, "or \"classes\""));
  EXPECT_TRUE(Contains(diags.items()[3].message, "dense, relu, conv2d, maxpool, flatten"));
  EXPECT_TRUE(Contains(diags.items()[5].message, "accepted: type, units"));
}

TEST(ModelSection, NamesThatClashOrAreNoPreset) {
  Diagnostics diags;
  EXPECT_EQ(errors_after(R"({"model": {"name": "resnet"}})", diags), Paths{"/model/name"});
  EXPECT_TRUE(Contains(only_message(diags), "no preset (accepted: mlp, cnn, or a name"));
  EXPECT_EQ(errors_after(R"({"model": {"name": "mlp", "layers": [{"type": "dense",
                            "units": 10}]}})",
                         diags),
            Paths{"/model/name"});
  EXPECT_TRUE(Contains(only_message(diags), "is a preset's name"));
  EXPECT_EQ(errors_after(R"({"model": {"name": "a/b", "layers": [{"type": "dense",
                            "units": 10}]}})"),
            Paths{"/model/name"});
  EXPECT_EQ(errors_after(R"({"model": {"layers": []}})"), Paths{"/model/layers"});
  EXPECT_EQ(errors_after(R"({"model": {"layers": {"type": "relu"}}})"), Paths{"/model/layers"});
  EXPECT_EQ(errors_after(R"({"model": {"init": "zeros"}})"), Paths{"/model/init"});
}

TEST(ModelSection, ShapesAreCheckedAgainstTheDatasetNamingTheLayer) {
  Diagnostics diags;
  // 32x32 -> conv 5: 28 -> pool: 14 -> conv 5: 10 -> pool: 5 -> conv 7 does not fit.
  EXPECT_EQ(errors_after(R"({"dataset": {"name": "cifar10"}, "model": {"name": "deep",
      "layers": [{"type": "conv2d", "filters": 8, "kernel": 5}, {"type": "maxpool"},
                 {"type": "conv2d", "filters": 8, "kernel": 5}, {"type": "maxpool"},
                 {"type": "conv2d", "filters": 8, "kernel": 7}, {"type": "dense",
                 "units": 10}]}})",
                         diags),
            Paths{"/model/layers/4"});
  EXPECT_TRUE(Contains(
      only_message(diags),
      "conv2d: a 7x7 kernel does not fit its input of 8x5x5 (channels x "
      "height x width) (accepted: kernel from 1 to 5, as the convolution is 'valid') (model deep "
      "on cifar10, 3x32x32 samples)"));
  EXPECT_EQ(errors_after(R"({"model": {"name": "net", "layers": [{"type": "flatten"},
                            {"type": "dense", "units": 5}]}})",
                         diags),
            Paths{"/model/layers/1"});
  EXPECT_TRUE(Contains(only_message(diags), "outputs 5 values, but the dataset has 10 classes"));
}

TEST(ModelSection, ABadDatasetLeavesTheShapesUnchecked) {
  // Only the dataset's mistake: the layers are not checked against a dataset that is not known.
  EXPECT_EQ(errors_after(R"({"dataset": {"name": "imagenet"}, "model": {"name": "net",
                            "layers": [{"type": "dense", "units": 5}]}})"),
            Paths{"/dataset/name"});
}

}  // namespace
}  // namespace hermes::scenario
