#include "sim/sweep/manifest.h"

#include <set>

#include "base/string_join.h"

namespace hermes::sweep {

namespace {

constexpr int kFormat = 1;
constexpr std::size_t kMaxListed = 5;

std::string join_texts(const Json& values) {
  std::vector<std::string> texts;
  if (values.is_array()) {
    for (const auto& v : values) texts.push_back(value_text(v));
  }
  return join_strings(texts, ",");
}

std::string key_list(const Json& grid) {
  std::vector<std::string> keys;
  if (grid.is_object()) {
    for (const auto& [key, values] : grid.items()) keys.push_back(key);
  }
  return keys.empty() ? std::string("(none)") : join_strings(keys, ", ");
}

void grid_differences(const Json& old_grid, const Json& new_grid, std::vector<std::string>& out) {
  if (key_list(old_grid) != key_list(new_grid)) {
    out.push_back("grid keys: " + key_list(old_grid) + " (recorded) vs " + key_list(new_grid) +
                  " (now)");
    return;
  }
  for (const auto& [key, values] : old_grid.items()) {
    const Json& now = new_grid.at(key);
    if (values != now) {
      out.push_back("grid values of " + key + ": " + join_texts(values) + " (recorded) vs " +
                    join_texts(now) + " (now)");
    }
  }
}

void scenario_differences(const Json& old_doc, const Json& new_doc, std::vector<std::string>& out) {
  if (old_doc == new_doc) return;
  std::set<std::string> paths;
  for (const auto& op : Json::diff(old_doc, new_doc))
    paths.insert(op.at("path").get<std::string>());
  std::vector<std::string> listed(paths.begin(), paths.end());
  if (listed.size() > kMaxListed) {
    listed.resize(kMaxListed);
    listed.push_back("...");
  }
  out.push_back("scenario document differs at " + join_strings(listed, ", "));
}

// The runs a manifest's points execute: its "runs", or, in a manifest written before --runs
// existed, every run of its scenario.
Json runs_of(const Json& manifest) {
  if (manifest.contains("runs")) return manifest.at("runs");
  Json names = Json::array();
  const Json* runs = nullptr;
  if (manifest.contains("scenario") && manifest.at("scenario").is_object() &&
      manifest.at("scenario").contains("runs")) {
    runs = &manifest.at("scenario").at("runs");
  }
  if (runs != nullptr && runs->is_array()) {
    for (const auto& r : *runs) {
      if (r.is_object() && r.contains("name")) names.push_back(r.at("name"));
    }
  }
  return names;
}

}  // namespace

Json make_manifest(const SweepDefinition& sweep, const BuildInfo& build) {
  Json m = Json::object();
  m["format"] = kFormat;
  m["scenario_path"] = sweep.scenario_path;
  m["scenario"] = sweep.scenario;
  Json grid = Json::object();
  for (const auto& axis : sweep.grid) {
    Json texts = Json::array();
    for (const auto& v : axis.values) texts.push_back(value_text(v));
    grid[axis.key] = texts;
  }
  m["grid"] = grid;
  m["seeds"] = sweep.seeds;
  m["runs"] = sweep.runs;
  m["code_version"] = build.code_version();
  Json fields = Json::object();
  for (const auto& [key, value] : build.fields()) fields[key] = value;
  m["build"] = fields;
  Json points = Json::array();
  for (const auto& p : sweep.points) {
    const std::string name = point_name(p.index, sweep.points.size());
    Json params = Json::object();
    for (std::size_t a = 0; a < sweep.grid.size(); ++a) {
      params[sweep.grid[a].key] = value_text(p.values[a]);
    }
    points.push_back(
        {{"point", name}, {"dir", "points/" + name}, {"seed", p.seed}, {"params", params}});
  }
  m["points"] = points;
  return m;
}

Json without_build(const Json& manifest) {
  Json out = manifest;
  for (const char* key : {"code_version", "build", "mixed_math"}) out.erase(key);
  return out;
}

std::vector<std::string> manifest_differences(const Json& recorded, const Json& current) {
  std::vector<std::string> out;
  const auto field = [](const Json& m, const char* key) {
    return m.is_object() && m.contains(key) ? m.at(key) : Json();
  };
  if (field(recorded, "format") != field(current, "format")) {
    out.push_back("manifest format " + field(recorded, "format").dump() + " (recorded) vs " +
                  field(current, "format").dump() + " (now)");
    return out;
  }
  scenario_differences(field(recorded, "scenario"), field(current, "scenario"), out);
  grid_differences(field(recorded, "grid"), field(current, "grid"), out);
  const Json old_seeds = field(recorded, "seeds"), new_seeds = field(current, "seeds");
  if (old_seeds != new_seeds) {
    out.push_back("seeds: " + join_texts(old_seeds) + " (recorded) vs " + join_texts(new_seeds) +
                  " (now)");
  }
  const Json old_runs = runs_of(recorded), new_runs = runs_of(current);
  if (old_runs != new_runs) {
    out.push_back("runs (--runs): " + join_texts(old_runs) + " (recorded) vs " +
                  join_texts(new_runs) + " (now)");
  }
  return out;
}

}  // namespace hermes::sweep
