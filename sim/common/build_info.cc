// The build facts: compiled-in macros (CMakeLists.txt), Eigen's version macros, the compiler's,
// and the commit from the source file CMake regenerates at every build (cmake/build_commit.cmake).
#include "sim/common/build_info.h"

#include <unistd.h>

#include <Eigen/Core>
#include <fstream>

namespace hermes {

// Defined in <build>/generated/build_commit.cc.
const char* build_commit();

namespace {

std::string compiler_text() {
#if defined(__clang__)
  return "Clang " + std::to_string(__clang_major__) + "." + std::to_string(__clang_minor__) + "." +
         std::to_string(__clang_patchlevel__);
#elif defined(__GNUC__)
  return "GCC " + std::to_string(__GNUC__) + "." + std::to_string(__GNUC_MINOR__) + "." +
         std::to_string(__GNUC_PATCHLEVEL__);
#else
  return __VERSION__;
#endif
}

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

}  // namespace

std::vector<std::pair<std::string, std::string>> BuildInfo::fields() const {
  return {{"version", version},     {"commit", commit}, {"math_profile", math_profile},
          {"math_arch", math_arch}, {"eigen", eigen},   {"compiler", compiler}};
}

const BuildInfo& build_info() {
  static const BuildInfo info{
      HERMES_VERSION,
      build_commit(),
      HERMES_MATH_PROFILE,
      HERMES_MATH_ARCH,
      std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) + "." +
          std::to_string(EIGEN_MINOR_VERSION),
      compiler_text(),
  };
  return info;
}

std::string version_text(const BuildInfo& build) {
  return "hermes-sim " + build.version + "\ncommit: " + build.commit + "\nmath: " + build.math() +
         "\neigen: " + build.eigen + "\ncompiler: " + build.compiler + "\n";
}

std::string build_line(const BuildInfo& build) {
  return "hermes-sim " + build.version + " (" + build.commit + "), math " + build.math() +
         ", Eigen " + build.eigen + ", " + build.compiler;
}

std::string host_cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos || trim(line.substr(0, colon)) != "model name") continue;
    const std::string model = trim(line.substr(colon + 1));
    return model.empty() ? "unknown" : model;
  }
  return "unknown";
}

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "unknown";
  return name;
}

}  // namespace hermes
