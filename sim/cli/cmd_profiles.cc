// hermes-sim profiles: the node profile catalog as a table.
#include <boost/program_options.hpp>

#include <iostream>

#include "sim/cli/commands.h"
#include "sim/cli/options.h"
#include "sim/cluster/profile.h"

namespace hermes::cli {

int cmd_profiles(const Args& args) {
  po::options_description desc(
      "hermes-sim profiles [options]\n\nPrints the node profile catalog: published sizes, the "
      "calibrated compute model, burst credits, and the predicted time of the default MLP chunk");
  std::string catalog;
  desc.add_options()("help,h", "show this help")(
      "catalog", po::value<std::string>(&catalog),
      "catalog file (default: scenarios/profiles/azure.json)")("notes",
                                                               "also print the calibration notes");
  po::variables_map vm;
  if (!parse_options("profiles", args, desc, vm)) return 0;
  if (catalog.empty()) catalog = source_dir() + "/scenarios/profiles/azure.json";
  const auto cat = cluster::ProfileCatalog::load(catalog);
  std::cout << "catalog: " << catalog << "\n\n" << cluster::format_catalog_table(cat);
  if (vm.count("notes")) {
    std::cout << "\ncalibration notes:\n";
    for (const auto& n : cat.calibration_notes()) std::cout << "- " << n << '\n';
  }
  return 0;
}

}  // namespace hermes::cli
