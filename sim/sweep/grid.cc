#include "sim/sweep/grid.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <set>

#include "base/diagnostics.h"
#include "base/number_text.h"
#include "sim/config/json_read.h"
#include "sim/scenario/set_overrides.h"

namespace hermes::sweep {

namespace {

constexpr std::size_t kMaxAxisValues = 10000;

// Fewest decimals with which `v` prints as text that reads back as exactly `v` (0.1 -> 1,
// 1e-21 -> 21). Every double's exact decimal expansion ends within 1074 decimals, and one that
// reads back is found well before: at most 17 significant digits after the leading zeros.
int decimals_of(double v) {
  for (int d = 0; d < 1100; ++d) {
    const std::string text = format_fixed(v, d, NegativeZero::kKeep);
    double back = 0;
    std::from_chars(text.data(), text.data() + text.size(), back);
    if (back == v) return d;
  }
  return 1100;
}

std::optional<double> parse_number(const std::string& text) {
  double v = 0;
  const auto res = std::from_chars(text.data(), text.data() + text.size(), v);
  if (res.ec != std::errc() || res.ptr != text.data() + text.size()) return std::nullopt;
  return v;
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const auto at = text.find(sep, start);
    parts.push_back(text.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

std::vector<Json> texts_to_values(const std::vector<std::string>& texts) {
  std::vector<Json> values;
  for (const auto& t : texts) values.push_back(scenario::parse_override_value(t));
  return values;
}

}  // namespace

std::string value_text(const Json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

std::string display_text(const Json& value) {
  // An integer is exact as its JSON; a double the shortest way, as summary.csv's params write it.
  if (value.is_number_float()) return shortest(value.get<double>());
  return value_text(value);
}

std::string value_set_text(const Json& value) { return value.dump(); }

std::vector<Json> range_values(double from, double to, double step, const std::string& what) {
  if (!std::isfinite(from) || !std::isfinite(to) || !std::isfinite(step)) {
    throw InputError(what + ": FROM, TO and STEP must be finite numbers");
  }
  if (!(step > 0)) throw InputError(what + ": STEP must be > 0");
  if (from > to) throw InputError(what + ": the range goes upward, TO must be >= FROM");
  const double steps = (to - from) / step;
  const double count = std::floor(steps + 1e-9 * std::max(1.0, steps)) + 1;
  if (count > static_cast<double>(kMaxAxisValues)) {
    throw InputError(what + ": " + shortest(count) + " values, more than " +
                     std::to_string(kMaxAxisValues) +
                     " (accepted: a larger STEP or a shorter range)");
  }
  const int decimals = std::max({decimals_of(from), decimals_of(to), decimals_of(step)});
  std::vector<Json> values;
  for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i) {
    const std::string text =
        format_fixed(from + static_cast<double>(i) * step, decimals, NegativeZero::kKeep);
    const double v = *parse_number(text);
    if (decimals == 0 && std::fabs(v) < 9e15) {
      values.emplace_back(static_cast<std::int64_t>(v));
    } else {
      values.emplace_back(v == 0 ? 0.0 : v);  // never -0.0
    }
    // A step below a double's resolution at these magnitudes (1e20:1e20+1:0.5) repeats values.
    if (i > 0 && values[i] == values[i - 1]) {
      throw InputError(what + ": the values " + value_text(values[i - 1]) + " and " +
                       value_text(values[i]) +
                       " are equal as doubles: STEP is below the precision of the range "
                       "(accepted: a step that gives distinct values)");
    }
  }
  return values;
}

GridAxis parse_grid_option(const std::string& arg) {
  // A list of 10,000 values is not quoted whole in a message: its first 60 bytes name it.
  const std::string shown = escape_invalid_utf8(arg.size() > 60 ? arg.substr(0, 60) : arg);
  const std::string what = "--grid '" + shown + (arg.size() > 60 ? "...'" : "'");
  // Values end up in sweep.json and scenario.json, which are UTF-8.
  if (!is_valid_utf8(arg)) throw InputError(what + ": not valid UTF-8 (accepted: UTF-8 text)");
  const auto eq = arg.find('=');
  if (eq == std::string::npos) {
    throw InputError(what + ": expected KEY=FROM:TO:STEP or KEY=V1,V2,... (KEY a --set path)");
  }
  GridAxis axis;
  axis.key = arg.substr(0, eq);
  const std::string spec = arg.substr(eq + 1);
  if (axis.key.empty() || axis.key.front() == '.' || axis.key.back() == '.' ||
      axis.key.find("..") != std::string::npos) {
    throw InputError(what + ": the key must be a --set path such as runs.hermes.alpha");
  }
  if (axis.key == "seed") throw InputError(what + ": vary the seed with --seeds or --seed-list");
  if (spec.find(':') != std::string::npos) {
    const auto parts = split(spec, ':');
    if (parts.size() != 3) {
      throw InputError(what + ": a range is FROM:TO:STEP (three numbers), got " +
                       std::to_string(parts.size()) + " parts");
    }
    std::optional<double> nums[3];
    for (std::size_t i = 0; i < 3; ++i) {
      nums[i] = parse_number(parts[i]);
      if (!nums[i]) {
        throw InputError(what + ": '" + parts[i] + "' is not a number (a range is FROM:TO:STEP)");
      }
    }
    axis.values = range_values(*nums[0], *nums[1], *nums[2], what);
    return axis;
  }
  const auto items = split(spec, ',');
  if (items.size() > kMaxAxisValues) {
    throw InputError(what + ": " + std::to_string(items.size()) + " values, more than " +
                     std::to_string(kMaxAxisValues) + " (accepted: at most " +
                     std::to_string(kMaxAxisValues) + " values per key)");
  }
  for (const auto& item : items) {
    if (item.empty()) throw InputError(what + ": empty value in the list V1,V2,...");
  }
  axis.values = texts_to_values(items);
  std::set<std::string> seen;
  for (std::size_t i = 0; i < axis.values.size(); ++i) {
    const Json& v = axis.values[i];
    if (!v.is_number() && !v.is_string() && !v.is_boolean()) {
      throw InputError(what + ": value '" + items[i] + "' is not a number, string or boolean");
    }
    if (!seen.insert(scalar_identity(v)).second) {
      throw InputError(what + ": value '" + items[i] + "' is listed twice");
    }
  }
  return axis;
}

std::vector<GridAxis> grid_from_spec(const scenario::SweepSpec& spec) {
  std::vector<GridAxis> grid;
  for (const auto& a : spec.grid) {
    GridAxis axis{a.key, a.values};
    if (a.range) {
      axis.values = range_values(a.range->from, a.range->to, a.range->step, "/sweep/grid/" + a.key);
    }
    grid.push_back(std::move(axis));
  }
  return grid;
}

std::vector<GridAxis> merge_grids(std::vector<GridAxis> file, const std::vector<GridAxis>& cli) {
  for (std::size_t i = 0; i < cli.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (cli[j].key == cli[i].key) {
        throw InputError("--grid: the key '" + cli[i].key + "' is given twice");
      }
    }
    const auto same = [&](const GridAxis& a) { return a.key == cli[i].key; };
    if (const auto it = std::find_if(file.begin(), file.end(), same); it != file.end()) {
      it->values = cli[i].values;
    } else {
      file.push_back(cli[i]);
    }
  }
  return file;
}

}  // namespace hermes::sweep
