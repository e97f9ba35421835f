// A sweep loads each grid combination once and gives each point its seed (cli/sweep_plan.h): a
// point's files are the bytes `hermes-sim run` writes with the point's --set values, also when
// the seed draws the outages (availability models), which differ from seed to seed.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/sweep/sweep_cli_fixture.h"

namespace hermes::sweep {
namespace {

// The tiny scenario with its DS2_v2 workers failing about every 20 s for about 2 s.
std::string with_outage_model() {
  std::string text = testing::kScenario;
  const std::string runs = "  \"runs\":";
  text.insert(text.find(runs),
              "  \"availability\": {\"models\": [{\"nodes\": {\"group\": 1}, \"kind\": \"crash\", "
              "\"mtbf_h\": 0.005, \"outage\": {\"distribution\": \"exponential\", "
              "\"mean_s\": 2}}]},\n");
  return text;
}

TEST_F(SweepCli, EachPointIsTheRunOfItsValuesAndSeedEvenWhenTheSeedDrawsOutages) {
  const std::string scenario = dir("outages.json");
  std::ofstream(scenario) << with_outage_model();
  const std::string out = dir("seed-points");
  const auto r = run_command(std::string(HERMES_BINARY) + " sweep " + scenario + " --data-dir " +
                             dir("data") + " --out " + out +
                             " --grid runs.hermes.alpha=-0.5,-1 --grid runs.hermes.beta=0.1"
                             " --seed-list 11,12 --jobs 2");
  ASSERT_EQ(r.status, 0) << r.output;
  expect_says(r, "4 points (2 grid keys x 2 seeds)");
  // Point 0001 is alpha -0.5 with seed 12, point 0002 alpha -1 with seed 11.
  const std::pair<const char*, const char*> points[] = {
      {"0001", "--set runs.hermes.alpha=-0.5 --set runs.hermes.beta=0.1 --set seed=12"},
      {"0002", "--set runs.hermes.alpha=-1 --set runs.hermes.beta=0.1 --set seed=11"}};
  for (const auto& [point, sets] : points) {
    const std::string run_dir = dir(std::string("seed-run-") + point);
    const auto run = run_command(std::string(HERMES_BINARY) + " run " + scenario + " --data-dir " +
                                 dir("data") + " --out " + run_dir + " " + sets);
    ASSERT_EQ(run.status, 0) << run.output;
    for (const char* file : {"summary.csv", "global.csv", "workers.csv", "api.csv", "nodes.csv"}) {
      EXPECT_EQ(slurp(out + "/points/" + point + "/" + file), slurp(run_dir + "/" + file))
          << point << " " << file;
    }
    // The same document but for the "sweep" section, which a point leaves out.
    Json run_scenario = Json::parse(slurp(run_dir + "/scenario.json"));
    run_scenario.erase("sweep");
    EXPECT_EQ(slurp(out + "/points/" + point + "/scenario.json"), run_scenario.dump(2) + "\n")
        << point;
  }
  // The seeds draw other outages: the same grid values give other workers' rows.
  EXPECT_NE(slurp(out + "/points/0000/workers.csv"), slurp(out + "/points/0001/workers.csv"));
}

}  // namespace
}  // namespace hermes::sweep
