// sweep.json: what it records, and which differences refuse a resume.
#include <gtest/gtest.h>

#include "sim/sweep/manifest.h"

namespace hermes::sweep {
namespace {

SweepDefinition definition() {
  SweepDefinition d;
  d.scenario_path = "s.json";
  d.scenario = Json::parse(R"({"name": "s", "seed": 1, "training": {"chunk_size": 60},
                                "runs": [{"name": "bsp"}, {"name": "h"}]})");
  d.grid = {parse_grid_option("runs.h.alpha=-1.6,-1.3"), parse_grid_option("runs.h.beta=0.1")};
  d.seeds = {1, 2};
  d.runs = {"bsp", "h"};
  d.points = expand_points(d.grid, d.seeds);
  return d;
}

BuildInfo build(const std::string& version) {
  return {version, "abc123", "reproducible", "x86-64-v3", "3.4.0", "GCC 12.2.0"};
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

TEST(Manifest, RecordsScenarioGridSeedsBuildAndPoints) {
  const Json m = make_manifest(definition(), build("0.1.0"));
  EXPECT_EQ(m["scenario_path"], "s.json");
  EXPECT_EQ(m["scenario"]["training"]["chunk_size"], 60);
  EXPECT_EQ(m["grid"].dump(), R"({"runs.h.alpha":["-1.6","-1.3"],"runs.h.beta":["0.1"]})");
  EXPECT_EQ(m["seeds"].dump(), "[1,2]");
  EXPECT_EQ(m["runs"].dump(), R"(["bsp","h"])");
  EXPECT_EQ(m["code_version"], "0.1.0 (abc123)");
  EXPECT_EQ(m["build"].dump(),
            R"({"version":"0.1.0","commit":"abc123","math_profile":"reproducible",)"
            R"("math_arch":"x86-64-v3","eigen":"3.4.0","compiler":"GCC 12.2.0"})");
  ASSERT_EQ(m["points"].size(), 4u);
  EXPECT_EQ(m["points"][3].dump(), R"({"point":"0003","dir":"points/0003","seed":2,)"
                                   R"("params":{"runs.h.alpha":"-1.3","runs.h.beta":"0.1"}})");
}

TEST(Manifest, SameSweepResumesWhateverTheCodeVersion) {
  const Json a = make_manifest(definition(), build("0.1.0"));
  BuildInfo other = build("0.2.0");
  other.math_profile = "native";  // refused by SweepDir::open, not a different sweep
  const Json b = make_manifest(definition(), other);
  EXPECT_TRUE(manifest_differences(a, b).empty()) << joined(manifest_differences(a, b));
}

TEST(Manifest, WithoutBuildIsWhatEveryRankMustAgreeOn) {
  Json a = make_manifest(definition(), build("0.1.0"));
  a["mixed_math"] = Json::array({{{"math_profile", "native"}, {"math_arch", "x"}}});
  BuildInfo other = build("0.2.0");
  other.math_profile = "native";
  const Json stripped = without_build(a);
  EXPECT_EQ(stripped, without_build(make_manifest(definition(), other)));
  EXPECT_FALSE(stripped.contains("build"));
  EXPECT_FALSE(stripped.contains("code_version"));
  EXPECT_FALSE(stripped.contains("mixed_math"));
  EXPECT_EQ(stripped["seeds"], a["seeds"]);
}

TEST(Manifest, DifferencesNameWhatDiffers) {
  const Json recorded = make_manifest(definition(), build("v"));

  SweepDefinition d = definition();
  d.scenario["training"]["chunk_size"] = 70;
  d.scenario["seed"] = 4;
  std::string text = joined(manifest_differences(recorded, make_manifest(d, build("v"))));
  EXPECT_NE(text.find("scenario document differs at /seed, /training/chunk_size"),
            std::string::npos)
      << text;

  d = definition();
  d.grid[0] = parse_grid_option("runs.h.alpha=-1.6");
  text = joined(manifest_differences(recorded, make_manifest(d, build("v"))));
  EXPECT_NE(text.find("grid values of runs.h.alpha: -1.6,-1.3 (recorded) vs -1.6 (now)"),
            std::string::npos)
      << text;

  d = definition();
  d.grid.pop_back();
  text = joined(manifest_differences(recorded, make_manifest(d, build("v"))));
  EXPECT_NE(text.find("grid keys: runs.h.alpha, runs.h.beta (recorded) vs runs.h.alpha (now)"),
            std::string::npos)
      << text;

  d = definition();
  d.seeds = {1, 2, 3};
  text = joined(manifest_differences(recorded, make_manifest(d, build("v"))));
  EXPECT_NE(text.find("seeds: 1,2 (recorded) vs 1,2,3 (now)"), std::string::npos) << text;
  EXPECT_EQ(manifest_differences(recorded, make_manifest(d, build("v"))).size(), 1u);

  d = definition();
  d.runs = {"h"};
  text = joined(manifest_differences(recorded, make_manifest(d, build("v"))));
  EXPECT_EQ(text, "runs (--runs): bsp,h (recorded) vs h (now)\n");
}

TEST(Manifest, AManifestFromBeforeRunsWereRecordedRanEveryRun) {
  Json old = make_manifest(definition(), build("v"));
  old.erase("runs");
  EXPECT_TRUE(manifest_differences(old, make_manifest(definition(), build("v"))).empty());
  SweepDefinition d = definition();
  d.runs = {"bsp"};
  EXPECT_EQ(joined(manifest_differences(old, make_manifest(d, build("v")))),
            "runs (--runs): bsp,h (recorded) vs bsp (now)\n");
}

}  // namespace
}  // namespace hermes::sweep
