#include "sim/sweep/points.h"

#include <algorithm>
#include <charconv>
#include <limits>

#include "base/diagnostics.h"

namespace hermes::sweep {

namespace {
constexpr std::size_t kMaxPoints = 1000000;
}  // namespace

std::vector<std::uint64_t> parse_seed_list(const std::string& text) {
  std::vector<std::uint64_t> seeds;
  std::size_t start = 0;
  while (true) {
    const auto comma = text.find(',', start);
    const std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    std::uint64_t seed = 0;
    const auto res = std::from_chars(item.data(), item.data() + item.size(), seed);
    if (item.empty() || res.ec != std::errc() || res.ptr != item.data() + item.size()) {
      throw InputError("--seed-list '" + text + "': '" + item +
                       "' is not a seed (accepted: integers >= 0 separated by commas)");
    }
    if (std::find(seeds.begin(), seeds.end(), seed) != seeds.end()) {
      throw InputError("--seed-list '" + text + "': seed " + item + " is listed twice");
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
  if (*count < 1) throw InputError("--seeds " + std::to_string(*count) + ": must be >= 1");
  const auto n = static_cast<std::uint64_t>(*count);
  if (base > std::numeric_limits<std::uint64_t>::max() - (n - 1)) {
    throw InputError("--seeds " + std::to_string(n) + " from the scenario's seed " +
                     std::to_string(base) + " goes past 2^64 - 1");
  }
  std::vector<std::uint64_t> seeds;
  for (std::uint64_t i = 0; i < n; ++i) seeds.push_back(base + i);
  return seeds;
}

std::vector<SweepPoint> expand_points(const std::vector<GridAxis>& grid,
                                      const std::vector<std::uint64_t>& seeds) {
  std::size_t total = seeds.size();
  for (const auto& axis : grid) {
    if (axis.values.empty()) throw InputError("grid key '" + axis.key + "' has no values");
    if (total > kMaxPoints / axis.values.size()) total = kMaxPoints + 1;
    total *= axis.values.size();
  }
  if (total > kMaxPoints) {
    throw InputError("the sweep would have more than " + std::to_string(kMaxPoints) + " points");
  }
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
