// The optional "sweep" section: accepted as documented, every mistake reported at its JSON path,
// and invisible to a plain run's scenario document when absent.
#include <gtest/gtest.h>

#include "tests/scenario/scenario_test_util.h"

namespace hermes::scenario {
namespace {

using namespace testing;  // the scenario test helpers (scenario_test_util.h)

Json with_sweep(const char* sweep) {
  Json doc = minimal_doc();
  doc["sweep"] = Json::parse(sweep);
  return doc;
}

TEST(SweepSection, ListsRangesAndSeedsAreRead) {
  Diagnostics diags;
  const auto s = check_doc(with_sweep(R"({"grid": {"runs.bsp.dynamic_allocation": [true, false],
                                                  "training.learning_rate":
                                                    {"from": 0.05, "to": 0.2, "step": 0.05}},
                                         "seeds": 3})"),
                           diags);
  ASSERT_TRUE(s) << diags.format();
  ASSERT_TRUE(s->sweep);
  ASSERT_EQ(s->sweep->grid.size(), 2u);
  EXPECT_EQ(s->sweep->grid[0].key, "runs.bsp.dynamic_allocation");
  EXPECT_EQ(s->sweep->grid[0].values, (std::vector<Json>{true, false}));
  EXPECT_FALSE(s->sweep->grid[0].range);
  EXPECT_EQ(s->sweep->grid[1].key, "training.learning_rate");
  ASSERT_TRUE(s->sweep->grid[1].range);
  EXPECT_EQ(s->sweep->grid[1].range->step, 0.05);
  EXPECT_EQ(s->sweep->seed_count, 3);
  // Recorded in the document as written, in order.
  EXPECT_EQ(s->document["sweep"]["grid"].begin().key(), "runs.bsp.dynamic_allocation");
  EXPECT_EQ(s->document["sweep"]["seeds"], 3);
}

TEST(SweepSection, SeedListAndNoGrid) {
  Diagnostics diags;
  const auto s = check_doc(with_sweep(R"({"seeds": [4, 9]})"), diags);
  ASSERT_TRUE(s) << diags.format();
  EXPECT_TRUE(s->sweep->grid.empty());
  EXPECT_EQ(s->sweep->seed_list, (std::vector<std::uint64_t>{4, 9}));
  EXPECT_FALSE(s->sweep->seed_count);
}

TEST(SweepSection, AbsentSectionLeavesTheDocumentAlone) {
  Diagnostics diags;
  const auto s = check_doc(minimal_doc(), diags);
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->sweep);
  EXPECT_FALSE(s->document.contains("sweep"));
}

TEST(SweepSection, EveryMistakeAtItsPath) {
  Diagnostics diags;
  EXPECT_FALSE(check_doc(with_sweep(R"({
      "grid": {"runs.bsp.alpha": [], "a..b": [1], "seed": [1, 2], "x": [1, 1], "y": [null],
               "z": {"from": 1, "to": 0, "step": 0.1}, "w": {"from": 0, "to": 1, "step": 0},
               "v": {"from": 0, "to": 1, "stp": 0.5}, "u": 5, "t": {"from": 0, "to": 1e9,
               "step": 1}},
      "seeds": 0, "sead": 2})"),
                         diags));
  auto paths = error_paths(diags);
  std::sort(paths.begin(), paths.end());
  EXPECT_EQ(paths, (Paths{"/sweep/grid/a..b", "/sweep/grid/runs.bsp.alpha", "/sweep/grid/seed",
                          "/sweep/grid/t/step", "/sweep/grid/u", "/sweep/grid/v/step",
                          "/sweep/grid/v/stp", "/sweep/grid/w/step", "/sweep/grid/x/1",
                          "/sweep/grid/y/0", "/sweep/grid/z/to", "/sweep/sead", "/sweep/seeds"}))
      << diags.format();
  const std::string text = diags.format();
  EXPECT_TRUE(Contains(text, "/sweep/sead: unknown key 'sead' (accepted: grid, seeds)"));
  EXPECT_TRUE(Contains(text, "/sweep/grid/v/stp: unknown key 'stp' (accepted: from, to, step)"));
  EXPECT_TRUE(Contains(text, "/sweep/grid/seed: seeds are not a grid key"));
  EXPECT_TRUE(Contains(text, "/sweep/grid/x/1: duplicate value 1"));
}

TEST(SweepSection, SeedsMustBeACountOrDistinctSeeds) {
  for (const char* bad : {R"({"seeds": -1})", R"({"seeds": 1.5})", R"({"seeds": []})",
                          R"({"seeds": [1, 1]})", R"({"seeds": [-3]})", R"({"seeds": "3"})"}) {
    Diagnostics diags;
    EXPECT_FALSE(check_doc(with_sweep(bad), diags)) << bad;
    ASSERT_EQ(diags.count(), 1u) << bad << "\n" << diags.format();
    EXPECT_EQ(diags.items()[0].json_path.rfind("/sweep/seeds", 0), 0u) << bad;
  }
  Diagnostics diags;
  EXPECT_FALSE(check_doc(with_sweep("[1]"), diags));
  EXPECT_EQ(error_paths(diags), Paths{"/sweep"});
}

TEST(SweepSection, LongListsAreBoundedAndRepeatsFoundAsJsonCompares) {
  Json doc = minimal_doc();
  Json values = Json::array();
  for (int i = 0; i <= 10000; ++i) values.push_back(i);
  doc["sweep"]["grid"]["runs.bsp.x"] = values;
  Json seeds = Json::array();
  for (int i = 0; i <= 100000; ++i) seeds.push_back(i);
  doc["sweep"]["seeds"] = seeds;
  Diagnostics diags;
  EXPECT_FALSE(check_doc(doc, diags));
  const std::string text = diags.format();
  EXPECT_TRUE(Contains(text,
                       "/sweep/grid/runs.bsp.x: 10001 values, more than 10000 (accepted: at "
                       "most 10000 values per key)"))
      << text;
  EXPECT_TRUE(Contains(text,
                       "/sweep/seeds: 100001 seeds (accepted: an integer count in [1, "
                       "100000] or an array of 1 to 100000 distinct seeds"))
      << text;
  // 1 and 1.0 are one value, as nlohmann compares them; "1" is another.
  Diagnostics repeat;
  EXPECT_FALSE(check_doc(with_sweep(R"({"grid": {"x": [1, "1", 1.0]}})"), repeat));
  EXPECT_EQ(error_paths(repeat), Paths{"/sweep/grid/x/2"}) << repeat.format();
}

TEST(SweepSection, SetCanChangeTheSweep) {
  Diagnostics diags;
  const auto s = check_doc(with_sweep(R"({"seeds": 2})"), diags, {"sweep.seeds=5"});
  ASSERT_TRUE(s) << diags.format();
  EXPECT_EQ(s->sweep->seed_count, 5);
}

}  // namespace
}  // namespace hermes::scenario
