// base/build_tree.h: the executable's directory, and the source tree a build directory's
// hermes-source-tree.txt names (found at run time, never compiled into a binary).
#include "base/build_tree.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/support/scratch_dir.h"

namespace hermes {
namespace {

namespace fs = std::filesystem;

using BuildTreeTest = testing::ScratchDirTest;

TEST(BuildTree, ExecutableDirIsThisTestsDirectory) {
  const std::string dir = executable_dir();
  ASSERT_FALSE(dir.empty());
  EXPECT_TRUE(fs::exists(fs::path(dir) / "test_base"));
}

TEST(BuildTree, ThisBuildDirectoryNamesItsSourceTree) {
  // CMake wrote hermes-source-tree.txt beside the test executables; the tests alone have the
  // source tree compiled in, to check it.
  EXPECT_EQ(build_source_tree(), fs::path(HERMES_SOURCE_DIR).lexically_normal().string());
}

TEST_F(BuildTreeTest, TheMarkerNamesAnAbsoluteExistingDirectory) {
  fs::create_directories(path("src/scenarios"));
  put("build/hermes-source-tree.txt", path("src") + "/\n");
  EXPECT_EQ(source_tree_beside(path("build")), path("src"));
  put("build/hermes-source-tree.txt", path("src/scenarios/..") + "\r\nignored\n");
  EXPECT_EQ(source_tree_beside(path("build")), path("src"));
}

TEST_F(BuildTreeTest, NoMarkerOrABadOneNamesNoSourceTree) {
  fs::create_directories(path("bin"));
  EXPECT_EQ(source_tree_beside(path("bin")), "");  // an installed or copied binary
  EXPECT_EQ(source_tree_beside(""), "");           // the executable's directory is unknown
  put("bin/hermes-source-tree.txt", "relative/src\n");
  EXPECT_EQ(source_tree_beside(path("bin")), "");
  put("bin/hermes-source-tree.txt", path("gone") + "\n");
  EXPECT_EQ(source_tree_beside(path("bin")), "");
  put("bin/hermes-source-tree.txt", "");
  EXPECT_EQ(source_tree_beside(path("bin")), "");
}

}  // namespace
}  // namespace hermes
