// Data-directory resolution: order of the sources, what counts as a dataset directory, errors.
#include "models/data/data_dir.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "models/data/loaders.h"
#include "tests/support/test_files.h"

namespace hermes::data {
namespace {

namespace fs = std::filesystem;
using testing::input_error;
using testing::ScopedEnv;
using testing::TempDir;

std::string normal(const std::string& p) { return fs::path(p).lexically_normal().string(); }

TEST(DataDir, AnExplicitChoiceIsTheOnlyCandidate) {
  ScopedEnv env("HERMES_DATA_DIR", "/from/env");
  const auto flag = data_root_candidates("mnist", "/from/flag");
  ASSERT_EQ(flag.size(), 1u);
  EXPECT_EQ(flag[0].origin, "--data-dir");
  EXPECT_EQ(flag[0].root, "/from/flag");
  EXPECT_TRUE(flag[0].explicit_choice);
  const auto from_env = data_root_candidates("fashion-mnist", "");
  ASSERT_EQ(from_env.size(), 1u);
  EXPECT_EQ(from_env[0].origin, "$HERMES_DATA_DIR");
  EXPECT_EQ(from_env[0].root, "/from/env");
  EXPECT_TRUE(from_env[0].explicit_choice);
}

TEST(DataDir, DefaultOrderWhenNeitherFlagNorEnvironmentIsGiven) {
  ScopedEnv env("HERMES_DATA_DIR", std::nullopt);
  const auto c = data_root_candidates("mnist", "");
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0].origin, "--data-dir");
  EXPECT_EQ(c[0].root, "");  // not given: listed so that an error can say so
  EXPECT_EQ(c[1].origin, "$HERMES_DATA_DIR");
  EXPECT_EQ(c[1].root, "");
  EXPECT_EQ(c[2].origin, "<repo>/data");
  EXPECT_EQ(c[2].root, normal(std::string(HERMES_SOURCE_DIR) + "/data"));
  EXPECT_EQ(c[3].origin, "<repo>/../shared/data");
  EXPECT_EQ(c[3].root, normal(std::string(HERMES_SOURCE_DIR) + "/../shared/data"));
  for (const auto& candidate : c) EXPECT_FALSE(candidate.explicit_choice) << candidate.origin;

  const auto f = data_root_candidates("fashion-mnist", "");
  ASSERT_EQ(f.size(), 5u);
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

TEST(DataDir, AFlagWithoutTheDatasetIsAnErrorNotAFallthrough) {
  TempDir flag, env_dir;
  testing::write_idx_dataset(flag.str(), "fashion-mnist", 1, 1, true);  // not mnist
  testing::write_idx_dataset(env_dir.str(), "mnist", 1, 1, true);
  ScopedEnv env("HERMES_DATA_DIR", env_dir.str());
  const std::string msg = input_error([&] { resolve_data_dir("mnist", flag.str()); });
  EXPECT_CONTAINS(msg, "dataset \"mnist\" not found: --data-dir " + flag.str() + ": " +
                           normal(flag / "mnist") + ": no such directory.");
  EXPECT_CONTAINS(msg, "--data-dir is the only place looked at when it is given");
  EXPECT_CONTAINS(msg,
                  "train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte and "
                  "t10k-labels-idx1-ubyte");
  EXPECT_CONTAINS(msg, "leave out --data-dir");
  EXPECT_EQ(msg.find(env_dir.str()), std::string::npos) << msg;  // not tried, not named
  EXPECT_EQ(resolve_data_dir("fashion-mnist", flag.str()), normal(flag / "fashion-mnist"));
}

TEST(DataDir, AFlagMissingAFileNamesTheFile) {
  TempDir flag;
  testing::write_idx_dataset(flag.str(), "mnist", 1, 1, true);
  fs::remove(flag / "mnist/t10k-labels-idx1-ubyte.gz");
  ScopedEnv env("HERMES_DATA_DIR", std::nullopt);
  EXPECT_CONTAINS(input_error([&] { load_dataset("mnist", flag.str()); }),
                  "--data-dir " + flag.str() + ": " + normal(flag / "mnist") +
                      ": missing t10k-labels-idx1-ubyte[.gz].");
}

TEST(DataDir, AFileThatIsADirectoryOrADeviceIsNamedForWhatItIs) {
  // Such files used to be reported as "missing".
  TempDir flag;
  testing::write_idx_dataset(flag.str(), "mnist", 1, 1, true);
  fs::remove(flag / "mnist/t10k-labels-idx1-ubyte.gz");
  fs::create_directory(flag / "mnist/t10k-labels-idx1-ubyte");
  fs::remove(flag / "mnist/t10k-images-idx3-ubyte.gz");
  fs::create_symlink("/dev/zero", flag / "mnist/t10k-images-idx3-ubyte.gz");
  ScopedEnv env("HERMES_DATA_DIR", std::nullopt);
  const std::string msg = input_error([&] { load_dataset("mnist", flag.str()); });
  EXPECT_CONTAINS(msg, normal(flag / "mnist") +
                           ": t10k-images-idx3-ubyte.gz is a character device (a symbolic link "
                           "to /dev/zero), not a regular file, t10k-labels-idx1-ubyte is a "
                           "directory, not a regular file.");
}

TEST(DataDir, ARelativeFlagIsNamedAsGivenAndShownAbsolute) {
  const std::string rel = "no-data-" + std::to_string(::getpid());
  EXPECT_CONTAINS(
      input_error([&] { resolve_data_dir("cifar10", rel); }),
      "--data-dir " + rel + ": " + normal(fs::absolute(rel) / "cifar-10") + ": no such directory.");
}

TEST(DataDir, AnEnvironmentDirectoryWithoutTheDatasetIsAnError) {
  TempDir env_dir;
  testing::write_idx_dataset(env_dir.str(), "mnist", 1, 1, false);
  fs::remove(env_dir / "mnist/train-images-idx3-ubyte");
  ScopedEnv env("HERMES_DATA_DIR", env_dir.str());
  const std::string msg = input_error([&] { resolve_data_dir("mnist", ""); });
  EXPECT_CONTAINS(msg, "$HERMES_DATA_DIR=" + env_dir.str() + ": " + normal(env_dir / "mnist") +
                           ": missing train-images-idx3-ubyte[.gz].");
  EXPECT_CONTAINS(msg, "unset HERMES_DATA_DIR to use the default places");
  EXPECT_EQ(msg.find("<repo>/data:"), std::string::npos) << msg;  // defaults not tried
}

TEST(DataDir, AnExplicitCandidateStopsTheSearch) {
  TempDir partial, complete;
  testing::write_idx_dataset(partial.str(), "mnist", 1, 1, true);
  fs::remove(partial / "mnist/t10k-images-idx3-ubyte.gz");
  testing::write_idx_dataset(complete.str(), "mnist", 1, 1, true);
  EXPECT_CONTAINS(input_error([&] {
                    resolve_data_dir_among(
                        "mnist", {{"--data-dir", partial.str(), true}, {"b", complete.str()}});
                  }),
                  "missing t10k-images-idx3-ubyte[.gz]");
  // The same places as defaults: the partial one is skipped.
  EXPECT_EQ(resolve_data_dir_among("mnist", {{"a", partial.str()}, {"b", complete.str()}}),
            normal(complete / "mnist"));
}

TEST(DataDir, LocateListsTheFilesItFound) {
  TempDir root;
  testing::write_idx_dataset(root.str(), "mnist", 1, 1, true);
  testing::write_file(root / "mnist/train-labels-idx1-ubyte", {0});  // raw wins over .gz
  const DataLocation loc = locate_dataset("mnist", root.str() + "/./");
  EXPECT_EQ(loc.dataset, "mnist");
  EXPECT_EQ(loc.dir, normal(root / "mnist"));
  EXPECT_EQ(loc.origin, "--data-dir");
  EXPECT_EQ(loc.train_files, (std::vector<std::string>{root / "mnist/train-images-idx3-ubyte.gz",
                                                       root / "mnist/train-labels-idx1-ubyte"}));
  EXPECT_EQ(loc.test_files, (std::vector<std::string>{root / "mnist/t10k-images-idx3-ubyte.gz",
                                                      root / "mnist/t10k-labels-idx1-ubyte.gz"}));
  EXPECT_EQ(location_text(loc), "mnist from " + normal(root / "mnist") + " (--data-dir)");
}

TEST(DataDir, FilesDirectlyInTheRootDoNotCount) {
  TempDir root;
  testing::write_idx_dataset(root.str(), ".", 1, 1, true);  // loose IDX files in the root
  EXPECT_CONTAINS(
      input_error([&] { resolve_data_dir("mnist", root.str()); }),
      "--data-dir " + root.str() + ": " + normal(root / "mnist") + ": no such directory.");
  EXPECT_CONTAINS(input_error([&] {
                    resolve_data_dir_among("mnist", {{"a", root.str()}});
                  }),
                  "a: " + normal(root / "mnist") + " (no such directory)");
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
  // Only the defaults are tried here; if none holds "mnist", the message must name all four.
  ScopedEnv env("HERMES_DATA_DIR", std::nullopt);
  try {
    const std::string found = resolve_data_dir("mnist", "");
    // Found in a repo fallback: it must be one of them.
    const auto c = data_root_candidates("mnist", "");
    EXPECT_TRUE(found == normal(c[2].root + "/mnist") || found == normal(c[3].root + "/mnist"))
        << found;
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_CONTAINS(msg, "--data-dir: (not set)");
    EXPECT_CONTAINS(msg, "$HERMES_DATA_DIR: (not set)");
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
