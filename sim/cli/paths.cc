#include <cstdlib>
#include <string>

#include "sim/cli/commands.h"

namespace hermes::cli {

// HERMES_SHARE_FROM_BIN (CMakeLists.txt) is the install's bin -> share/hermes-sim path, so a
// binary under any prefix (and a .deb's /usr/bin) finds its data without HERMES_HOME.
HomeDir home_dir() {
  return resolve_home_dir(std::getenv("HERMES_HOME"), executable_dir(), HERMES_SHARE_FROM_BIN,
                          HERMES_SOURCE_DIR);
}

std::string source_dir() { return home_dir().path; }

}  // namespace hermes::cli
