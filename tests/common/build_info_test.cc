// The build facts: every field is filled in, the math fields are the compiled-in profile, and the
// texts `--version` and the logs print are built from them.
#include "sim/common/build_info.h"

#include <gtest/gtest.h>

#include <cctype>
#include <string>

namespace hermes {
namespace {

// "3.4.0": three dot-separated numbers. (No <regex>: GCC 12 warns inside it under ASan.)
bool is_version(const std::string& text) {
  int numbers = 0;
  std::size_t digits = 0;
  for (const char c : text + ".") {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      ++digits;
    } else if (c == '.' && digits > 0) {
      ++numbers;
      digits = 0;
    } else {
      return false;
    }
  }
  return numbers == 3;
}

TEST(BuildInfo, EveryFieldIsKnown) {
  const BuildInfo& b = build_info();
  EXPECT_FALSE(b.version.empty());
  EXPECT_FALSE(b.commit.empty());  // "unknown" outside a git checkout
  EXPECT_EQ(b.math_profile, HERMES_MATH_PROFILE);
  EXPECT_EQ(b.math_arch, HERMES_MATH_ARCH);
  EXPECT_TRUE(b.math_profile == "reproducible" || b.math_profile == "native") << b.math_profile;
  EXPECT_TRUE(is_version(b.eigen)) << b.eigen;
  const auto space = b.compiler.find(' ');
  ASSERT_NE(space, std::string::npos) << b.compiler;
  EXPECT_TRUE(b.compiler.substr(0, space) == "GCC" || b.compiler.substr(0, space) == "Clang")
      << b.compiler;
  EXPECT_TRUE(is_version(b.compiler.substr(space + 1))) << b.compiler;
  ASSERT_EQ(b.fields().size(), 6u);
  EXPECT_EQ(b.fields()[2], std::make_pair(std::string("math_profile"), b.math_profile));
}

TEST(BuildInfo, VersionTextsAreThreeNumbers) {
  EXPECT_TRUE(is_version("3.4.0"));
  EXPECT_TRUE(is_version("12.2.10"));
  EXPECT_FALSE(is_version("3.4"));
  EXPECT_FALSE(is_version("3..4"));
  EXPECT_FALSE(is_version("3.4.0-rc1"));
}

TEST(BuildInfo, TextsNameEveryField) {
  const BuildInfo b{"0.1.0", "7a3769d-dirty", "reproducible", "x86-64-v3", "3.4.0", "GCC 12.2.0"};
  EXPECT_EQ(version_text(b),
            "hermes-sim 0.1.0\ncommit: 7a3769d-dirty\nmath: reproducible (x86-64-v3)\n"
            "eigen: 3.4.0\ncompiler: GCC 12.2.0\n");
  EXPECT_EQ(build_line(b),
            "hermes-sim 0.1.0 (7a3769d-dirty), math reproducible (x86-64-v3), Eigen 3.4.0, "
            "GCC 12.2.0");
  EXPECT_EQ(b.code_version(), "0.1.0 (7a3769d-dirty)");
}

TEST(BuildInfo, HostFactsAreNeverEmpty) {
  EXPECT_FALSE(host_cpu_model().empty());
  EXPECT_FALSE(host_name().empty());
}

}  // namespace
}  // namespace hermes
