#include <cstdlib>
#include <string>

#include "sim/cli/commands.h"

namespace hermes::cli {

// The source tree holds scenarios/ and results/reference/. HERMES_HOME overrides the compiled-in
// path for an installed or relocated binary.
std::string source_dir() {
  if (const char* home = std::getenv("HERMES_HOME"); home != nullptr && *home != '\0') return home;
  return HERMES_SOURCE_DIR;
}

}  // namespace hermes::cli
