#include "sim/sweep/points.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <unordered_set>

#include "base/diagnostics.h"
#include "base/number_text.h"
#include "base/string_join.h"

namespace hermes::sweep {

namespace {

// A count as an integer while it is exact in a double, beyond that like "1e+80".
std::string count_text(double n) {
  return n < 9e15 ? std::to_string(static_cast<std::uint64_t>(n)) : shortest(n);
}

}  // namespace

std::int64_t parse_seed_count(const std::string& text) {
  std::int64_t count = 0;
  const auto res = std::from_chars(text.data(), text.data() + text.size(), count);
  if (text.empty() || res.ec != std::errc() || res.ptr != text.data() + text.size()) {
    throw InputError("--seeds '" + (text.size() > 40 ? text.substr(0, 37) + "..." : text) +
                     "': not a count (accepted: an integer from 1 to " +
                     std::to_string(kMaxSweepSeeds) + ")");
  }
  return count;
}

std::vector<std::uint64_t> parse_seed_list(const std::string& text) {
  std::vector<std::uint64_t> seeds;
  std::unordered_set<std::uint64_t> seen;
  std::size_t start = 0;
  while (true) {
    const auto comma = text.find(',', start);
    const std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    std::uint64_t seed = 0;
    const auto res = std::from_chars(item.data(), item.data() + item.size(), seed);
    const std::string what =
        "--seed-list '" + (text.size() > 60 ? text.substr(0, 57) + "..." : text) + "'";
    if (item.empty() || res.ec != std::errc() || res.ptr != item.data() + item.size()) {
      throw InputError(what + ": '" + item +
                       "' is not a seed (accepted: integers 0 to 18446744073709551615 separated "
                       "by commas)");
    }
    if (!seen.insert(seed).second) throw InputError(what + ": seed " + item + " is listed twice");
    if (seeds.size() == kMaxSweepSeeds) {
      throw InputError(what + ": more than " + std::to_string(kMaxSweepSeeds) +
                       " seeds (accepted: 1 to " + std::to_string(kMaxSweepSeeds) + " seeds)");
    }
    seeds.push_back(seed);
    if (comma == std::string::npos) return seeds;
    start = comma + 1;
  }
}

std::vector<std::uint64_t> resolve_seeds(std::uint64_t base, const SeedRequest& cli,
                                         const std::optional<scenario::SweepSpec>& file) {
  if (cli.count && !cli.list.empty()) {
    throw InputError("--seeds and --seed-list: give one of them, not both");
  }
  if (!cli.list.empty()) return cli.list;
  std::optional<std::int64_t> count = cli.count;
  if (!count && file) {
    if (!file->seed_list.empty()) return file->seed_list;
    count = file->seed_count;
  }
  if (!count) return {base};
  if (*count < 1 || static_cast<std::uint64_t>(*count) > kMaxSweepSeeds) {
    throw InputError("--seeds " + std::to_string(*count) + ": out of range (accepted: 1 to " +
                     std::to_string(kMaxSweepSeeds) + ")");
  }
  const auto n = static_cast<std::uint64_t>(*count);
  if (base > std::numeric_limits<std::uint64_t>::max() - (n - 1)) {
    throw InputError("--seeds " + std::to_string(n) + " from the scenario's seed " +
                     std::to_string(base) + " goes past 2^64 - 1");
  }
  std::vector<std::uint64_t> seeds;
  for (std::uint64_t i = 0; i < n; ++i) seeds.push_back(base + i);
  return seeds;
}

void check_point_count(const std::vector<GridAxis>& grid, std::size_t seeds) {
  // In doubles: 20 keys of 10,000 values overflow every integer type.
  double total = static_cast<double>(seeds);
  std::vector<std::string> factors;
  for (const auto& axis : grid) {
    if (axis.values.empty()) throw InputError("grid key '" + axis.key + "' has no values");
    total *= static_cast<double>(axis.values.size());
    if (factors.size() < 8) factors.push_back(std::to_string(axis.values.size()));
  }
  if (total <= static_cast<double>(kMaxSweepPoints)) return;
  if (grid.size() > factors.size())
    factors.push_back("... (" + counted(grid.size(), "grid key") + ")");
  const std::string grid_text =
      factors.empty() ? "" : join_strings(factors, " x ") + " grid values x ";
  throw InputError("the sweep would have " + count_text(total) + " points (" + grid_text +
                   counted(seeds, "seed") + "); accepted: at most " +
                   std::to_string(kMaxSweepPoints) +
                   " points (fewer grid keys, values or seeds, or several sweeps)");
}

std::vector<SweepPoint> expand_points(const std::vector<GridAxis>& grid,
                                      const std::vector<std::uint64_t>& seeds) {
  check_point_count(grid, seeds.size());
  std::size_t total = seeds.size();
  for (const auto& axis : grid) total *= axis.values.size();
  std::vector<SweepPoint> points;
  points.reserve(total);
  // Mixed-radix counting, the seed being the fastest digit.
  std::vector<std::size_t> digit(grid.size(), 0);
  for (std::size_t i = 0; i < total; ++i) {
    SweepPoint p;
    p.index = i;
    std::size_t rest = i / seeds.size();
    p.seed = seeds[i % seeds.size()];
    for (std::size_t a = grid.size(); a-- > 0;) {
      digit[a] = rest % grid[a].values.size();
      rest /= grid[a].values.size();
    }
    for (std::size_t a = 0; a < grid.size(); ++a) p.values.push_back(grid[a].values[digit[a]]);
    points.push_back(std::move(p));
  }
  return points;
}

std::vector<std::string> point_overrides(const std::vector<GridAxis>& grid, const SweepPoint& p) {
  std::vector<std::string> sets;
  for (std::size_t a = 0; a < grid.size(); ++a) {
    sets.push_back(grid[a].key + "=" + value_set_text(p.values[a]));
  }
  sets.push_back("seed=" + std::to_string(p.seed));
  return sets;
}

std::string point_label(const std::vector<GridAxis>& grid, const SweepPoint& p) {
  std::string label;
  for (std::size_t a = 0; a < grid.size(); ++a) {
    label += grid[a].key + "=" + display_text(p.values[a]) + " ";
  }
  return label + "seed=" + std::to_string(p.seed);
}

std::string point_name(std::size_t index, std::size_t total) {
  std::size_t width = 4;
  for (std::size_t n = total > 0 ? total - 1 : 0; n >= 10000; n /= 10) ++width;
  std::string digits = std::to_string(index);
  if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
  return digits;
}

}  // namespace hermes::sweep
