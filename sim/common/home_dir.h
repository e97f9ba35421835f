// hermes-sim's home: the directory holding the data it reads (scenarios/ with the profile
// catalog scenarios/profiles/azure.json, results/reference/ with the paper's table, tools/ with the
// plot tool). A build-tree binary finds them in the source tree it was built from (named by the
// build directory's hermes-source-tree.txt, base/build_tree.h: no path is compiled in); an
// installed one in its share directory (`cmake --install`: <prefix>/share/hermes-sim, the same
// layout); a relocated binary through $HERMES_HOME. One resolution, so that every command,
// `--version` and the protection of the home against being written over agree on which directory it
// is.
#pragma once

#include <string>

namespace hermes {

enum class HomeOrigin {
  kEnvironment,  // $HERMES_HOME
  kInstalled,    // the share directory beside the executable (<exe dir>/../share/hermes-sim)
  kSourceTree,   // the source tree of a build-tree binary (hermes-source-tree.txt)
};

struct HomeDir {
  std::string path;  // absolute, lexically normal
  HomeOrigin origin = HomeOrigin::kSourceTree;
  std::string why;  // for `--version`: "$HERMES_HOME", "installed: ... beside ...", ...
};

// The home, first match wins:
//  1. `env_home` ($HERMES_HOME) if not null and not empty: an explicit choice, so it must be a
//     directory (InputError naming HERMES_HOME and what it must hold otherwise; no fallback);
//  2. `exe_dir`/`share_from_bin` (the binary's directory and the relative path from the install's
//     bin directory to its share directory, "../share/hermes-sim") if that directory holds
//     scenarios/: an installed binary;
//  3. `source_dir`, the source tree of a build-tree binary (build_source_tree(): the build
//     directory's hermes-source-tree.txt), if not empty.
// `exe_dir` may be empty (the executable's path is unknown): step 2 is skipped. If no step
// matches (a binary copied out of its build directory), InputError saying where it looked and
// that HERMES_HOME names the home.
HomeDir resolve_home_dir(const char* env_home, const std::string& exe_dir,
                         const std::string& share_from_bin, const std::string& source_dir);

}  // namespace hermes
