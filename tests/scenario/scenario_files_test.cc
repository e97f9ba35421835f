// The files a scenario names (profiles, prices.file, trace.file): an absolute path as written, a
// relative one beside the scenario file if it is there, else in the home (scenarios/README.md,
// "Files a scenario names").
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "sim/scenario/scenario.h"
#include "tests/support/run_command.h"
#include "tests/support/scratch_dir.h"

namespace hermes::scenario {
namespace {

namespace fs = std::filesystem;
using hermes::testing::file_text;

std::string source(const std::string& rel) { return std::string(HERMES_SOURCE_DIR) + "/" + rel; }

// scenarios/examples/slowdown.json with its "profiles", "prices" and "trace" keys replaced.
std::string slowdown_with(const std::string& profiles, const std::string& prices,
                          const std::string& trace) {
  auto doc = Json::parse(file_text(source("scenarios/examples/slowdown.json")));
  if (!profiles.empty()) doc["profiles"] = profiles;
  if (!prices.empty()) doc["prices"] = {{"file", prices}};
  doc["trace"] = {{"file", trace}};
  return doc.dump(2);
}

class ScenarioFiles : public hermes::testing::ScratchDirTest {};

TEST_F(ScenarioFiles, RelativeNamesResolveBesideTheScenarioFirst) {
  // A scenario with its own catalog, price list and trace beside it, under names the home lacks.
  fs::copy_file(source("scenarios/profiles/azure.json"), path("mycat.json"));
  fs::copy_file(source("scenarios/profiles/azure-prices.json"), path("myprices.json"));
  put("traces/mine.csv", file_text(source("scenarios/traces/noisy-neighbour.csv")));
  put("s.json", slowdown_with("mycat.json", "myprices.json", "traces/mine.csv"));
  // Loaded from another working directory: the scenario's folder counts, not the current one.
  const Scenario sc = load_scenario(path("s.json"), {}, HERMES_SOURCE_DIR);
  EXPECT_EQ(sc.catalog_path, path("mycat.json"));
  EXPECT_EQ(sc.prices.resolved_path, path("myprices.json"));
  ASSERT_TRUE(sc.trace);
  EXPECT_EQ(sc.trace->resolved_path, path("traces/mine.csv"));
  // Recorded absolute, so that the resolved document loads the same files from anywhere.
  EXPECT_EQ(sc.document["profiles"], path("mycat.json"));
  EXPECT_EQ(sc.document["prices"]["file"], path("myprices.json"));
  EXPECT_EQ(sc.document["trace"]["file"], path("traces/mine.csv"));
  put("elsewhere/scenario.json", sc.document.dump(2));
  const Scenario again = load_scenario(path("elsewhere/scenario.json"), {}, HERMES_SOURCE_DIR);
  EXPECT_EQ(again.document, sc.document);
}

TEST_F(ScenarioFiles, ANameNotBesideTheScenarioResolvesInTheHomeAndKeepsItsText) {
  // The shipped scenarios' form: paths from the repository root, and the default catalog.
  put("s.json", slowdown_with("", "", "scenarios/traces/noisy-neighbour.csv"));
  const Scenario sc = load_scenario(path("s.json"), {}, HERMES_SOURCE_DIR);
  EXPECT_EQ(sc.catalog_path, source("scenarios/profiles/azure.json"));
  ASSERT_TRUE(sc.trace);
  EXPECT_EQ(sc.trace->resolved_path, source("scenarios/traces/noisy-neighbour.csv"));
  EXPECT_EQ(sc.document["profiles"], "scenarios/profiles/azure.json");
  EXPECT_EQ(sc.document["trace"]["file"], "scenarios/traces/noisy-neighbour.csv");
}

TEST_F(ScenarioFiles, BesideTheScenarioWinsOverTheHome) {
  // A trace of the home's name beside the scenario, with one row fewer than the home's.
  std::string rows = file_text(source("scenarios/traces/noisy-neighbour.csv"));
  rows = rows.substr(0, rows.rfind('\n', rows.size() - 2) + 1);
  put("scenarios/traces/noisy-neighbour.csv", rows);
  put("s.json", slowdown_with("", "", "scenarios/traces/noisy-neighbour.csv"));
  const Scenario sc = load_scenario(path("s.json"), {}, HERMES_SOURCE_DIR);
  ASSERT_TRUE(sc.trace);
  EXPECT_EQ(sc.trace->resolved_path, path("scenarios/traces/noisy-neighbour.csv"));
}

TEST_F(ScenarioFiles, AnAbsolutePathIsUsedAsWritten) {
  put("s.json", slowdown_with(source("scenarios/profiles/azure.json"), "",
                              source("scenarios/traces/noisy-neighbour.csv")));
  const Scenario sc = load_scenario(path("s.json"), {}, HERMES_SOURCE_DIR);
  EXPECT_EQ(sc.catalog_path, source("scenarios/profiles/azure.json"));
  EXPECT_EQ(sc.document["profiles"], source("scenarios/profiles/azure.json"));
}

TEST_F(ScenarioFiles, AFileInNeitherPlaceIsAnErrorNamingBoth) {
  put("s.json", slowdown_with("mycat.json", "", "scenarios/traces/noisy-neighbour.csv"));
  try {
    load_scenario(path("s.json"), {}, HERMES_SOURCE_DIR);
    FAIL() << "loaded";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("/profiles: cannot load the profile catalog 'mycat.json' (resolved to " +
                        source("mycat.json") + "; not beside the scenario as " +
                        path("mycat.json") + ", then in hermes-sim's home)"),
              std::string::npos)
        << what;
  }
}

}  // namespace
}  // namespace hermes::scenario
