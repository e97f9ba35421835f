// The grid of a sweep: for each parameter (a --set path such as "runs.hermes.alpha") the values it
// takes. Given on the command line (--grid KEY=FROM:TO:STEP or --grid KEY=V1,V2,...) or in the
// scenario's "sweep" section; the sweep runs their cross product (points.h).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/scenario/scenario.h"

namespace hermes::sweep {

using Json = nlohmann::ordered_json;

struct GridAxis {
  std::string key;           // --set path
  std::vector<Json> values;  // in sweep order; numbers, strings or booleans
};

// The text of a value as sweep.json records it: a string as is, anything else as its JSON
// ("-1.6", "-1.0", "5", "true"). Resuming compares these texts, so they never change.
std::string value_text(const Json& value);

// The text of a value as summary.csv's grid columns and the progress lines show it: a number
// written the shortest way that reads back exactly, as a run's params show it ("-1" where the JSON
// is -1.0, "0.15", "5"), a string as is, a boolean as true/false.
std::string display_text(const Json& value);

// The value as the right-hand side of --set: its JSON, so that the string "true" stays a string.
std::string value_set_text(const Json& value);

// from, from + step, ..., up to `to` inclusive (within a relative 1e-9 of a step, so that rounding
// in (to - from) / step never drops the last value). Each value is rounded to as many decimals as
// the most precise of from, to and step has, so -1.6:-0.9:0.1 gives exactly -1.6, -1.5, ...,
// -1.0, -0.9 (doubles, which print like that), and 1:9:2 gives the integers 1, 3, 5, 7, 9. Throws
// InputError starting with `what` unless from <= to, step > 0, all finite, and at most 10000
// values.
std::vector<Json> range_values(double from, double to, double step, const std::string& what);

// Parses one --grid option: KEY=FROM:TO:STEP (a range, recognised by its ':') or KEY=V1,V2,...
// (values read like --set values: JSON if they parse, else plain strings). Throws InputError
// naming the option.
GridAxis parse_grid_option(const std::string& arg);

// The grid of a scenario's "sweep" section, ranges expanded.
std::vector<GridAxis> grid_from_spec(const scenario::SweepSpec& spec);

// The file's grid with the command line's on top: a key given on both keeps its place in the
// file's order and takes the command line's values; other command-line keys follow, in order.
// Throws InputError if the command line names one key twice.
std::vector<GridAxis> merge_grids(std::vector<GridAxis> file, const std::vector<GridAxis>& cli);

}  // namespace hermes::sweep
