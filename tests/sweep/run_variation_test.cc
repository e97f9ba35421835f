// Which runs a sweep's grid leaves alone, and which are equal: compared on the grid combinations'
// scenario documents and the seeds.
#include <gtest/gtest.h>

#include "sim/sweep/run_variation.h"

namespace hermes::sweep {
namespace {

// The documents of a grid over one key (a --set path into this small scenario), one per value,
// run with `seeds`.
struct Sweep {
  std::vector<Json> documents;
  std::vector<std::uint64_t> seeds;

  std::vector<const Json*> combos() const {
    std::vector<const Json*> docs;
    for (const auto& d : documents) docs.push_back(&d);
    return docs;
  }
  std::vector<std::size_t> unvaried() const { return unvaried_runs(combos()); }
  DistinctRuns distinct() const { return distinct_runs(combos(), seeds); }
};

Sweep sweep_over(const std::string& grid, const std::vector<std::uint64_t>& seeds,
                 const std::function<void(Json&, const Json&)>& apply) {
  const std::vector<GridAxis> axes =
      grid.empty() ? std::vector<GridAxis>{} : std::vector<GridAxis>{parse_grid_option(grid)};
  Sweep s;
  s.seeds = seeds;
  for (const auto& p : expand_points(axes, {seeds.front()})) {
    Json doc = Json::parse(R"({"seed": 0, "training": {"chunk_size": 60},
                              "runs": [{"name": "bsp", "protocol": "bsp"},
                                       {"name": "h", "protocol": "hermes", "alpha": -1}]})");
    // A combination's own seed is ignored: each point has the seed of its position.
    doc["seed"] = 99;
    if (!axes.empty()) apply(doc, p.values[0]);
    s.documents.push_back(doc);
  }
  return s;
}

TEST(RunVariation, ARunNoGridKeyChangesIsRepeatedAtEveryGridPointOfASeed) {
  const auto alpha = [](Json& doc, const Json& v) { doc["runs"][1]["alpha"] = v; };
  EXPECT_EQ(sweep_over("runs.h.alpha=-1,-2,-3", {1, 2}, alpha).unvaried(),
            std::vector<std::size_t>{0});
  // An unnamed run's default name follows its parameters: the run still differs.
  const auto named = [](Json& doc, const Json& v) {
    doc["runs"][1]["alpha"] = v;
    doc["runs"][1]["name"] = "hermes" + v.dump();
  };
  EXPECT_EQ(sweep_over("runs.h.alpha=-1,-2", {1}, named).unvaried(), std::vector<std::size_t>{0});
}

TEST(RunVariation, AKeyOutsideTheRunsChangesEveryRun) {
  const auto chunk = [](Json& doc, const Json& v) { doc["training"]["chunk_size"] = v; };
  EXPECT_TRUE(sweep_over("training.chunk_size=60,120", {1}, chunk).unvaried().empty());
}

TEST(RunVariation, NothingIsRepeatedWithOnePointPerSeed) {
  EXPECT_TRUE(sweep_over("", {1, 2, 3}, nullptr).unvaried().empty());
  const auto alpha = [](Json& doc, const Json& v) { doc["runs"][1]["alpha"] = v; };
  EXPECT_TRUE(sweep_over("runs.h.alpha=-1", {1, 2}, alpha).unvaried().empty());
}

TEST(RunVariation, AGridChangingNoRunLeavesThemAllAlone) {
  // A key no run reads (here: one the scenario ignores).
  const auto nothing = [](Json&, const Json&) {};
  EXPECT_EQ(sweep_over("outputs.note=a,b", {1}, nothing).unvaried(),
            (std::vector<std::size_t>{0, 1}));
}

TEST(DistinctRuns, EqualRunsShareANumberWhereverTheyStand) {
  const auto alpha = [](Json& doc, const Json& v) { doc["runs"][1]["alpha"] = v; };
  // 3 alphas x 2 seeds: per seed one bsp and three hermes runs.
  const Sweep s = sweep_over("runs.h.alpha=-1,-2,-3", {1, 2}, alpha);
  const DistinctRuns d = s.distinct();
  EXPECT_EQ(d.count, 8u);
  ASSERT_EQ(d.ids.size(), 6u);
  // Points: (alpha -1, seed 1), (-1, 2), (-2, 1), (-2, 2), (-3, 1), (-3, 2).
  EXPECT_EQ(d.ids[0], (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(d.ids[1], (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(d.ids[2], (std::vector<std::size_t>{0, 4}));
  EXPECT_EQ(d.ids[5], (std::vector<std::size_t>{2, 7}));
  EXPECT_EQ(repeated_runs(d, {0, 1, 2, 3, 4, 5}), 4u);
  // Of the points left after a resume, only repeats among themselves count.
  EXPECT_EQ(repeated_runs(d, {2, 5}), 0u);
  EXPECT_EQ(repeated_runs(d, {2, 4}), 1u);

  // Two equal entries in one scenario are the same run too: the name is not in the results.
  Json twice = s.documents[0];
  twice["runs"].push_back(twice["runs"][0]);
  const DistinctRuns t = distinct_runs({&twice}, {1});
  EXPECT_EQ(t.ids[0], (std::vector<std::size_t>{0, 1, 0}));
}

TEST(DistinctRuns, AnyOtherDifferenceMakesAnotherRun) {
  // A key outside the runs (here the chunk size) changes every run; so does any key of the run's
  // own entry, even one that only names it.
  const auto chunk = [](Json& doc, const Json& v) { doc["training"]["chunk_size"] = v; };
  EXPECT_EQ(sweep_over("training.chunk_size=60,120", {1}, chunk).distinct().count, 4u);
  const auto rename = [](Json& doc, const Json& v) { doc["runs"][0]["name"] = v; };
  const DistinctRuns d = sweep_over("runs.bsp.name=a,b", {1}, rename).distinct();
  EXPECT_EQ(d.ids[0], (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(d.ids[1], (std::vector<std::size_t>{2, 1}));
}

}  // namespace
}  // namespace hermes::sweep
