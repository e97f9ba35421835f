// --quiet and --progress text|json|none, the options `hermes-sim run` and `hermes-sim sweep` share
// for what they print on stderr (docs/progress.md). Stdout (result lines, tables) is the same
// whatever they say: a script that runs the tool wants the results.
#pragma once

#include <string>

#include "sim/cli/options.h"
#include "sim/common/progress_log.h"

namespace hermes::cli {

struct ProgressOptions {
  ProgressFormat format = ProgressFormat::kText;
  bool notes = true;  // informational notes; --quiet turns them off with the text progress
};

// Adds --quiet (-q) and --progress to `desc`; `format` receives --progress's value.
void add_progress_options(po::options_description& desc, std::string& format);

// The options parsed into `vm`, `format` being --progress's value. Throws InputError naming
// --progress and its accepted values for another value, and for --quiet with --progress text.
ProgressOptions progress_options_from(const po::variables_map& vm, const std::string& format);

// The progress log on stderr, with the terminal's width when stderr is a terminal.
ProgressLog make_progress_log(const ProgressOptions& options);

}  // namespace hermes::cli
