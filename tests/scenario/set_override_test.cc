// --set key.path=value: numbers, strings, objects; arrays by name (greedy, dotted names), by
// index, by default run name, appending; and arguments that cannot be applied.
#include <gtest/gtest.h>

#include "sim/scenario/set_overrides.h"
#include "tests/scenario/scenario_test_util.h"

namespace hermes::scenario {
namespace {

using namespace testing;  // the scenario test helpers (scenario_test_util.h)

Json runs_doc() {
  Json doc = minimal_doc();
  doc["runs"] = Json::parse(R"([
    {"name": "bsp", "protocol": "bsp"},
    {"name": "hermes-1.6", "protocol": "hermes", "alpha": -1.6, "beta": 0.15},
    {"name": "hermes-1.6.x", "protocol": "hermes", "alpha": -1.6},
    {"protocol": "ssp"}
  ])");
  return doc;
}

Scenario load_with(const Json& doc, const std::vector<std::string>& sets) {
  Diagnostics diags;
  auto s = check_doc(doc, diags, sets);
  EXPECT_TRUE(s) << diags.format();
  return s ? std::move(*s) : Scenario{};
}

TEST(SetOverride, NumbersStringsAndBooleans) {
  const Scenario s = load_with(
      minimal_doc(), {"training.learning_rate=0.05", "seed=7", "name=other",
                      "outputs.dir=results/x y", "outputs.timeline=false", "network.latency_us=5"});
  EXPECT_EQ(s.training.learning_rate, 0.05);
  EXPECT_EQ(s.seed, 7u);
  EXPECT_EQ(s.name, "other");
  EXPECT_EQ(s.outputs.dir, "results/x y");
  EXPECT_FALSE(s.outputs.timeline);
  EXPECT_EQ(s.network.star_latency, 5 * engine::kMicrosecond);
  // The resolved document records the overridden values.
  EXPECT_EQ(s.document["training"]["learning_rate"], 0.05);
  EXPECT_EQ(s.document["name"], "other");
}

TEST(SetOverride, NonUtf8AndHostileValuesAreErrorsBeforeAnyRun) {
  Diagnostics diags;
  EXPECT_FALSE(check_doc(minimal_doc(), diags, {"description=caf\xE9"}));
  EXPECT_EQ(only_message(diags),
            "--set 'description=caf\\xE9': not valid UTF-8 (byte 0xE9 at offset 15; accepted: "
            "UTF-8 text)");
  // A value nested too deep, or a number beyond a double, is not JSON: it stays a string, which
  // validation reports as the wrong type.
  Diagnostics deep;
  EXPECT_FALSE(check_doc(minimal_doc(), deep, {"seed=" + std::string(100000, '[')}));
  EXPECT_EQ(error_paths(deep), Paths{"/seed"});
  Diagnostics huge;
  EXPECT_FALSE(check_doc(minimal_doc(), huge, {"seed=1e400"}));
  EXPECT_TRUE(Contains(only_message(huge), "got string"));
  // A key path cannot nest deeper than a document may.
  std::string path = "x";
  for (int i = 0; i < 100; ++i) path += ".x";
  Diagnostics long_path;
  EXPECT_FALSE(check_doc(minimal_doc(), long_path, {path + "=1"}));
  EXPECT_TRUE(Contains(only_message(long_path), "101 segments (accepted: at most 64)"));
}

TEST(SetOverride, LaterSetsWinAndQuotedJsonStaysAString) {
  const Scenario s = load_with(minimal_doc(), {"seed=7", "seed=9", "name=\"quoted\""});
  EXPECT_EQ(s.seed, 9u);
  EXPECT_EQ(s.name, "quoted");
}

TEST(SetOverride, RunByNameGreedilyMatchingDottedNames) {
  const Scenario s = load_with(runs_doc(), {"runs.hermes-1.6.alpha=-1.2",
                                            "runs.hermes-1.6.x.alpha=-0.5", "runs.bsp.name=b2"});
  EXPECT_EQ(s.runs[1].name, "hermes-1.6");
  EXPECT_EQ(s.runs[1].hermes.alpha, -1.2);
  EXPECT_EQ(s.runs[1].hermes.beta, 0.15);
  EXPECT_EQ(s.runs[2].name, "hermes-1.6.x");
  EXPECT_EQ(s.runs[2].hermes.alpha, -0.5);
  EXPECT_EQ(s.runs[0].name, "b2");
}

TEST(SetOverride, RunByIndexAndByDefaultName) {
  const Scenario s =
      load_with(runs_doc(), {"runs.0.dynamic_allocation=true", "runs.ssp-125.staleness=5"});
  EXPECT_TRUE(s.runs[0].dynamic_allocation);
  EXPECT_EQ(s.runs[3].staleness, 5);
  EXPECT_EQ(s.runs[3].name, "ssp-5");  // the default name follows the parameters
}

// Issue 26: a 2-D grid over an unnamed run (`--grid runs.ssp-125.staleness=... --grid
// runs.ssp-125.lookahead...`) failed at the second key, the first having renamed the run. Runs are
// found by the names they had before any override; a name only a later state has still works.
TEST(SetOverride, AnUnnamedRunKeepsAnsweringToItsNameBeforeTheOverrides) {
  const Scenario s =
      load_with(runs_doc(), {"runs.ssp-125.staleness=5", "runs.ssp-125.async_update=average",
                             "runs.ssp-5-avg.dynamic_allocation=true"});
  EXPECT_EQ(s.runs[3].staleness, 5);
  EXPECT_EQ(s.runs[3].async_update, AsyncUpdate::kAverage);
  EXPECT_TRUE(s.runs[3].dynamic_allocation);
  EXPECT_EQ(s.runs[3].name, "ssp-5-avg-dyn");

  Json doc = runs_doc();
  EXPECT_EQ(run_names_of(doc),
            (std::vector<std::string>{"bsp", "hermes-1.6", "hermes-1.6.x", "ssp-125"}));
}

TEST(SetOverride, ObjectsReplaceAndDashAppends) {
  const Scenario s =
      load_with(runs_doc(), {R"(cluster.workers.0={"profile": "F4s_v2", "count": 3})",
                             R"(runs.-={"protocol": "asp"})", "cluster.workers.1.count=2"});
  ASSERT_EQ(s.nodes.size(), 6u);
  EXPECT_EQ(s.nodes[3].profile.name, "F4s_v2");
  EXPECT_EQ(s.nodes[5].profile.name, "DS2_v2");
  ASSERT_EQ(s.runs.size(), 5u);
  EXPECT_EQ(s.runs[4].name, "asp");
}

TEST(SetOverride, MissingIntermediateObjectsAreCreated) {
  const Scenario s =
      load_with(minimal_doc(), {"training.stop.patience=3", "cluster.ps.overrides.nic_mbps=42"});
  EXPECT_EQ(s.training.stop.patience, 3);
  EXPECT_EQ(s.nodes[0].profile.nic_mbps, 42);
}

TEST(SetOverride, KeysTheSchemaDoesNotHaveAreReportedByValidation) {
  Diagnostics diags;
  EXPECT_FALSE(check_doc(minimal_doc(), diags, {"training.lr=0.1", "runs.0.alpha=-1"}));
  EXPECT_EQ(error_paths(diags), (Paths{"/training/lr", "/runs/0/alpha"})) << diags.format();
  // A value the schema rejects is reported like one written in the file.
  Diagnostics range;
  EXPECT_FALSE(check_doc(minimal_doc(), range, {"training.chunk_size=0"}));
  EXPECT_EQ(error_paths(range), Paths{"/training/chunk_size"});
  Diagnostics type;
  EXPECT_FALSE(check_doc(minimal_doc(), type, {"training.batch_size=sixteen"}));
  EXPECT_EQ(error_paths(type), Paths{"/training/batch_size"});
}

TEST(SetOverride, ArgumentsThatCannotBeAppliedNameTheArgument) {
  const struct {
    const char* arg;
    const char* path;
    const char* says;
  } cases[] = {
      {"runs.nosuch.alpha=1", "/runs", "nothing in /runs matches 'nosuch.alpha'"},
      {"runs.7.alpha=-1", "/runs", "index 7 out of range (/runs has 4 elements)"},
      {"seed.value=1", "/seed", "/seed is number 1, not an object or array"},
      {"runs.bsp.protocol.x=1", "/runs/0/protocol", "not an object or array"},
      {"noequals", "", "expected key.path=value"},
      {"=5", "", "empty key path"},
      {"cluster..x=1", "/cluster", "empty key"},
  };
  for (const auto& c : cases) {
    Json doc = runs_doc();
    doc["seed"] = 1;
    const Json before = doc;
    Diagnostics diags;
    EXPECT_FALSE(apply_set_override(doc, c.arg, diags)) << c.arg;
    EXPECT_EQ(doc, before) << c.arg << " changed the document";
    EXPECT_EQ(error_paths(diags), Paths{c.path}) << c.arg;
    const std::string message = only_message(diags);
    EXPECT_TRUE(Contains(message, std::string("--set '") + c.arg + "'"));
    EXPECT_TRUE(Contains(message, c.says));
  }
}

TEST(SetOverride, FailedSetsAndValidationErrorsAreReportedTogether) {
  Diagnostics diags;
  EXPECT_FALSE(check_doc(runs_doc(), diags,
                         {"runs.nosuch.alpha=1", "training.batch_size=0", "runs.3.staleness=-2"}));
  EXPECT_EQ(error_paths(diags), (Paths{"/runs", "/training/batch_size", "/runs/3/staleness"}))
      << diags.format();
}

TEST(SetOverride, NamesListedWhenNoElementMatches) {
  Json doc = runs_doc();
  Diagnostics diags;
  EXPECT_FALSE(apply_set_override(doc, "runs.hermes-1.7.alpha=-1", diags));
  EXPECT_TRUE(Contains(only_message(diags), "names: bsp, hermes-1.6, hermes-1.6.x, ssp-125"));
}

}  // namespace
}  // namespace hermes::scenario
