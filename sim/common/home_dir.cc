#include "sim/common/home_dir.h"

#include <filesystem>
#include <system_error>

#include "base/build_tree.h"
#include "base/diagnostics.h"

namespace hermes {

namespace fs = std::filesystem;

namespace {

std::string absolute_normal(const fs::path& p) {
  std::error_code ec;
  const fs::path abs = fs::absolute(p, ec);
  fs::path normal = (ec ? p : abs).lexically_normal();
  // "/opt/home/" names the same directory as "/opt/home", which messages and comparisons show.
  if (normal.filename().empty() && normal != normal.root_path()) normal = normal.parent_path();
  return normal.string();
}

}  // namespace

HomeDir resolve_home_dir(const char* env_home, const std::string& exe_dir,
                         const std::string& share_from_bin, const std::string& source_dir) {
  std::error_code ec;
  if (env_home != nullptr && *env_home != '\0') {
    // An explicit choice that is wrong is an error, never a silent fall-back to another copy.
    if (!fs::is_directory(env_home, ec)) {
      throw InputError(std::string("HERMES_HOME '") + env_home + "' " +
                       (fs::exists(env_home, ec) ? "is not a directory" : "does not exist") +
                       ": it must name hermes-sim's home, a directory holding scenarios/ and "
                       "results/reference/ (an install's share/hermes-sim, or the source tree); "
                       "unset it to use the installed or compiled-in one");
    }
    return {absolute_normal(env_home), HomeOrigin::kEnvironment, "$HERMES_HOME"};
  }
  if (!exe_dir.empty()) {
    const fs::path share = fs::path(exe_dir) / share_from_bin;
    if (fs::is_directory(share / "scenarios", ec)) {
      return {absolute_normal(share), HomeOrigin::kInstalled,
              "installed: " + share_from_bin + " beside " + exe_dir};
    }
  }
  if (!source_dir.empty()) {
    return {absolute_normal(source_dir), HomeOrigin::kSourceTree,
            "the source tree this binary was built from"};
  }
  const std::string where = exe_dir.empty() ? "the executable's directory (unknown)" : exe_dir;
  throw InputError(
      "hermes-sim found no home (the directory holding scenarios/ and "
      "results/reference/): HERMES_HOME is not set, " +
      share_from_bin + " beside " + where + " holds no scenarios/ (not an install), and no " +
      kSourceTreeMarker +
      " beside it names a source tree (not a build directory); "
      "set HERMES_HOME to an install's share/hermes-sim or to a source tree");
}

}  // namespace hermes
