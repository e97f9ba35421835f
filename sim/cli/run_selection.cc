#include "sim/cli/run_selection.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "base/diagnostics.h"
#include "base/suggest.h"

namespace hermes::cli {

std::vector<std::size_t> find_runs(const scenario::Scenario& sc, const std::string& names,
                                   const std::string& file) {
  std::vector<std::string> wanted;
  std::stringstream ss(names);
  for (std::string name; std::getline(ss, name, ',');) {
    if (!name.empty()) wanted.push_back(name);
  }
  std::string all;
  std::vector<std::string> run_names;
  for (const auto& r : sc.runs) {
    all += (all.empty() ? "" : ", ") + r.name;
    run_names.push_back(r.name);
  }
  if (wanted.empty()) {
    throw InputError("--runs '" + names + "': names no run (accepted: run names of " + file +
                     ", comma-separated: " + all + ")");
  }
  for (const auto& name : wanted) {
    const bool known =
        std::any_of(sc.runs.begin(), sc.runs.end(), [&](const auto& r) { return r.name == name; });
    if (!known) {
      throw InputError("--runs: " + file + " has no run named '" + name + "' (its runs: " + all +
                       ")" + did_you_mean(name, run_names));
    }
  }
  std::vector<std::size_t> positions;
  for (std::size_t i = 0; i < sc.runs.size(); ++i) {
    if (std::find(wanted.begin(), wanted.end(), sc.runs[i].name) != wanted.end()) {
      positions.push_back(i);
    }
  }
  return positions;
}

void keep_runs(scenario::Scenario& sc, const std::vector<std::size_t>& positions) {
  auto& runs = sc.document["runs"];
  if (runs.size() != sc.runs.size()) {
    throw std::logic_error("keep_runs: the document's runs do not match the scenario's");
  }
  std::vector<scenario::RunSpec> specs;
  scenario::Json kept = scenario::Json::array();
  for (const std::size_t i : positions) {
    specs.push_back(sc.runs.at(i));
    kept.push_back(runs.at(i));
  }
  sc.runs = std::move(specs);
  // The recorded scenario.json holds what was run.
  runs = std::move(kept);
}

void select_runs(scenario::Scenario& sc, const std::string& names, const std::string& file) {
  keep_runs(sc, find_runs(sc, names, file));
}

}  // namespace hermes::cli
