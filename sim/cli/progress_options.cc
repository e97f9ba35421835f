#include "sim/cli/progress_options.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <iostream>

#include "base/diagnostics.h"

namespace hermes::cli {

void add_progress_options(po::options_description& desc, std::string& format) {
  desc.add_options()("quiet,q",
                     "no progress and no informational notes on stderr (warnings and errors are "
                     "still printed; stdout is unchanged); with --progress json, the JSON events "
                     "without the notes")(
      "progress", po::value<std::string>(&format)->default_value("text"),
      "progress on stderr: text (a live line on a terminal, else a line every 10 s), json (JSON "
      "Lines for scripts: one event object per line; schema in docs/progress.md) or none");
}

ProgressOptions progress_options_from(const po::variables_map& vm, const std::string& format) {
  ProgressOptions o;
  o.notes = vm.count("quiet") == 0;
  if (format == "text") {
    o.format = ProgressFormat::kText;
  } else if (format == "json") {
    o.format = ProgressFormat::kJson;
  } else if (format == "none") {
    o.format = ProgressFormat::kNone;
  } else {
    throw InputError("--progress " + format +
                     ": unknown progress format (accepted: text, json, "
                     "none)");
  }
  if (!o.notes && o.format == ProgressFormat::kText) {
    // --quiet alone means no progress; asking for text progress with it is a contradiction.
    if (!vm["progress"].defaulted()) {
      throw InputError(
          "--progress text contradicts --quiet (accepted with --quiet: --progress "
          "json or none)");
    }
    o.format = ProgressFormat::kNone;
  }
  return o;
}

ProgressLog make_progress_log(const ProgressOptions& options) {
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  winsize size{};
  const std::size_t width = tty && ::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 ? size.ws_col : 0;
  return ProgressLog(std::cerr, options.format, options.notes, tty, width);
}

}  // namespace hermes::cli
