#include "sim/cli/run_selection.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "base/diagnostics.h"

namespace hermes::cli {

void select_runs(scenario::Scenario& sc, const std::string& names, const std::string& file) {
  std::vector<std::string> wanted;
  std::stringstream ss(names);
  for (std::string name; std::getline(ss, name, ',');) {
    if (!name.empty()) wanted.push_back(name);
  }
  std::string all;
  for (const auto& r : sc.runs) all += (all.empty() ? "" : ", ") + r.name;
  for (const auto& name : wanted) {
    const bool known =
        std::any_of(sc.runs.begin(), sc.runs.end(), [&](const auto& r) { return r.name == name; });
    if (!known) {
      throw InputError("--runs: " + file + " has no run named '" + name + "' (its runs: " + all +
                       ")");
    }
  }
  auto unwanted = [&](const std::string& name) {
    return std::find(wanted.begin(), wanted.end(), name) == wanted.end();
  };
  std::erase_if(sc.runs, [&](const scenario::RunSpec& r) { return unwanted(r.name); });
  // The recorded scenario.json holds what was run.
  auto& runs = sc.document["runs"];
  scenario::Json kept = scenario::Json::array();
  for (const auto& r : runs) {
    if (!unwanted(r.at("name").get<std::string>())) kept.push_back(r);
  }
  runs = kept;
}

}  // namespace hermes::cli
