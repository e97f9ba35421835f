// The points of a sweep: the cross product of the grid's values and the seeds, in a fixed order
// (the first grid key varies slowest, the seed fastest), numbered from 0. A point is one complete
// run of the scenario with its values applied through the --set machinery.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/sweep/grid.h"

namespace hermes::sweep {

// The most seeds a sweep takes (--seeds, --seed-list, the file's "seeds") and the most points.
inline constexpr std::uint64_t kMaxSweepSeeds = 100000;
inline constexpr std::uint64_t kMaxSweepPoints = 1000000;

struct SweepPoint {
  std::size_t index = 0;
  std::vector<Json> values;  // one per grid axis, in grid order
  std::uint64_t seed = 0;
};

// How the seeds were asked for; the command line wins over the scenario's "sweep" section.
struct SeedRequest {
  std::optional<std::int64_t> count;  // --seeds K
  std::vector<std::uint64_t> list;    // --seed-list S1,S2,...
};

// The seeds of a sweep: an explicit list (command line, else file), else `count` seeds from
// `base` (the scenario's seed) upward, else just `base`. Throws InputError if both a count and a
// list are given on the command line, on a count < 1, or on an overflow past 2^64 - 1.
std::vector<std::uint64_t> resolve_seeds(std::uint64_t base, const SeedRequest& cli,
                                         const std::optional<scenario::SweepSpec>& file);

// Parses --seeds K (an integer; its range is checked by resolve_seeds). Throws InputError naming
// the option and the accepted range.
std::int64_t parse_seed_count(const std::string& text);

// Parses --seed-list "1,5,9" (at most kMaxSweepSeeds distinct seeds). Throws InputError naming
// the option.
std::vector<std::uint64_t> parse_seed_list(const std::string& text);

// Throws InputError, before anything is expanded, if the grid's values times `seeds` make more
// than kMaxSweepPoints points: the error gives the product ("10000 x 10000 values x 1 seed").
void check_point_count(const std::vector<GridAxis>& grid, std::size_t seeds);

// Every point, in order. Throws InputError as check_point_count does.
std::vector<SweepPoint> expand_points(const std::vector<GridAxis>& grid,
                                      const std::vector<std::uint64_t>& seeds);

// The --set overrides that turn the scenario into this point: one per grid axis, then "seed=N".
// (A grid never holds "seed": the seeds are their own axis.)
std::vector<std::string> point_overrides(const std::vector<GridAxis>& grid, const SweepPoint& p);

// "runs.hermes.alpha=-1.6 runs.hermes.beta=0.05 seed=1", for progress lines.
std::string point_label(const std::vector<GridAxis>& grid, const SweepPoint& p);

// Directory name of point `index` among `total`: zero-padded to 4 digits (more if needed).
std::string point_name(std::size_t index, std::size_t total);

}  // namespace hermes::sweep
