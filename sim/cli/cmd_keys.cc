// hermes-sim keys [PREFIX]: every scenario key with its type, default, accepted values and help,
// printed from the tables the scenario reader reads with (sim/scenario/scenario_keys.h).
#include <iostream>

#include "base/diagnostics.h"
#include "base/suggest.h"
#include "sim/cli/commands.h"
#include "sim/cli/options.h"
#include "sim/scenario/scenario_keys.h"

namespace hermes::cli {

int cmd_keys(const Args& args) {
  po::options_description desc(
      "hermes-sim keys [PREFIX] [options]\n\nPrints every scenario key (in --set notation: "
      "training.stop.patience; [] an element of a list) with its type, default, accepted values "
      "and what it does, from the very tables the scenario reader reads with. PREFIX keeps the "
      "keys that start with it (keys training.stop). The run parameters (runs[].*) say which "
      "protocols take them; scenarios/README.md has the long form");
  desc.add_options()("help,h", "show this help");
  po::options_description hidden;
  std::string prefix;
  hidden.add_options()("prefix", po::value<std::string>(&prefix));
  po::positional_options_description pos;
  pos.add("prefix", 1);
  po::variables_map vm;
  if (!parse_options("keys", args, desc, vm, &hidden, &pos)) return 0;

  const auto keys = scenario::scenario_keys();
  std::vector<std::string> names;
  std::size_t shown = 0;
  for (const auto& k : keys) {
    names.push_back(k.name);
    if (k.name.rfind(prefix, 0) != 0) continue;
    ++shown;
    std::cout << k.name << "  " << k.type << ", default " << k.fallback;
    if (!k.accepted.empty()) std::cout << ", accepted: " << k.accepted;
    std::cout << "\n    " << k.help << '\n';
  }
  if (shown == 0) {
    throw InputError("no scenario key starts with '" + prefix + "'" + did_you_mean(prefix, names) +
                     " (hermes-sim keys lists them all)");
  }
  return 0;
}

}  // namespace hermes::cli
