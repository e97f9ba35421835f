// What a run costs: every node is billed for the time it was allocated (for now the whole run),
// at the hourly price of its pricing tier; summary.csv's cost_usd.
#include "sim/protocols/reporting/run_cost.h"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>

#include "tests/protocols/full_output.h"

namespace hermes::protocols {
namespace {

// The frozen regression's tiny cluster (PS DS3_v2; a B1ms, a DS2_v2 as Spot, an F4s_v2), BSP.
const char* kScenario = R"({
  "name": "tiny", "seed": 11,
  "cluster": {"ps": {"profile": "DS3_v2"},
              "workers": [{"profile": "B1ms"}, {"profile": "DS2_v2", "pricing": "spot"},
                          {"profile": "F4s_v2"}]},
  "training": {"chunk_size": 60, "local_epochs": 1, "batch_size": 16,
               "stop": {"patience": 4, "max_iterations": 15}},
  "runs": [{"name": "bsp", "protocol": "bsp"}]
})";

TEST(RunCost, EveryNodeIsBilledForTheWholeRun) {
  const auto sc = testing::scenario_from_text(kScenario);
  const RunResult r = run_protocol(sc, sc.runs[0], testing::blocks_split());
  ASSERT_GT(r.sim_time, engine::SimTime{});
  ASSERT_EQ(r.billed_time.size(), 4u);  // PS first, then w0 .. w2
  for (const engine::SimTime t : r.billed_time) EXPECT_EQ(t, r.sim_time);
  // DS3_v2 0.293 + B1ms 0.0207 + DS2_v2 Spot 0.01606 + F4s_v2 0.169 USD per hour (the shipped
  // price list).
  const double hours = engine::to_seconds(r.sim_time) / 3600.0;
  EXPECT_DOUBLE_EQ(run_cost_usd(sc, r), hours * (0.293 + 0.0207 + 0.01606 + 0.169));
}

TEST(RunCost, EachHostAtItsOwnPriceForItsOwnBilledTime) {
  auto sc = testing::scenario_from_text(kScenario);
  RunResult r;
  r.billed_time = {engine::from_seconds(3600), engine::from_seconds(1800), engine::SimTime{},
                   engine::from_seconds(7200)};
  EXPECT_DOUBLE_EQ(run_cost_usd(sc, r), 0.293 + 0.5 * 0.0207 + 0 + 2 * 0.169);
  sc.nodes[3].price_per_hour = 1;
  EXPECT_DOUBLE_EQ(run_cost_usd(sc, r), 0.293 + 0.5 * 0.0207 + 2);
}

TEST(RunCost, BilledTimesMustBeOnePerNode) {
  const auto sc = testing::scenario_from_text(kScenario);
  RunResult r;
  r.billed_time.assign(3, engine::from_seconds(1));
  EXPECT_THROW(run_cost_usd(sc, r), std::logic_error);
}

TEST(RunCost, SummaryHasTheCost) {
  const auto sc = testing::scenario_from_text(kScenario);
  std::ostringstream out;
  RunResult r;
  r.sim_time = engine::from_seconds(3600);
  r.billed_time.assign(4, r.sim_time);
  write_summary_csv(out, sc, {FinishedRun{&sc.runs[0], r}});
  std::istringstream csv(out.str());
  std::string header, row;
  std::getline(csv, header);
  std::getline(csv, row);
  auto cell = [](const std::string& line, std::size_t i) {
    std::istringstream in(line);
    std::string c;
    for (std::size_t k = 0; k <= i; ++k) std::getline(in, c, ',');
    return c;
  };
  std::size_t at = 0;
  while (cell(header, at) != "cost_usd" && at < 100) ++at;
  ASSERT_LT(at, 100u) << header;
  EXPECT_EQ(cell(row, at), "0.498760");  // 0.293 + 0.0207 + 0.01606 + 0.169
}

}  // namespace
}  // namespace hermes::protocols
