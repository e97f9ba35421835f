// What a scenario costs (sim/protocols/skeleton/resources.h): durations beyond the exact clock are
// reported at the JSON path that sets them, and memory and time estimates above the limits are
// refused with the option that raises them; the paper's scenarios pass.
#include "sim/protocols/skeleton/resources.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/scenario/scenario.h"

namespace hermes::protocols {
namespace {

using Json = scenario::Json;

const char* const kScenario = R"({
  "name": "r",
  "cluster": {"ps": {"profile": "DS3_v2"},
              "workers": [{"profile": "B1ms", "count": 4}, {"profile": "DS2_v2", "count": 4},
                          {"profile": "F4s_v2", "count": 4}]},
  "runs": [{"protocol": "bsp"}, {"protocol": "hermes"}]
})";

scenario::Scenario load(const std::vector<std::string>& sets, const char* text = kScenario) {
  Diagnostics diags("r.json");
  auto sc = scenario::check_scenario_text(text, sets, HERMES_SOURCE_DIR, diags);
  EXPECT_TRUE(sc) << diags.format();
  return sc ? std::move(*sc) : scenario::Scenario{};
}

Diagnostics check(const scenario::Scenario& sc, ResourceLimits limits = {}) {
  Diagnostics diags("r.json");
  check_resources(sc, limits, false, diags);
  return diags;
}

bool has(const Diagnostics& d, const std::string& path, const std::string& part) {
  for (const auto& i : d.items()) {
    if (i.json_path == path && i.message.find(part) != std::string::npos) return true;
  }
  return false;
}

TEST(Resources, ThePaperScenarioPassesAndIsSmall) {
  const auto sc = load({});
  EXPECT_TRUE(check(sc).ok()) << check(sc).format();
  const ResourceEstimate e = estimate_resources(sc);
  // 12 MLP workers: 4 copies of 109,386 parameters and a chunk index of up to 60,000 samples.
  EXPECT_NEAR(e.per_worker_bytes, 4 * 4 * 109386.0 + 4 * 60000.0, 1);
  EXPECT_NEAR(e.dataset_bytes, 70000.0 * (784 * 4 + 1), 1);
  EXPECT_FALSE(is_large(e));
}

// A worker's optimiser velocity and an error-feedback residual are a copy of the parameters each.
TEST(Resources, MomentumAndErrorFeedbackEachHoldOneMoreCopyPerWorker) {
  const double copy = 4 * 109386.0;
  const ResourceEstimate plain = estimate_resources(load({}));
  const ResourceEstimate momentum = estimate_resources(load({"training.momentum=0.9"}));
  EXPECT_NEAR(momentum.per_worker_bytes - plain.per_worker_bytes, copy, 1);
  const ResourceEstimate feedback =
      estimate_resources(load({"runs.1.compression=\"topk\"", "runs.1.error_feedback=true"}));
  EXPECT_NEAR(feedback.memory_bytes - plain.memory_bytes, 12 * copy, 1);
}

TEST(Resources, ComputeValuesWhoseDurationsOverflowAreReportedWhereTheyAreSet) {
  const auto sc = load({R"(cluster.workers.0.overrides={"compute": {"gflops": 1e-300}})",
                        R"(cluster.workers.1.overrides={"compute": {"step_overhead_us": 1e15}})",
                        "cluster.ps.overrides.nic_mbps=1e-300"});
  const Diagnostics d = check(sc);
  EXPECT_EQ(d.count(), 3u) << d.format();
  EXPECT_TRUE(has(d, "/cluster/workers/0/overrides/compute",
                  "an iteration of up to 60000 samples x 5 local epochs takes up to"))
      << d.format();
  EXPECT_TRUE(has(d, "/cluster/workers/0/overrides/compute", "gflops 1e-300")) << d.format();
  EXPECT_TRUE(has(d, "/cluster/workers/1/overrides/compute", "step_overhead_us 1e+15"))
      << d.format();
  EXPECT_TRUE(has(d, "/cluster/ps/overrides/nic_mbps", "the link of ps (DS3_v2) at 1e-300"))
      << d.format();
  EXPECT_TRUE(has(d, "/cluster/ps/overrides/nic_mbps", "accepted: a bandwidth for which"));
}

TEST(Resources, AProfileFromTheCatalogIsNamedByItsGroup) {
  // No overrides: the group's profile is what sets the speed.
  auto sc = load({});
  sc.nodes[1].profile.compute.gflops = 1e-300;
  const Diagnostics d = check(sc);
  EXPECT_TRUE(has(d, "/cluster/workers/0/profile", "on B1ms")) << d.format();
}

TEST(Resources, MemoryAndTimeAboveTheLimitsAreRefusedWithTheOptionThatRaisesThem) {
  const auto big = load({"cluster.workers.0.count=9992"});
  Diagnostics d = check(big);
  ASSERT_EQ(d.count(), 1u) << d.format();
  EXPECT_TRUE(has(d, "/cluster/workers",
                  "estimated 20 GB of memory (10000 workers x 2.0 MB + mnist 220 MB"))
      << d.format();
  EXPECT_TRUE(has(d, "/cluster/workers", "above the limit of 16 GB"));
  EXPECT_TRUE(has(d, "/cluster/workers", "raise the limit with --max-memory 21, in GB"));
  EXPECT_TRUE(check(big, {30e9, 24}).ok());
  EXPECT_TRUE(is_large(estimate_resources(big)));
  // A demo of 10000 workers for a million iterations would run for a year.
  const auto demo = load({"runs.0={\"protocol\": \"demo\", \"iterations\": 1000000}",
                          "runs.1={\"protocol\": \"demo\", \"name\": \"d2\"}",
                          "cluster.workers.0.count=9992", "outputs.timeline=false"});
  d = check(demo);
  ASSERT_EQ(d.count(), 1u) << d.format();
  EXPECT_TRUE(has(d, "/runs", "is above the limit of 24 h")) << d.format();
  EXPECT_TRUE(has(d, "/runs", "raise the limit with --max-hours")) << d.format();
}

}  // namespace
}  // namespace hermes::protocols
