// hermes-sim validate FILE...: every problem of every file, without running anything.
#include <boost/program_options.hpp>

#include <iostream>

#include "sim/cli/commands.h"
#include "sim/cli/options.h"
#include "sim/scenario/scenario.h"

namespace hermes::cli {

int cmd_validate(const Args& args) {
  po::options_description desc(
      "hermes-sim validate FILE... [options]\n\nChecks scenario files without running them: "
      "unknown keys, wrong types, out-of-range values, unknown profiles or protocols, dangling "
      "links, unreachable workers. Reports every error with its file and JSON path; exit status "
      "1 if any file has errors");
  std::vector<std::string> sets;
  desc.add_options()("help,h", "show this help")(
      "set", po::value<std::vector<std::string>>(&sets)->composing(),
      "override a scenario value before checking: key.path=value (repeatable)");
  po::options_description hidden;
  std::vector<std::string> files;
  hidden.add_options()("files", po::value<std::vector<std::string>>(&files));
  po::positional_options_description pos;
  pos.add("files", -1);
  po::variables_map vm;
  if (!parse_options("validate", args, desc, vm, &hidden, &pos)) return 0;
  if (files.empty())
    throw InputError("no scenario file given (usage: hermes-sim validate FILE...)");

  std::size_t bad_files = 0;
  for (const auto& f : files) {
    Diagnostics diags(f);
    const auto sc = scenario::check_scenario(f, sets, source_dir(), diags);
    if (diags.ok() && sc) {
      std::cout << f << ": ok (" << sc->worker_count() << " workers, " << sc->runs.size()
                << " runs)\n";
    } else {
      ++bad_files;
      std::cerr << diags.format();
      std::cerr << f << ": " << diags.count() << " error" << (diags.count() == 1 ? "" : "s")
                << '\n';
    }
  }
  return bad_files == 0 ? 0 : 1;
}

}  // namespace hermes::cli
