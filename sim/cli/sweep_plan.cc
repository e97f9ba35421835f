#include "sim/cli/sweep_plan.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>
#include <utility>

#include "base/file_read.h"
#include "base/number_text.h"
#include "base/string_join.h"
#include "models/data/data_dir.h"
#include "sim/cli/commands.h"
#include "sim/cli/run_scenario.h"
#include "sim/cli/run_selection.h"
#include "sim/common/build_info.h"
#include "sim/config/json_read.h"
#include "sim/scenario/protocol_descriptor.h"
#include "sim/sweep/grid.h"
#include "sim/sweep/run_variation.h"

namespace hermes::cli {

SweepPlan plan_sweep(const SweepRequest& request) {
  // sweep.json records the path as JSON text, which must be UTF-8: refuse before any work.
  if (!is_valid_utf8(request.file)) {
    throw InputError("scenario path '" + escape_invalid_utf8(request.file) +
                     "' is not valid UTF-8: sweep.json could not record it; rename the file");
  }
  const scenario::Scenario base = scenario::load_scenario(request.file, request.sets, source_dir());
  std::vector<sweep::GridAxis> cli_grid;
  for (const auto& g : request.grid) cli_grid.push_back(sweep::parse_grid_option(g));

  // --runs names the runs of the base scenario; each point keeps the runs at the same positions.
  std::vector<std::size_t> selected;
  if (request.runs) {
    selected = find_runs(base, *request.runs, request.file);
  } else {
    for (std::size_t i = 0; i < base.runs.size(); ++i) selected.push_back(i);
  }

  SweepPlan plan;
  sweep::SweepDefinition& def = plan.definition;
  def.scenario_path = request.file;
  def.scenario = base.document;
  for (const std::size_t i : selected) def.runs.push_back(base.runs[i].name);
  def.grid = sweep::merge_grids(
      base.sweep ? sweep::grid_from_spec(*base.sweep) : std::vector<sweep::GridAxis>{}, cli_grid);
  def.seeds = sweep::resolve_seeds(base.seed, request.seeds, base.sweep);
  def.points = sweep::expand_points(def.grid, def.seeds);
  const std::size_t seeds = def.seeds.size();
  const std::size_t combos = def.points.size() / seeds;
  // The plan holds each grid combination's scenario (its nodes included) and each point's grid
  // values while the sweep runs.
  const double plan_bytes =
      static_cast<double>(combos) * (static_cast<double>(base.nodes.size()) * 400.0 + 64e3) +
      static_cast<double>(def.points.size()) * (static_cast<double>(def.grid.size()) * 16.0 + 64.0);
  if (plan_bytes > request.limits.max_memory_bytes) {
    throw InputError(request.file + ": the sweep's " + std::to_string(def.points.size()) +
                     " points of " + std::to_string(base.worker_count()) +
                     " workers would take an estimated " + byte_text(plan_bytes) +
                     " of memory to plan, above the limit of " +
                     byte_text(request.limits.max_memory_bytes) +
                     " (accepted: fewer points or workers, or raise the limit with --max-memory)");
  }

  // An own dataset's sample counts by description, counted once (count_own_dataset).
  std::map<std::string, std::pair<std::int64_t, std::int64_t>> counted;
  // Loads point i as `hermes-sim run` would, its --runs applied, and checks it; errors name it.
  const auto load_point = [&](std::size_t i) {
    const sweep::SweepPoint& point = def.points[i];
    std::vector<std::string> sets = request.sets;
    for (auto& set : sweep::point_overrides(def.grid, point)) sets.push_back(std::move(set));
    try {
      scenario::Scenario sc = scenario::load_scenario(request.file, sets, source_dir());
      if (request.runs) keep_runs(sc, selected);
      data::DatasetFiles& files = sc.dataset.files;
      const std::string key = data::description_key(files);
      if (const auto it = counted.find(key); it != counted.end()) {
        std::tie(files.train_size, files.test_size) = it->second;
      } else {
        count_own_dataset(sc, request.data_dir);
        counted.emplace(key, std::pair{files.train_size, files.test_size});
      }
      const auto estimate = check_limits(sc, request.file, request.limits, false);
      if (i == 0 || estimate.memory_bytes > plan.heaviest.memory_bytes ||
          (estimate.memory_bytes == plan.heaviest.memory_bytes &&
           estimate.hours > plan.heaviest.hours)) {
        plan.heaviest_point = i;
        plan.heaviest = estimate;
      }
      if (!needs_data(sc)) {
        throw InputError(request.file +
                         ": a sweep needs at least one protocol run (demo runs write no "
                         "summary.csv)");
      }
      // A point is a plain run: its scenario.json reproduces it with `hermes-sim run`.
      sc.sweep.reset();
      sc.document.erase("sweep");
      return sc;
    } catch (const InputError& e) {
      throw InputError("point " + sweep::point_name(i, def.points.size()) + " (" +
                       sweep::point_label(def.grid, point) + "): " + e.what());
    }
  };
  for (std::size_t c = 0; c < combos; ++c) {
    plan.combos.push_back(load_point(c * seeds));
    // Only outages drawn from availability models depend on the seed when a scenario loads
    // (scenario_loader.cc): then every point is loaded, its draw checked and its outages kept.
    if (plan.combos.back().availability.models.empty()) continue;
    plan.point_outages.resize(def.points.size());
    plan.point_outages[c * seeds] = plan.combos.back().outages;
    for (std::size_t s = 1; s < seeds; ++s) {
      plan.point_outages[c * seeds + s] = load_point(c * seeds + s).outages;
    }
  }
  std::vector<const sweep::Json*> documents;
  for (const auto& sc : plan.combos) documents.push_back(&sc.document);
  if (!request.runs) {
    for (const std::size_t r : sweep::unvaried_runs(documents)) {
      plan.unvaried_runs.push_back(base.runs[r].name);
    }
  }
  plan.distinct = sweep::distinct_runs(documents, def.seeds);
  plan.manifest = sweep::make_manifest(def, build_info());
  return plan;
}

const scenario::Scenario& combo_of(const SweepPlan& plan, std::size_t i) {
  return plan.combos.at(i / plan.definition.seeds.size());
}

scenario::Scenario point_scenario(const SweepPlan& plan, std::size_t i) {
  scenario::Scenario sc = combo_of(plan, i);
  const std::uint64_t seed = plan.definition.points.at(i).seed;
  sc.seed = seed;
  sc.document["seed"] = seed;
  // Only a combination with availability models draws its outages from the seed.
  if (!sc.availability.models.empty()) sc.outages = plan.point_outages.at(i);
  return sc;
}

std::string sweep_line(const SweepPlan& plan, const std::string& dir, std::size_t done_before,
                       const std::string& runs_on) {
  const sweep::SweepDefinition& def = plan.definition;
  return "sweep " + dir + ": " + counted(def.points.size(), "point") + " (" +
         counted(def.grid.size(), "grid key") + " x " + counted(def.seeds.size(), "seed") + "), " +
         std::to_string(done_before) + " done before, " +
         std::to_string(def.points.size() - done_before) + " to run on " + runs_on;
}

std::string runs_line(const SweepPlan& plan, const std::vector<std::size_t>& todo, bool reuse) {
  std::size_t runs = 0;
  for (const std::size_t i : todo) runs += combo_of(plan, i).runs.size();
  const std::size_t repeated = sweep::repeated_runs(plan.distinct, todo);
  std::string line = "runs: " + std::to_string(runs) + " at " + counted(todo.size(), "point") +
                     " to run, " + std::to_string(repeated) + " of them equal to a run of another";
  if (!reuse) return line + ": every one computed (--no-reuse)";
  return line + ": " + std::to_string(runs - repeated) + " to compute, " +
         std::to_string(repeated) + " reused";
}

std::string unvaried_runs_note(const SweepPlan& plan, bool reuse) {
  const auto& unvaried = plan.unvaried_runs;
  if (unvaried.empty()) return "";
  const sweep::SweepDefinition& def = plan.definition;
  const std::size_t per_seed = def.points.size() / def.seeds.size();
  std::vector<std::string> varied;
  for (const auto& name : def.runs) {
    if (std::find(unvaried.begin(), unvaried.end(), name) == unvaried.end()) varied.push_back(name);
  }
  const bool one = unvaried.size() == 1;
  const std::string runs =
      std::string(one ? "run " : "runs ") + join_strings(unvaried, ", ") + ", so ";
  if (reuse) {
    return "note: no grid key changes " + runs + "each seed computes " + (one ? "it" : "them") +
           " once and its other " +
           (per_seed == 2 ? "grid point reuses"
                          : std::to_string(per_seed - 1) + " grid points reuse") +
           " the results (the same bytes; " + "--no-reuse computes " + (one ? "it" : "them") +
           " at every point)";
  }
  std::string note = "note: no grid key changes " + runs + "each seed computes " +
                     (one ? "it" : "them") + " identically at all " + std::to_string(per_seed) +
                     " grid points (" + counted(per_seed - 1, "repeat") + " per seed)";
  if (varied.empty()) return note + ": the grid changes no run at all";
  // summary.csv's speedup_vs_bsp compares each run with the scenario's BSP run.
  const bool bsp_left_out = std::any_of(
      plan.combos[0].runs.begin(), plan.combos[0].runs.end(), [&](const scenario::RunSpec& r) {
        return r.protocol == scenario::speedup_reference().id &&
               std::find(unvaried.begin(), unvaried.end(), r.name) != unvaried.end();
      });
  return note + "; --runs " + join_strings(varied, ",") +
         " runs only the runs the grid varies (summary.csv then has no " +
         join_strings(unvaried, ", ") + " rows" +
         (bsp_left_out ? ", and no speedup_vs_bsp, which needs the BSP run)" : ")");
}

}  // namespace hermes::cli
