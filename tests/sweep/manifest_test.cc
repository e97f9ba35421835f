// sweep.json: what it records, and which differences refuse a resume.
#include <gtest/gtest.h>

#include "sim/sweep/manifest.h"

namespace hermes::sweep {
namespace {

SweepDefinition definition() {
  SweepDefinition d;
  d.scenario_path = "s.json";
  d.scenario = Json::parse(R"({"name": "s", "seed": 1, "training": {"chunk_size": 60}})");
  d.grid = {parse_grid_option("runs.h.alpha=-1.6,-1.3"), parse_grid_option("runs.h.beta=0.1")};
  d.seeds = {1, 2};
  d.points = expand_points(d.grid, d.seeds);
  return d;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

TEST(Manifest, RecordsScenarioGridSeedsVersionAndPoints) {
  const Json m = make_manifest(definition(), "0.1.0 (abc123)");
  EXPECT_EQ(m["scenario_path"], "s.json");
  EXPECT_EQ(m["scenario"]["training"]["chunk_size"], 60);
  EXPECT_EQ(m["grid"].dump(), R"({"runs.h.alpha":["-1.6","-1.3"],"runs.h.beta":["0.1"]})");
  EXPECT_EQ(m["seeds"].dump(), "[1,2]");
  EXPECT_EQ(m["code_version"], "0.1.0 (abc123)");
  ASSERT_EQ(m["points"].size(), 4u);
  EXPECT_EQ(m["points"][3].dump(), R"({"point":"0003","dir":"points/0003","seed":2,)"
                                   R"("params":{"runs.h.alpha":"-1.3","runs.h.beta":"0.1"}})");
}

TEST(Manifest, SameSweepResumesWhateverTheCodeVersion) {
  const Json a = make_manifest(definition(), "0.1.0 (abc)");
  const Json b = make_manifest(definition(), "0.2.0 (def)");
  EXPECT_TRUE(manifest_differences(a, b).empty()) << joined(manifest_differences(a, b));
}

TEST(Manifest, DifferencesNameWhatDiffers) {
  const Json recorded = make_manifest(definition(), "v");

  SweepDefinition d = definition();
  d.scenario["training"]["chunk_size"] = 70;
  d.scenario["seed"] = 4;
  std::string text = joined(manifest_differences(recorded, make_manifest(d, "v")));
  EXPECT_NE(text.find("scenario document differs at /seed, /training/chunk_size"),
            std::string::npos)
      << text;

  d = definition();
  d.grid[0] = parse_grid_option("runs.h.alpha=-1.6");
  text = joined(manifest_differences(recorded, make_manifest(d, "v")));
  EXPECT_NE(text.find("grid values of runs.h.alpha: -1.6,-1.3 (recorded) vs -1.6 (now)"),
            std::string::npos)
      << text;

  d = definition();
  d.grid.pop_back();
  text = joined(manifest_differences(recorded, make_manifest(d, "v")));
  EXPECT_NE(text.find("grid keys: runs.h.alpha, runs.h.beta (recorded) vs runs.h.alpha (now)"),
            std::string::npos)
      << text;

  d = definition();
  d.seeds = {1, 2, 3};
  text = joined(manifest_differences(recorded, make_manifest(d, "v")));
  EXPECT_NE(text.find("seeds: 1,2 (recorded) vs 1,2,3 (now)"), std::string::npos) << text;
  EXPECT_EQ(manifest_differences(recorded, make_manifest(d, "v")).size(), 1u);
}

}  // namespace
}  // namespace hermes::sweep
