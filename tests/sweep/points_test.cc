// Points: the cross product in its fixed order, the seeds, and the overrides of each point.
#include <gtest/gtest.h>

#include <functional>

#include "base/diagnostics.h"
#include "sim/sweep/points.h"

namespace hermes::sweep {
namespace {

using Seeds = std::vector<std::uint64_t>;

TEST(Points, FirstKeySlowestSeedFastest) {
  const std::vector<GridAxis> grid = {parse_grid_option("a=1,2"), parse_grid_option("b=x,y,z")};
  const auto points = expand_points(grid, {7, 8});
  ASSERT_EQ(points.size(), 12u);
  std::vector<std::string> labels;
  for (const auto& p : points) labels.push_back(point_label(grid, p));
  EXPECT_EQ(labels[0], "a=1 b=x seed=7");
  EXPECT_EQ(labels[1], "a=1 b=x seed=8");
  EXPECT_EQ(labels[2], "a=1 b=y seed=7");
  EXPECT_EQ(labels[5], "a=1 b=z seed=8");
  EXPECT_EQ(labels[6], "a=2 b=x seed=7");
  EXPECT_EQ(labels[11], "a=2 b=z seed=8");
  for (std::size_t i = 0; i < points.size(); ++i) EXPECT_EQ(points[i].index, i);
}

TEST(Points, OverridesSetEveryGridValueThenTheSeed) {
  const std::vector<GridAxis> grid = {parse_grid_option("runs.h.alpha=-1.6:-1.5:0.1"),
                                      parse_grid_option("runs.h.variant=paper")};
  const auto points = expand_points(grid, {3});
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(point_overrides(grid, points[1]),
            (std::vector<std::string>{"runs.h.alpha=-1.5", "runs.h.variant=\"paper\"", "seed=3"}));
}

TEST(Points, NoGridIsOnePointPerSeed) {
  const auto points = expand_points({}, {1, 2, 3});
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[2].seed, 3u);
  EXPECT_EQ(point_label({}, points[2]), "seed=3");
}

TEST(Points, SeedsFromTheCommandLineTheFileOrTheScenario) {
  EXPECT_EQ(resolve_seeds(5, {}, std::nullopt), Seeds{5});
  EXPECT_EQ(resolve_seeds(5, {3, {}}, std::nullopt), (Seeds{5, 6, 7}));
  scenario::SweepSpec file;
  file.seed_count = 2;
  EXPECT_EQ(resolve_seeds(5, {}, file), (Seeds{5, 6}));
  EXPECT_EQ(resolve_seeds(5, {4, {}}, file), (Seeds{5, 6, 7, 8}));  // the command line wins
  EXPECT_EQ(resolve_seeds(5, {std::nullopt, {9, 1}}, file), (Seeds{9, 1}));
  file.seed_count.reset();
  file.seed_list = {11, 12};
  EXPECT_EQ(resolve_seeds(5, {}, file), (Seeds{11, 12}));
  EXPECT_EQ(resolve_seeds(5, {2, {}}, file), (Seeds{5, 6}));
  EXPECT_THROW(resolve_seeds(5, {2, {1}}, std::nullopt), InputError);
  EXPECT_THROW(resolve_seeds(5, {0, {}}, std::nullopt), InputError);
  EXPECT_THROW(resolve_seeds(~std::uint64_t{0}, {2, {}}, std::nullopt), InputError);
}

TEST(Points, SeedListParsing) {
  EXPECT_EQ(parse_seed_list("3,1,2"), (Seeds{3, 1, 2}));
  for (const char* bad : {"", "1,", "a", "1,1", "-1", "1.5"}) {
    try {
      parse_seed_list(bad);
      ADD_FAILURE() << "no error for '" << bad << "'";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--seed-list '", 0), 0u) << e.what();
    }
  }
}

TEST(Points, NamesArePaddedToFourDigitsOrMore) {
  EXPECT_EQ(point_name(3, 9), "0003");
  EXPECT_EQ(point_name(9999, 10000), "9999");
  EXPECT_EQ(point_name(42, 10001), "00042");
}

TEST(Points, CountsAreBoundedBeforeAnythingIsExpanded) {
  const auto error_of = [](const std::function<void()>& f) -> std::string {
    try {
      f();
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error_of([] {
              resolve_seeds(1, {100001, {}}, std::nullopt);
            }),
            "--seeds 100001: out of range (accepted: 1 to 100000)");
  EXPECT_EQ(resolve_seeds(1, {100000, {}}, std::nullopt).size(), 100000u);
  EXPECT_EQ(error_of([] { parse_seed_count("99999999999999999999"); }),
            "--seeds '99999999999999999999': not a count (accepted: an integer from 1 to 100000)");
  EXPECT_EQ(parse_seed_count("-5"), -5);  // refused by resolve_seeds with its range
  EXPECT_NE(error_of([] {
              parse_seed_list("18446744073709551616");
            }).find("(accepted: integers 0 to 18446744073709551615 separated by commas)"),
            std::string::npos);
  std::string list = "0";
  for (int i = 1; i <= 100000; ++i) list += "," + std::to_string(i);
  EXPECT_NE(error_of([&] { parse_seed_list(list); }).find("more than 100000 seeds"),
            std::string::npos);
  // The product of the grid is given, even one far beyond any integer type.
  std::vector<GridAxis> grid;
  for (int k = 0; k < 20; ++k)
    grid.push_back(parse_grid_option("k" + std::to_string(k) + "=1,2,3"));
  EXPECT_EQ(error_of([&] { check_point_count(grid, 1); }),
            "the sweep would have 3486784401 points (3 x 3 x 3 x 3 x 3 x 3 x 3 x 3 x ... (20 grid "
            "keys) grid values x 1 seed); accepted: at most 1000000 points (fewer grid keys, "
            "values or seeds, or several sweeps)");
  const std::vector<GridAxis> big = {parse_grid_option("a=1:10000:1"),
                                     parse_grid_option("b=1:10000:1")};
  EXPECT_NE(
      error_of([&] { check_point_count(big, 100000); })
          .find("the sweep would have 10000000000000 points (10000 x 10000 grid values x 100000 "
                "seeds)"),
      std::string::npos);
  EXPECT_EQ(error_of([&] { check_point_count({parse_grid_option("a=1:10:1")}, 100000); }), "");
}

TEST(Points, TooManyPointsIsAnError) {
  const std::vector<GridAxis> grid = {parse_grid_option("a=0:9999:1"),
                                      parse_grid_option("b=0:9999:1")};
  EXPECT_THROW(expand_points(grid, {1}), InputError);
}

}  // namespace
}  // namespace hermes::sweep
