// hermes-sim's home (sim/common/home_dir.h): $HERMES_HOME, else the installed share directory
// beside the executable, else a build-tree binary's source tree; a wrong HERMES_HOME, or none of
// the three, is an error.
#include "sim/common/home_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "base/diagnostics.h"
#include "tests/support/scratch_dir.h"

namespace hermes {
namespace {

namespace fs = std::filesystem;

constexpr const char* kShareFromBin = "../share/hermes-sim";

using HomeDirTest = testing::ScratchDirTest;

TEST_F(HomeDirTest, AnInstalledBinaryFindsTheShareDirectoryBesideItsBin) {
  put("prefix/share/hermes-sim/scenarios/profiles/azure.json", "{}");
  fs::create_directories(path("prefix/bin"));
  const HomeDir home = resolve_home_dir(nullptr, path("prefix/bin"), kShareFromBin, path("src"));
  EXPECT_EQ(home.path, path("prefix/share/hermes-sim"));
  EXPECT_EQ(home.origin, HomeOrigin::kInstalled);
  EXPECT_EQ(home.why, "installed: ../share/hermes-sim beside " + path("prefix/bin"));
}

TEST_F(HomeDirTest, ABuildTreeBinaryUsesItsSourceTree) {
  // No share/hermes-sim beside build/, or one without scenarios/: not an install.
  fs::create_directories(path("src/build"));
  HomeDir home = resolve_home_dir(nullptr, path("src/build"), kShareFromBin, path("src"));
  EXPECT_EQ(home.path, path("src"));
  EXPECT_EQ(home.origin, HomeOrigin::kSourceTree);
  fs::create_directories(path("src/share/hermes-sim"));
  home = resolve_home_dir(nullptr, path("src/build"), kShareFromBin, path("src"));
  EXPECT_EQ(home.origin, HomeOrigin::kSourceTree);
  // Nor when the executable's directory is unknown.
  put("prefix/share/hermes-sim/scenarios/x.json");
  EXPECT_EQ(resolve_home_dir("", "", kShareFromBin, path("src/")).path, path("src"));
}

TEST_F(HomeDirTest, HermesHomeWinsOverTheInstallAndIsMadeAbsolute) {
  put("prefix/share/hermes-sim/scenarios/x.json");
  fs::create_directories(path("mine"));
  const std::string env = path("mine") + "/";
  HomeDir home = resolve_home_dir(env.c_str(), path("prefix/bin"), kShareFromBin, path("src"));
  EXPECT_EQ(home.path, path("mine"));
  EXPECT_EQ(home.origin, HomeOrigin::kEnvironment);
  EXPECT_EQ(home.why, "$HERMES_HOME");
  const fs::path before = fs::current_path();
  fs::current_path(dir_);
  home = resolve_home_dir("mine", "", kShareFromBin, path("src"));
  fs::current_path(before);
  EXPECT_EQ(home.path, path("mine"));
}

TEST_F(HomeDirTest, AWrongHermesHomeIsAnErrorNotAFallback) {
  put("prefix/share/hermes-sim/scenarios/x.json");
  put("file");
  const std::string missing = path("missing");
  try {
    resolve_home_dir(missing.c_str(), path("prefix/bin"), kShareFromBin, path("src"));
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(
        std::string(e.what()).rfind("HERMES_HOME '" + missing +
                                        "' does not exist: it must "
                                        "name hermes-sim's home, a directory holding scenarios/",
                                    0),
        0u)
        << e.what();
  }
  const std::string file = path("file");
  EXPECT_THROW(resolve_home_dir(file.c_str(), "", kShareFromBin, path("src")), InputError);
}

TEST_F(HomeDirTest, NoHomeAnywhereIsAnErrorNotACompiledInPath) {
  // A binary copied out of its build directory: no HERMES_HOME, no install, no source tree.
  fs::create_directories(path("copied"));
  try {
    resolve_home_dir(nullptr, path("copied"), kShareFromBin, "");
    FAIL() << "no error";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("hermes-sim found no home"), std::string::npos) << msg;
    EXPECT_NE(msg.find("../share/hermes-sim beside " + path("copied")), std::string::npos) << msg;
    EXPECT_NE(msg.find("hermes-source-tree.txt"), std::string::npos) << msg;
    EXPECT_NE(msg.find("set HERMES_HOME"), std::string::npos) << msg;
  }
  EXPECT_THROW(resolve_home_dir("", "", kShareFromBin, ""), InputError);
}

}  // namespace
}  // namespace hermes
