#include <cstdlib>
#include <string>

#include "base/build_tree.h"
#include "sim/cli/commands.h"

namespace hermes::cli {

// HERMES_SHARE_FROM_BIN (CMakeLists.txt) is the install's bin -> share/hermes-sim path, so a
// binary under any prefix (and a .deb's /usr/bin) finds its data without HERMES_HOME. No source
// path is compiled in: a build-tree binary finds its source tree at run time.
HomeDir home_dir() {
  return resolve_home_dir(std::getenv("HERMES_HOME"), executable_dir(), HERMES_SHARE_FROM_BIN,
                          build_source_tree());
}

std::string source_dir() { return home_dir().path; }

}  // namespace hermes::cli
