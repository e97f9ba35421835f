// "sweep": the grid of parameter values and the seeds `hermes-sim sweep` runs (expanded into
// points by sim/sweep/). Only checked here: a grid key is a --set path, and whether it addresses
// something is judged when each point's scenario is loaded.
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "sim/config/json_pointer.h"
#include "sim/config/json_read.h"
#include "sim/config/object_reader.h"
#include "sim/scenario/sections.h"

namespace hermes::scenario {

namespace {

// More values than this on one axis is a typo (a step of 0.0001 for 0.1), not a sweep.
constexpr double kMaxAxisValues = 10000;
constexpr std::int64_t kMaxSeeds = 100000;

const char* const kListOrRange =
    "a non-empty array of distinct numbers, strings or booleans, or an object "
    "{\"from\": number, \"to\": number, \"step\": number > 0}";

// A --set path: non-empty segments separated by '.', not inside "sweep" itself.
std::string key_problem(const std::string& key) {
  if (key.empty()) return "an empty key is not a --set path";
  if (key.front() == '.' || key.back() == '.' || key.find("..") != std::string::npos) {
    return "'" + key + "' has an empty segment (accepted: a --set path such as runs.hermes.alpha)";
  }
  if (key == "sweep" || key.rfind("sweep.", 0) == 0) return "the sweep section cannot sweep itself";
  if (key == "seed")
    return "seeds are not a grid key: vary them with \"seeds\" (a count or a list)";
  return {};
}

}  // namespace

const ObjectDecl& sweep_decl() {
  using config::KeyType;
  static const ObjectDecl decl{
      "sweep",
      {{.key = "grid",
        .type = KeyType::kObject,
        .default_text = "{}",
        .accepted = "keys: --set paths (runs.<name>.<key>); values: a list of distinct values or "
                    "a range (sweep.grid.<key>.*)",
        .help = "the grid of hermes-sim sweep: one point per combination of values"},
       {.key = "seeds",
        .type = KeyType::kAny,
        .default_text = "the scenario's seed only",
        .accepted = "N in [1, 100000] (seed .. seed+N-1), or a list of distinct seeds",
        .help = "the seeds every grid point runs with"}}};
  return decl;
}

const ObjectDecl& sweep_range_decl() {
  using config::KeyType;
  static const ObjectDecl decl{"sweep.grid.<key>",
                               {{.key = "from",
                                 .type = KeyType::kNumber,
                                 .default_text = "required",
                                 .help = "the range's first value"},
                                {.key = "to",
                                 .type = KeyType::kNumber,
                                 .default_text = "required",
                                 .accepted = ">= from",
                                 .help = "its last value (included when a step lands on it)"},
                                {.key = "step",
                                 .type = KeyType::kNumber,
                                 .default_text = "required",
                                 .range = Range::above(0),
                                 .help = "the distance between two values"}}};
  return decl;
}

namespace {

std::optional<GridRangeSpec> read_range(const Json& value, const std::string& path,
                                        Diagnostics& diags, Json& out) {
  ObjectReader r(value, path, diags, out, sweep_range_decl());
  const auto from = r.number("from", std::nullopt, Range::any());
  const auto to = r.number("to", std::nullopt, Range::any());
  const auto step = r.number("step", std::nullopt, Range::above(0));
  r.finish();
  if (!from || !to || !step) return std::nullopt;
  if (*from > *to) {
    r.error("to", "the range goes upward: to (" + format_number(*to) + ") must be >= from (" +
                      format_number(*from) + ")");
    return std::nullopt;
  }
  if ((*to - *from) / *step >= kMaxAxisValues) {
    r.error("step", "step " + format_number(*step) + " gives more than " +
                        format_number(kMaxAxisValues) + " values from " + format_number(*from) +
                        " to " + format_number(*to));
    return std::nullopt;
  }
  return GridRangeSpec{*from, *to, *step};
}

std::optional<std::vector<Json>> read_list(const Json& value, const std::string& path,
                                           Diagnostics& diags) {
  const std::size_t errors_before = diags.count();
  if (value.empty()) diags.error(path, std::string("empty list (accepted: ") + kListOrRange + ")");
  if (static_cast<double>(value.size()) > kMaxAxisValues) {
    diags.error(path, std::to_string(value.size()) + " values, more than " +
                          format_number(kMaxAxisValues) + " (accepted: at most " +
                          format_number(kMaxAxisValues) + " values per key)");
    return std::nullopt;
  }
  std::vector<Json> values;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const Json& v = value[i];
    const std::string at = pointer_append(path, i);
    if (!v.is_number() && !v.is_string() && !v.is_boolean()) {
      diags.error(at, "wrong type: expected a number, string or boolean, got " + describe_value(v));
    } else if (!seen.insert(scalar_identity(v)).second) {
      diags.error(at, "duplicate value " + v.dump() + " (each point would run twice)");
    } else {
      values.push_back(v);
    }
  }
  if (diags.count() != errors_before) return std::nullopt;
  return values;
}

void read_grid(const Json* value, ObjectReader& parent, SweepSpec& spec, Json& out) {
  out = Json::object();
  if (value == nullptr) return;
  const std::string path = parent.path_of("grid");
  Diagnostics& diags = parent.diags();
  if (!value->is_object()) {
    parent.wrong_type("grid", "an object {\"<--set path>\": values, ...}", *value);
    return;
  }
  for (const auto& [key, values] : value->items()) {
    const std::string at = pointer_append(path, key);
    if (const std::string problem = key_problem(key); !problem.empty()) {
      diags.error(at, problem);
      continue;
    }
    GridAxisSpec axis;
    axis.key = key;
    if (values.is_array()) {
      auto list = read_list(values, at, diags);
      if (!list) continue;
      axis.values = std::move(*list);
      out[key] = values;
    } else if (values.is_object()) {
      axis.range = read_range(values, at, diags, out[key]);
      if (!axis.range) continue;
    } else {
      diags.error(at, "wrong type: expected " + std::string(kListOrRange) + ", got " +
                          describe_value(values));
      continue;
    }
    spec.grid.push_back(std::move(axis));
  }
}

void read_seeds(const Json* value, ObjectReader& r, SweepSpec& spec) {
  if (value == nullptr) return;
  const std::string accepted = "an integer count in [1, " + std::to_string(kMaxSeeds) +
                               "] or an array of 1 to " + std::to_string(kMaxSeeds) +
                               " distinct seeds (integers >= 0)";
  if (value->is_number_integer()) {
    const bool in_range = value->is_number_unsigned() && value->get<std::uint64_t>() >= 1 &&
                          value->get<std::uint64_t>() <= static_cast<std::uint64_t>(kMaxSeeds);
    if (!in_range) {
      r.error("seeds", "out of range (accepted: " + accepted + "; got " + value->dump() + ")");
      return;
    }
    spec.seed_count = value->get<std::int64_t>();
  } else if (value->is_array() && value->size() > static_cast<std::size_t>(kMaxSeeds)) {
    r.error("seeds", std::to_string(value->size()) + " seeds (accepted: " + accepted + ")");
    return;
  } else if (value->is_array() && !value->empty()) {
    std::set<std::uint64_t> seen;
    for (std::size_t i = 0; i < value->size(); ++i) {
      const Json& s = (*value)[i];
      const std::string at = pointer_append(r.path_of("seeds"), i);
      if (!s.is_number_unsigned()) {
        r.diags().error(at, "wrong type: expected a seed (integer >= 0), got " + describe_value(s));
      } else if (!seen.insert(s.get<std::uint64_t>()).second) {
        r.diags().error(at, "duplicate seed " + s.dump());
      } else {
        spec.seed_list.push_back(s.get<std::uint64_t>());
      }
    }
  } else {
    r.wrong_type("seeds", accepted, *value);
    return;
  }
  r.out()["seeds"] = *value;
}

}  // namespace

std::optional<SweepSpec> read_sweep(const Json& value, Diagnostics& diags, Json& out) {
  const std::size_t errors_before = diags.count();
  ObjectReader r(value, "/sweep", diags, out, sweep_decl());
  SweepSpec spec;
  read_grid(r.accept("grid"), r, spec, out["grid"]);
  read_seeds(r.accept("seeds"), r, spec);
  r.finish();
  if (diags.count() != errors_before) return std::nullopt;
  return spec;
}

}  // namespace hermes::scenario
