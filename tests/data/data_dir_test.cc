// Data-directory resolution: order of the sources, what counts as a dataset directory, errors.
#include "models/data/data_dir.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "models/data/loaders.h"
#include "tests/data/test_files.h"

namespace hermes::data {
namespace {

namespace fs = std::filesystem;
using testing::input_error;
using testing::ScopedEnv;
using testing::TempDir;

std::string normal(const std::string& p) { return fs::path(p).lexically_normal().string(); }

TEST(DataDir, CandidateOrder) {
  ScopedEnv env("HERMES_DATA_DIR", "/from/env");
  const auto c = data_root_candidates("mnist", "/from/flag");
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0].origin, "--data-dir");
  EXPECT_EQ(c[0].root, "/from/flag");
  EXPECT_EQ(c[1].origin, "$HERMES_DATA_DIR");
  EXPECT_EQ(c[1].root, "/from/env");
  EXPECT_EQ(c[2].origin, "<repo>/data");
  EXPECT_EQ(c[2].root, normal(std::string(HERMES_SOURCE_DIR) + "/data"));
  EXPECT_EQ(c[3].origin, "<repo>/../shared/data");
  EXPECT_EQ(c[3].root, normal(std::string(HERMES_SOURCE_DIR) + "/../shared/data"));

  const auto f = data_root_candidates("fashion-mnist", "");
  ASSERT_EQ(f.size(), 5u);
  EXPECT_EQ(f[0].root, "");  // flag not given
  EXPECT_EQ(f[4].root, "/usr/share/datasets");
  EXPECT_EQ(data_root_candidates("cifar10", "").size(), 4u);
}

TEST(DataDir, UnsetOrEmptyEnvIsNotACandidate) {
  {
    ScopedEnv env("HERMES_DATA_DIR", std::nullopt);
    EXPECT_EQ(data_root_candidates("mnist", "")[1].root, "");
  }
  ScopedEnv env("HERMES_DATA_DIR", "");
  EXPECT_EQ(data_root_candidates("mnist", "")[1].root, "");
}

TEST(DataDir, FlagWinsOverEnvironment) {
  TempDir flag, env_dir;
  testing::write_idx_dataset(flag.str(), "mnist", 1, 1, true);
  testing::write_idx_dataset(env_dir.str(), "mnist", 1, 1, false);
  ScopedEnv env("HERMES_DATA_DIR", env_dir.str());
  EXPECT_EQ(resolve_data_dir("mnist", flag.str()), normal(flag / "mnist"));
  EXPECT_EQ(resolve_data_dir("mnist", ""), normal(env_dir / "mnist"));
}

TEST(DataDir, FlagWithoutTheDatasetFallsThroughToEnvironment) {
  TempDir flag, env_dir;
  testing::write_idx_dataset(flag.str(), "fashion-mnist", 1, 1, true);  // not mnist
  testing::write_idx_dataset(env_dir.str(), "mnist", 1, 1, true);
  ScopedEnv env("HERMES_DATA_DIR", env_dir.str());
  EXPECT_EQ(resolve_data_dir("mnist", flag.str()), normal(env_dir / "mnist"));
  EXPECT_EQ(resolve_data_dir("fashion-mnist", flag.str()), normal(flag / "fashion-mnist"));
}

TEST(DataDir, FilesDirectlyInTheRootDoNotCount) {
  TempDir root;
  testing::write_idx_dataset(root.str(), ".", 1, 1, true);  // loose IDX files in the root
  const std::string msg = input_error([&] {
    resolve_data_dir_among("mnist", {{"--data-dir", root.str()}});
  });
  EXPECT_CONTAINS(msg, "--data-dir: " + normal(root / "mnist") + " (no such directory)");
}

TEST(DataDir, PartialDownloadIsSkippedAndReported) {
  TempDir partial, complete;
  testing::write_idx_dataset(partial.str(), "mnist", 1, 1, true);
  fs::remove(partial / "mnist/t10k-labels-idx1-ubyte.gz");
  testing::write_idx_dataset(complete.str(), "mnist", 1, 1, true);
  const std::vector<DataRootCandidate> both = {{"a", partial.str()}, {"b", complete.str()}};
  EXPECT_EQ(resolve_data_dir_among("mnist", both), normal(complete / "mnist"));
  const std::string msg = input_error([&] {
    resolve_data_dir_among("mnist", {{"a", partial.str()}});
  });
  EXPECT_CONTAINS(msg,
                  "a: " + normal(partial / "mnist") + " (missing t10k-labels-idx1-ubyte[.gz])");
}

TEST(DataDir, RawAndGzipNamesAreBothAccepted) {
  TempDir root;
  testing::write_cifar_dataset(root.str(), 1, false);
  fs::rename(root / "cifar-10/data_batch_3.bin", root / "cifar-10/data_batch_3.bin.gz");
  EXPECT_EQ(resolve_data_dir_among("cifar10", {{"x", root.str()}}), normal(root / "cifar-10"));
  EXPECT_EQ(find_data_file(root / "cifar-10", "data_batch_3.bin"),
            (fs::path(root / "cifar-10") / "data_batch_3.bin.gz").string());
  EXPECT_EQ(find_data_file(root / "cifar-10", "data_batch_1.bin"),
            (fs::path(root / "cifar-10") / "data_batch_1.bin").string());
  EXPECT_EQ(find_data_file(root / "cifar-10", "data_batch_9.bin"), "");
}

TEST(DataDir, RawFileIsPreferredWhenBothExist) {
  TempDir root;
  testing::write_file(root / "d/x", {1});
  testing::write_file(root / "d/x.gz", {2});
  EXPECT_EQ(find_data_file(root / "d", "x"), (fs::path(root / "d") / "x").string());
}

TEST(DataDir, ErrorListsEveryPlaceTriedInOrder) {
  TempDir empty, partial;
  testing::write_file(partial / "cifar-10/data_batch_1.bin", {0});
  const std::string msg = input_error([&] {
    resolve_data_dir_among(
        "cifar10",
        {{"--data-dir", ""}, {"$HERMES_DATA_DIR", empty.str()}, {"<repo>/data", partial.str()}});
  });
  EXPECT_CONTAINS(msg, "dataset \"cifar10\" not found");
  const auto flag_at = msg.find("--data-dir: (not set)");
  const auto env_at =
      msg.find("$HERMES_DATA_DIR: " + normal(empty / "cifar-10") + " (no such directory)");
  const auto repo_at = msg.find("<repo>/data: " + normal(partial / "cifar-10") +
                                " (missing data_batch_2.bin[.gz], data_batch_3.bin[.gz], "
                                "data_batch_4.bin[.gz], data_batch_5.bin[.gz], "
                                "test_batch.bin[.gz])");
  ASSERT_NE(flag_at, std::string::npos) << msg;
  ASSERT_NE(env_at, std::string::npos) << msg;
  ASSERT_NE(repo_at, std::string::npos) << msg;
  EXPECT_LT(flag_at, env_at);
  EXPECT_LT(env_at, repo_at);
  EXPECT_CONTAINS(msg, "tools/fetch-data");
}

TEST(DataDir, PublicResolverListsAllDefaultPlaces) {
  // Only the repo fallbacks can hold "mnist" here if they do; the message must name all four.
  TempDir empty;
  ScopedEnv env("HERMES_DATA_DIR", empty.str());
  try {
    const std::string found = resolve_data_dir("mnist", empty.str());
    // Found in a repo fallback: it must be one of them.
    const auto c = data_root_candidates("mnist", "");
    EXPECT_TRUE(found == normal(c[2].root + "/mnist") || found == normal(c[3].root + "/mnist"))
        << found;
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_CONTAINS(msg, "--data-dir: " + normal(empty / "mnist"));
    EXPECT_CONTAINS(msg, "$HERMES_DATA_DIR: " + normal(empty / "mnist"));
    EXPECT_CONTAINS(msg, "<repo>/data: ");
    EXPECT_CONTAINS(msg, "<repo>/../shared/data: ");
  }
}

TEST(DataDir, RepoFallbacksInOrderWhenFlagAndEnvAreUnset) {
  ScopedEnv env("HERMES_DATA_DIR", std::nullopt);
  const auto c = data_root_candidates("mnist", "");
  auto complete = [](const std::string& root) {
    for (const char* f : {"train-images-idx3-ubyte", "train-labels-idx1-ubyte",
                          "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"}) {
      const fs::path p = fs::path(root) / "mnist" / f;
      if (!fs::is_regular_file(p) && !fs::is_regular_file(p.string() + ".gz")) return false;
    }
    return true;
  };
  if (complete(c[2].root)) {
    EXPECT_EQ(resolve_data_dir("mnist", ""), normal(c[2].root + "/mnist"));
  } else if (complete(c[3].root)) {
    EXPECT_EQ(resolve_data_dir("mnist", ""), normal(c[3].root + "/mnist"));
  } else {
    GTEST_SKIP() << "no MNIST under " << c[2].root << " or " << c[3].root;
  }
}

TEST(DataDir, UnknownDatasetListsAcceptedNames) {
  EXPECT_CONTAINS(
      input_error([] { resolve_data_dir("imagenet", ""); }),
      "unknown dataset \"imagenet\": accepted values are mnist, fashion-mnist, cifar10");
  EXPECT_CONTAINS(input_error([] { load_dataset("cifar-100", ""); }), "unknown dataset");
  EXPECT_EQ(dataset_names(), (std::vector<std::string>{"mnist", "fashion-mnist", "cifar10"}));
}

}  // namespace
}  // namespace hermes::data
