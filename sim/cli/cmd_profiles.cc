// hermes-sim profiles: the node profile catalog as a table.
#include <boost/program_options.hpp>

#include <iostream>

#include "sim/cli/commands.h"
#include "sim/cluster/profile.h"

namespace po = boost::program_options;

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
  po::store(po::command_line_parser(args).options(desc).run(), vm);
  if (vm.count("help")) {
    std::cout << desc << '\n';
    return 0;
  }
  po::notify(vm);
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
