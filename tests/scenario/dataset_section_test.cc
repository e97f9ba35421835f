// The "dataset" section: a built-in dataset by name, or one of your own by its files, format,
// shape and classes; the model is checked against whichever it is.
#include <gtest/gtest.h>

#include "tests/scenario/scenario_test_util.h"

namespace hermes::scenario {
namespace {

using testing::Contains;
using testing::errors_after;
using testing::only_message;
using testing::Paths;
using testing::with_patch;

TEST(DatasetSection, ABuiltInDatasetIsItsNameAlone) {
  Diagnostics diags;
  const auto s = with_patch(R"({"dataset": {"name": "cifar10"}, "model": {"name": "cnn"}})", diags);
  ASSERT_TRUE(s) << diags.format();
  EXPECT_EQ(s->document["dataset"].dump(), R"({"name":"cifar10"})");
  EXPECT_TRUE(s->dataset.files.builtin);
  EXPECT_EQ(s->dataset.files.format, data::DataFormat::kCifarBinary);
  EXPECT_EQ(s->dataset.files.shape, (data::SampleShape{3, 32, 32}));
  EXPECT_TRUE(s->dataset.files.standardize);
  EXPECT_EQ(known_train_size(s->dataset), 50000);
}

TEST(DatasetSection, YourOwnIdxDatasetTakesMnistsFileNamesAndItsNameAsDir) {
  Diagnostics diags;
  const auto s = with_patch(R"({"dataset": {"name": "fashion-mnist-3", "format": "idx",
                                "shape": [1, 28, 28], "classes": 3}})",
                            diags);
  ASSERT_TRUE(s) << diags.format();
  const data::DatasetFiles& f = s->dataset.files;
  EXPECT_FALSE(f.builtin);
  EXPECT_EQ(s->dataset.name, "fashion-mnist-3");
  EXPECT_EQ(f.subdir, "fashion-mnist-3");
  EXPECT_EQ(f.train_files, data::dataset_files("mnist").train_files);
  EXPECT_EQ(f.classes, 3);
  EXPECT_FALSE(known_train_size(s->dataset));
  // Every default is written out, so the resolved document says where the files are.
  EXPECT_EQ(s->document["dataset"].dump(),
            R"({"name":"fashion-mnist-3","format":"idx","dir":"fashion-mnist-3","train":)"
            R"(["train-images-idx3-ubyte","train-labels-idx1-ubyte"],"test":)"
            R"(["t10k-images-idx3-ubyte","t10k-labels-idx1-ubyte"],"shape":[1,28,28],)"
            R"("classes":3,"standardize":false})");
}

TEST(DatasetSection, AnNpzDatasetDefaultsToOneArchiveForBothParts) {
  Diagnostics diags;
  const auto s = with_patch(R"({"dataset": {"name": "tiny", "format": "npz", "dir": "/data/t",
                                "shape": [3, 8, 8], "classes": 4, "standardize": true},
                                "model": {"name": "net", "layers": [{"type": "conv2d",
                                "filters": 2, "kernel": 3}, {"type": "dense",
                                "units": "classes"}]}})",
                            diags);
  ASSERT_TRUE(s) << diags.format();
  EXPECT_EQ(s->dataset.files.train_files, std::vector<std::string>{"tiny.npz"});
  EXPECT_EQ(s->dataset.files.test_files, std::vector<std::string>{"tiny.npz"});
  EXPECT_EQ(s->dataset.files.subdir, "/data/t");
  EXPECT_TRUE(s->dataset.files.standardize);
  // "classes" follows the dataset's 4.
  EXPECT_EQ(s->model.layers.back(), nn::LayerSpec::dense(4));
}

TEST(DatasetSection, EachMistakeAtItsKey) {
  Diagnostics diags;
  EXPECT_EQ(errors_after(R"({"dataset": {"name": "imagenet"}})", diags), Paths{"/dataset/name"});
  EXPECT_TRUE(
      Contains(only_message(diags), "accepted: mnist, fashion-mnist, cifar10, or your own"));
  EXPECT_EQ(errors_after(R"({"dataset": {"name": "mnist", "shape": [1, 28, 28]}})", diags),
            Paths{"/dataset/shape"});
  EXPECT_TRUE(Contains(only_message(diags), "only a dataset of your own takes shape"));
  EXPECT_EQ(errors_after(R"({"dataset": {"name": "mnist", "format": "idx", "shape": [1, 28, 28],
                            "classes": 10}})",
                         diags),
            Paths{"/dataset/name"});
  EXPECT_TRUE(Contains(only_message(diags), "is a built-in dataset; yours needs its own name"));
  EXPECT_EQ(errors_after(R"({"dataset": {"name": "d", "format": "hdf5", "shape": [1, 2, 2],
                            "classes": 2}})"),
            Paths{"/dataset/format"});
  EXPECT_EQ(errors_after(R"({"dataset": {"name": "d", "format": "idx"}})"),
            (Paths{"/dataset/shape", "/dataset/classes"}));
  EXPECT_EQ(errors_after(R"({"dataset": {"name": "d", "format": "idx", "shape": [1, 28],
                            "classes": 1}})"),
            (Paths{"/dataset/shape", "/dataset/classes"}));
  EXPECT_EQ(errors_after(R"({"dataset": {"name": "d", "format": "idx", "shape": [0, 28, 28],
                            "classes": 300}})"),
            (Paths{"/dataset/shape", "/dataset/classes"}));
  EXPECT_EQ(errors_after(R"({"dataset": {"name": "d", "format": "idx", "shape": [1, 16384, 16384],
                            "classes": 2}})",
                         diags),
            Paths{"/dataset/shape"});
  EXPECT_TRUE(Contains(only_message(diags), "holds more than 100000000 values"));
  EXPECT_EQ(errors_after(R"({"dataset": {"name": "d", "format": "idx", "train": ["a"],
                            "test": ["../b", "c"], "shape": [1, 28, 28], "classes": 2}})",
                         diags),
            (Paths{"/dataset/train", "/dataset/test"}));
  EXPECT_TRUE(Contains(diags.items()[0].message, "a list of two file names: [images, labels]"));
  EXPECT_TRUE(Contains(diags.items()[1].message, "is no file name"));
  EXPECT_EQ(errors_after(R"({"dataset": {"name": "d", "format": "cifar-binary",
                            "shape": [3, 32, 32], "classes": 10}})"),
            (Paths{"/dataset/train", "/dataset/test"}));
  EXPECT_EQ(errors_after(R"({"dataset": {"name": "d", "format": "npz", "dir": "",
                            "shape": [3, 32, 32], "classes": 10, "labels": "y"}})"),
            (Paths{"/dataset/dir", "/dataset/labels"}));
}

TEST(DatasetSection, TheModelIsCheckedAgainstYourDatasetsShapeAndClasses) {
  Diagnostics diags;
  EXPECT_EQ(errors_after(R"({"dataset": {"name": "small", "format": "idx", "shape": [1, 6, 6],
                            "classes": 3}, "model": {"name": "net", "layers": [
                            {"type": "conv2d", "filters": 4, "kernel": 7},
                            {"type": "dense", "units": 3}]}})",
                         diags),
            Paths{"/model/layers/0"});
  EXPECT_TRUE(Contains(only_message(diags), "(model net on small, 1x6x6 samples)"));
  // A preset follows the dataset: the MLP takes 36 inputs and gives 3 logits.
  const auto s = with_patch(R"({"dataset": {"name": "small", "format": "idx",
                                "shape": [1, 6, 6], "classes": 3}})",
                            diags);
  ASSERT_TRUE(s) << diags.format();
  EXPECT_TRUE(s->model.is_preset());
}

}  // namespace
}  // namespace hermes::scenario
