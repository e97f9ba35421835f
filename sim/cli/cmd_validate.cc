// hermes-sim validate FILE...: every problem of every file, without running anything.
#include <boost/program_options.hpp>

#include <iostream>

#include "base/string_join.h"
#include "models/data/loaders.h"
#include "sim/cli/commands.h"
#include "sim/cli/model_summary.h"
#include "sim/cli/options.h"
#include "sim/cli/run_scenario.h"
#include "sim/protocols/skeleton/resources.h"
#include "sim/scenario/scenario.h"

namespace hermes::cli {

int cmd_validate(const Args& args) {
  po::options_description desc(
      "hermes-sim validate FILE... [options]\n\nChecks scenario files without running them: "
      "unknown keys, wrong types, out-of-range values, unknown profiles or protocols, dangling "
      "links, unreachable workers, a dataset that is not where a run would look for it (looked "
      "for, not loaded). Reports every error with its file and JSON path; exit status 1 if any "
      "file has errors");
  std::vector<std::string> sets;
  std::string data_dir;
  double max_memory_gb = 0, max_hours = 0;
  desc.add_options()("help,h", "show this help");
  add_set_option(desc, sets, " before checking");
  add_data_dir_option(desc, data_dir);
  add_resource_options(desc, max_memory_gb, max_hours);
  po::options_description hidden;
  std::vector<std::string> files;
  hidden.add_options()("files", po::value<std::vector<std::string>>(&files));
  po::positional_options_description pos;
  pos.add("files", -1);
  po::variables_map vm;
  if (!parse_options("validate", args, desc, vm, &hidden, &pos)) return 0;
  if (files.empty())
    throw InputError("no scenario file given (usage: hermes-sim validate FILE...)");
  const protocols::ResourceLimits limits = resource_limits_from(max_memory_gb, max_hours);

  std::size_t bad_files = 0;
  for (const auto& f : files) {
    Diagnostics diags(f);
    auto sc = scenario::check_scenario(f, sets, source_dir(), diags);
    // Where `run` would find the data (demo runs need none), and an own dataset's size.
    if (diags.ok() && sc && needs_data(*sc)) {
      try {
        data::locate_dataset(sc->dataset.files, data_dir);
        count_own_dataset(*sc, data_dir);
      } catch (const InputError& e) {
        diags.error("/dataset/name", e.what());
      }
    }
    // What the run would cost: durations that overflow the clock, memory and time (resources.h).
    if (diags.ok() && sc) protocols::check_resources(*sc, limits, false, diags);
    if (diags.ok() && sc) {
      std::cout << f << ": ok (" << counted(sc->worker_count(), "worker") << ", "
                << (sc->ps.shards > 1
                        ? counted(static_cast<std::size_t>(sc->ps.shards), "PS shard") + " by " +
                              std::string(protocols::sharding_text(sc->ps.sharding)) + ", "
                        : std::string())
                << counted(sc->runs.size(), "run") << ")\n";
      print_model_summary(std::cout, *sc, f + ": ");
      const auto estimate = protocols::estimate_resources(*sc);
      if (protocols::is_large(estimate)) {
        std::cout << f << ": estimate: " << protocols::estimate_text(estimate) << '\n';
      }
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
