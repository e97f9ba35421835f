#include "sim/scenario/scenario_keys.h"

#include <map>
#include <string>

#include "sim/scenario/sections.h"

namespace hermes::scenario {

std::vector<const config::ObjectDecl*> scenario_objects() {
  return {&top_level_decl(),
          &cluster_decl(),
          &node_group_decl(true),
          &node_group_decl(false),
          &prices_decl(),
          &network_decl(),
          &link_decl(),
          &dataset_decl(),
          &model_decl(),
          &layer_decl(),
          &training_decl(),
          &stop_decl(),
          &run_base_decl(),
          &transfers_decl(),
          &api_decl(),
          &outputs_decl(),
          &sweep_decl(),
          &sweep_range_decl(),
          &trace_decl()};
}

std::vector<config::KeyHelp> scenario_keys() {
  // The sections' keys follow their top-level key: "training", "training.learning_rate", ...,
  // "training.stop", "training.stop.patience", ...
  std::map<std::string, std::vector<const config::ObjectDecl*>> by_section;
  const auto objects = scenario_objects();
  for (std::size_t i = 1; i < objects.size(); ++i) {
    const std::string& path = objects[i]->path;
    by_section[path.substr(0, path.find_first_of(".["))].push_back(objects[i]);
  }
  std::vector<config::KeyHelp> out;
  const config::ObjectDecl& top = *objects.front();
  for (const auto& key : top.keys) {
    out.push_back(config::key_help(top, key));
    const auto it = by_section.find(std::string(key.key));
    if (it == by_section.end()) continue;
    // A nested object's keys after the key that holds it.
    std::vector<config::KeyHelp> section;
    for (const config::ObjectDecl* object : it->second) {
      for (const auto& k : object->keys) section.push_back(config::key_help(*object, k));
    }
    for (std::size_t i = 0; i < section.size(); ++i) {
      out.push_back(section[i]);
      for (std::size_t j = i + 1; j < section.size(); ++j) {
        const std::string& name = section[j].name;
        const std::string& holder = section[i].name;
        // cluster.ps's keys right after cluster.ps, then cluster.workers and its keys.
        if (name.rfind(holder + ".", 0) == 0 || name.rfind(holder + "[].", 0) == 0) {
          out.push_back(section[j]);
          section.erase(section.begin() + static_cast<std::ptrdiff_t>(j));
          --j;
        }
      }
    }
  }
  return out;
}

}  // namespace hermes::scenario
