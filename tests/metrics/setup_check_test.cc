// Is a run the paper's setup (sim/metrics/setup_check): the differences of two resolved scenario
// documents, leaving out what is not the setup.
#include "sim/metrics/setup_check.h"

#include <gtest/gtest.h>

namespace hermes::metrics {
namespace {

using Json = nlohmann::ordered_json;

Json paper() {
  return Json::parse(R"({"name": "paper", "description": "d", "seed": 1,
    "cluster": {"workers": [{"profile": "B1ms", "count": 4}, {"profile": "F4s_v2", "count": 4}]},
    "training": {"learning_rate": 0.1, "stop": {"patience": 25, "max_iterations": 200000}},
    "runs": [{"name": "bsp", "protocol": "bsp"}]})");
}

TEST(SetupCheck, TheSameSetupWithOtherRunsNamesAndSeedsHasNoDifferences) {
  Json run = paper();
  run["name"] = "mine";
  run["description"] = "other";
  run["seed"] = 7;
  run["runs"] = Json::array();
  EXPECT_TRUE(setup_differences(run, paper()).empty());
}

// Prices and pricing tiers change what a run costs, not what it simulates.
TEST(SetupCheck, PricesAndPricingTiersAreNotTheSetup) {
  Json run = paper();
  run["cluster"]["workers"][0]["pricing"] = "spot";
  run["cluster"]["ps"] = {{"profile", "DS3_v2"}, {"pricing", "spot"}};
  run["prices"] = {{"file", "mine.json"}, {"overrides", {{"B1ms", {{"spot", 0.01}}}}}};
  Json base = paper();
  base["cluster"]["ps"] = {{"profile", "DS3_v2"}, {"pricing", "pay-as-you-go"}};
  EXPECT_TRUE(setup_differences(run, base).empty());
  run["cluster"]["ps"]["profile"] = "F4s_v2";  // still a difference
  ASSERT_EQ(setup_differences(run, base).size(), 1u);
  EXPECT_EQ(setup_differences(run, base)[0].pointer, "/cluster/ps/profile");
}

TEST(SetupCheck, WorkersStopRuleAndCapsAreDifferences) {
  Json run = paper();
  run["cluster"]["workers"][0]["count"] = 2;
  run["cluster"]["workers"].erase(1);
  run["training"]["stop"]["max_iterations"] = 40;
  const auto d = setup_differences(run, paper());
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].pointer, "/cluster/workers/0/count");
  EXPECT_EQ(*d[0].run, "2");
  EXPECT_EQ(*d[0].paper, "4");
  EXPECT_EQ(d[1].pointer, "/cluster/workers/1");
  EXPECT_FALSE(d[1].run.has_value());
  EXPECT_EQ(*d[1].paper, R"({"profile":"F4s_v2","count":4})");
  EXPECT_EQ(d[2].pointer, "/training/stop/max_iterations");
  EXPECT_EQ(setup_differences_text(d, 2),
            "cluster.workers.0.count 2 (paper 4), "
            "cluster.workers.1 absent (paper {\"profile\":\"F4s_v2\",\"count\":4}), and 1 more");
}

// JSON Patch appends an array's extra elements at "/-": each is named by its own index (the
// 32-worker scenario's third and fourth groups were "cluster.workers.- absent (paper absent)").
TEST(SetupCheck, NodeGroupsBeyondThePapersAreNamedByTheirIndex) {
  Json run = paper();
  run["cluster"]["workers"].push_back({{"profile", "DS2_v2"}, {"count", 4}});
  run["cluster"]["workers"].push_back({{"profile", "F8s_v2"}, {"count", 2}});
  const auto d = setup_differences(run, paper());
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].pointer, "/cluster/workers/2");
  EXPECT_EQ(*d[0].run, R"({"profile":"DS2_v2","count":4})");
  EXPECT_FALSE(d[0].paper.has_value());
  EXPECT_EQ(d[1].pointer, "/cluster/workers/3");
  EXPECT_EQ(*d[1].run, R"({"profile":"F8s_v2","count":2})");
}

TEST(SetupCheck, AKeyOnlyTheRunHasIsADifference) {
  Json run = paper();
  run["network"] = {{"latency_us", 5}};
  const auto d = setup_differences(run, paper());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].pointer, "/network");
  EXPECT_FALSE(d[0].paper.has_value());
}

}  // namespace
}  // namespace hermes::metrics
