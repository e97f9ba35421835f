// Loading valid scenarios: defaults, worker expansion, host names, resolved document.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "sim/scenario/run_names.h"
#include "tests/scenario/scenario_test_util.h"

namespace hermes::scenario {
namespace {

using namespace testing;  // the scenario test helpers (scenario_test_util.h)

TEST(ScenarioLoad, DemoExampleResolvesEveryNodeAndDefault) {
  Diagnostics diags("demo.json");
  const auto s = check_scenario_text(read_file(example_path("demo.json")), {}, HERMES_SOURCE_DIR,
                                     diags, &test_catalog());
  ASSERT_TRUE(s) << diags.format();
  EXPECT_EQ(s->name, "demo");
  EXPECT_EQ(s->seed, 42u);
  EXPECT_EQ(s->catalog_path, std::string(HERMES_SOURCE_DIR) + "/scenarios/profiles/azure.json");

  // PS first, then the groups expanded in order with consecutive host names.
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"ps", "DS3_v2"}, {"w0", "B1ms"},   {"w1", "B1ms"},  {"w2", "DS2_v2"},
      {"w3", "DS2_v2"}, {"w4", "F4s_v2"}, {"w5", "F4s_v2"}};
  ASSERT_EQ(s->nodes.size(), expected.size());
  EXPECT_EQ(s->worker_count(), 6u);
  const std::vector<int> groups = {-1, 0, 0, 1, 1, 2, 2};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(s->nodes[i].host, expected[i].first);
    EXPECT_EQ(s->nodes[i].profile.name, expected[i].second);
    EXPECT_EQ(s->nodes[i].group, groups[i]);
  }
  EXPECT_TRUE(s->nodes[0].is_ps());
  EXPECT_FALSE(s->nodes[1].is_ps());
  // Profile numbers come from the catalog (the test catalog's made-up values).
  EXPECT_EQ(s->nodes[1].profile.nic_mbps, 250);
  ASSERT_TRUE(s->nodes[1].profile.burst);
  EXPECT_EQ(s->nodes[1].profile.burst->baseline_pct, 20);
  EXPECT_EQ(s->nodes[5].profile.compute.gflops, 3.5);
  EXPECT_FALSE(s->nodes[5].profile.burst);

  EXPECT_EQ(s->network.topology, "star");
  EXPECT_EQ(s->network.star_latency, 100 * engine::kMicrosecond);
  EXPECT_EQ(s->dataset.name, "mnist");
  EXPECT_EQ(s->model.name, "mlp");

  // Given values and filled defaults.
  EXPECT_EQ(s->training.learning_rate, 0.1);
  EXPECT_EQ(s->training.batch_size, 16);
  EXPECT_EQ(s->training.local_epochs, 5);
  EXPECT_EQ(s->training.chunk_size, 2500);
  EXPECT_EQ(s->training.train_fraction, 0.85);
  EXPECT_EQ(s->training.chunking, Chunking::kRandom);
  EXPECT_EQ(s->training.stop.patience, 25);
  EXPECT_EQ(s->training.stop.max_sim_time, 36000 * engine::kSecond);
  EXPECT_EQ(s->training.stop.max_iterations, 200000);

  ASSERT_EQ(s->runs.size(), 1u);
  EXPECT_EQ(s->runs[0].name, "demo");
  EXPECT_EQ(s->runs[0].protocol, Protocol::kDemo);
  EXPECT_EQ(s->runs[0].demo_iterations, 400);
  EXPECT_FALSE(s->outputs.dir);
  EXPECT_TRUE(s->outputs.timeline);

  // The resolved document carries the filled-in defaults.
  EXPECT_EQ(s->document["profiles"], "scenarios/profiles/azure.json");
  EXPECT_EQ(s->document["training"]["train_fraction"], 0.85);
  EXPECT_EQ(s->document["training"]["stop"]["patience"], 25);
  EXPECT_EQ(s->document["cluster"]["workers"][0]["count"], 2);
}

TEST(ScenarioLoad, DemoExampleLoadsWithTheShippedCatalog) {
  // Only the structure: the shipped catalog's numbers belong to the cluster module.
  const Scenario s = load_scenario(example_path("demo.json"), {}, HERMES_SOURCE_DIR);
  ASSERT_EQ(s.nodes.size(), 7u);
  EXPECT_EQ(s.nodes[0].profile.name, "DS3_v2");
  EXPECT_EQ(s.nodes[6].host, "w5");
  EXPECT_EQ(s.nodes[6].profile.name, "F4s_v2");
  EXPECT_GT(s.nodes[6].profile.nic_mbps, 0);
}

TEST(ScenarioLoad, MinimalDocumentGetsEveryDefault) {
  Diagnostics diags;
  const auto s = check_doc(minimal_doc(), diags);
  ASSERT_TRUE(s) << diags.format();
  EXPECT_EQ(s->seed, defaults::kSeed);
  EXPECT_EQ(s->description, "");
  EXPECT_EQ(s->network.topology, "star");
  EXPECT_EQ(s->network.star_latency, 100 * engine::kMicrosecond);
  EXPECT_EQ(s->dataset.name, "mnist");
  EXPECT_EQ(s->model.name, "mlp");
  EXPECT_EQ(s->runs[0].name, "bsp");
  EXPECT_FALSE(s->runs[0].dynamic_allocation);

  // The price list's SHA-256 is checked in prices_section_test.cc: it changes with the list.
  Json expected = Json::parse(R"({
    "name": "t", "seed": 1, "profiles": "scenarios/profiles/azure.json", "accounting": "clean",
    "cluster": {"ps": {"profile": "DS3_v2", "pricing": "pay-as-you-go"},
                "workers": [{"profile": "B1ms", "count": 2, "pricing": "pay-as-you-go"},
                            {"profile": "DS2_v2", "count": 1, "pricing": "pay-as-you-go"}]},
    "prices": {"file": "scenarios/profiles/azure-prices.json", "sha256": "?"},
    "network": {"topology": "star", "latency_us": 100},
    "dataset": {"name": "mnist"},
    "model": {"name": "mlp"},
    "training": {"learning_rate": 0.1, "batch_size": 16, "local_epochs": 5, "chunk_size": 2500,
                 "train_fraction": 0.85, "chunking": "random", "epoch_order": "reshuffle",
                 "drop_first_row": false, "t_med": "first-times",
                 "stop": {"patience": 25, "patience_unit": "evaluations", "max_sim_time_s": 36000,
                          "max_iterations": 200000, "divergence_factor": 2,
                          "reported_accuracy": "best-loss"}},
    "runs": [{"name": "bsp", "protocol": "bsp", "dynamic_allocation": false}],
    "transfers": {"chunk_delay_s": 0, "chunk_encoding": "float32", "update_encoding": "float32",
                  "model_encoding": "float32", "model_after_evaluation": false},
    "api": {"counting": "calls", "poll_interval_ms": 1, "flags_per_iteration": 1,
            "logs_per_iteration": 1},
    "outputs": {"timeline": true}
  })");
  expected["prices"]["sha256"] = s->prices.sha256;
  EXPECT_EQ(s->document, expected) << s->document.dump(2);
  // Integral defaults are written as integers, as a person would write them.
  EXPECT_EQ(s->document["network"]["latency_us"].dump(), "100");
  EXPECT_EQ(s->document["training"]["learning_rate"].dump(), "0.1");
  // Schema order, not alphabetical order.
  EXPECT_EQ(s->document.begin().key(), "name");
}

TEST(ScenarioLoad, ResolvedDocumentLoadsBackToItself) {
  Json doc = minimal_doc();
  doc["runs"] = Json::parse(R"([
    {"protocol": "hermes", "alpha": -1.6, "beta": 0.15},
    {"protocol": "ssp", "staleness": 3},
    {"protocol": "ebsp"},
    {"protocol": "asp", "dynamic_allocation": true},
    {"protocol": "demo", "iterations": 4}
  ])");
  doc["network"] = Json::parse(R"({"topology": "custom", "switches": ["s0"], "links": [
    {"a": "ps", "b": "s0", "bandwidth_mbps": 10000},
    {"a": "w0", "b": "s0"}, {"a": "w1", "b": "s0", "latency_us": 7}, {"a": "w2", "b": "s0"}]})");
  doc["cluster"]["workers"][1]["overrides"] = Json::parse(R"({"nic_mbps": 123})");
  Diagnostics diags;
  const auto first = check_doc(doc, diags);
  ASSERT_TRUE(first) << diags.format();
  const auto second = check_doc(first->document, diags);
  ASSERT_TRUE(second) << diags.format();
  EXPECT_EQ(second->document, first->document);
  ASSERT_EQ(second->runs.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(second->runs[i].name, first->runs[i].name);
  EXPECT_EQ(second->nodes[3].profile.nic_mbps, 123);
}

// What `run` writes as scenario.json loads again, to the same document, for every shipped
// scenario: no key is recorded that the loader would then refuse (a key read only under another's
// value, written with its default).
TEST(ScenarioLoad, EveryShippedScenariosResolvedDocumentLoadsBackToItself) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(
           std::string(HERMES_SOURCE_DIR) + "/scenarios")) {
    const std::string p = entry.path().string();
    if (entry.path().extension() != ".json" || p.find("/profiles/") != std::string::npos ||
        p.find("invalid") != std::string::npos) {
      continue;
    }
    files.push_back(p);
  }
  ASSERT_GT(files.size(), 20u);
  for (const auto& f : files) {
    Diagnostics diags;
    const auto first = check_scenario(f, {}, HERMES_SOURCE_DIR, diags);
    ASSERT_TRUE(first) << f << "\n" << diags.format();
    Diagnostics again;
    const auto second = check_scenario_text(first->document.dump(2), {}, HERMES_SOURCE_DIR, again);
    ASSERT_TRUE(second) << f << "\n" << again.format();
    EXPECT_EQ(second->document, first->document) << f;
  }
}

TEST(ScenarioLoad, RunsKeepFileOrderAndTypedParameters) {
  Json doc = minimal_doc();
  doc["runs"] = Json::parse(R"([
    {"name": "zeta", "protocol": "asp"},
    {"name": "alpha", "protocol": "hermes", "alpha": -0.9, "beta": 0, "lambda": 1, "window": 2,
     "variant": "paper", "gup": false, "dynamic_allocation": false, "loss_weighting": false},
    {"name": "mid", "protocol": "ssp", "staleness": 0, "dynamic_allocation": true},
    {"name": "b", "protocol": "ebsp", "lookahead": 1}
  ])");
  Diagnostics diags;
  const auto s = check_doc(doc, diags);
  ASSERT_TRUE(s) << diags.format();
  ASSERT_EQ(s->runs.size(), 4u);
  EXPECT_EQ(s->runs[0].name, "zeta");
  EXPECT_EQ(s->runs[1].name, "alpha");
  EXPECT_EQ(s->runs[2].name, "mid");
  EXPECT_EQ(s->runs[3].name, "b");
  EXPECT_EQ(s->document["runs"][2]["name"], "mid");

  const RunSpec& h = s->runs[1];
  EXPECT_EQ(h.protocol, Protocol::kHermes);
  EXPECT_EQ(h.hermes.alpha, -0.9);
  EXPECT_EQ(h.hermes.beta, 0.0);
  EXPECT_EQ(h.hermes.lambda, 1);
  EXPECT_EQ(h.hermes.window, 2);
  EXPECT_EQ(h.hermes.variant, HermesVariant::kPaper);
  EXPECT_FALSE(h.hermes.gup);
  EXPECT_FALSE(h.dynamic_allocation);
  EXPECT_FALSE(h.hermes.loss_weighting);
  EXPECT_EQ(s->runs[2].protocol, Protocol::kSsp);
  EXPECT_EQ(s->runs[2].staleness, 0);
  EXPECT_TRUE(s->runs[2].dynamic_allocation);
  EXPECT_EQ(s->runs[3].lookahead, 1);
}

TEST(ScenarioLoad, HermesDefaultsAreTheReference) {
  Json doc = minimal_doc();
  doc["runs"] = Json::parse(R"([{"protocol": "hermes"}])");
  Diagnostics diags;
  const auto s = check_doc(doc, diags);
  ASSERT_TRUE(s) << diags.format();
  const RunSpec& r = s->runs[0];
  EXPECT_EQ(r.name, "hermes-1.3");
  EXPECT_EQ(r.hermes.alpha, -1.3);
  EXPECT_EQ(r.hermes.beta, 0.1);
  EXPECT_EQ(r.hermes.lambda, 5);
  EXPECT_EQ(r.hermes.window, 10);
  EXPECT_EQ(r.hermes.variant, HermesVariant::kReference);
  EXPECT_TRUE(r.hermes.gup);
  EXPECT_TRUE(r.dynamic_allocation);
  EXPECT_TRUE(r.hermes.loss_weighting);
}

TEST(ScenarioLoad, DefaultRunNamesNameTheDistinguishingParameters) {
  const auto name = [](const char* run) { return default_run_name(Json::parse(run)).value(); };
  EXPECT_EQ(name(R"({"protocol": "bsp"})"), "bsp");
  EXPECT_EQ(name(R"({"protocol": "asp", "dynamic_allocation": true})"), "asp-dyn");
  EXPECT_EQ(name(R"({"protocol": "ssp"})"), "ssp-125");
  EXPECT_EQ(name(R"({"protocol": "ssp", "staleness": 4})"), "ssp-4");
  EXPECT_EQ(name(R"({"protocol": "ebsp", "lookahead": 20})"), "ebsp-20");
  EXPECT_EQ(name(R"({"protocol": "asp", "async_update": "average"})"), "asp-avg");
  EXPECT_EQ(name(R"({"protocol": "ssp", "async_update": "add"})"), "ssp-125");
  EXPECT_EQ(name(R"({"protocol": "ebsp", "async_update": "average", "dynamic_allocation": true})"),
            "ebsp-150-avg-dyn");
  EXPECT_EQ(name(R"({"protocol": "hermes", "alpha": -1.6, "beta": 0.15})"), "hermes-1.6-b0.15");
  EXPECT_EQ(name(R"({"protocol": "hermes", "variant": "paper", "gup": false,
                     "dynamic_allocation": false, "loss_weighting": false, "window": 4,
                     "lambda": 2})"),
            "hermes-1.3-l2-w4-paper-nogup-nodyn-nolw");
  EXPECT_EQ(name(R"({"protocol": "demo", "iterations": 3})"), "demo");
  EXPECT_FALSE(default_run_name(Json::parse(R"({"protocol": "nope"})")));
  EXPECT_FALSE(default_run_name(Json::parse(R"({"alpha": -1})")));
}

TEST(ScenarioLoad, ProfilesResolveByAzureNameIgnoringCaseAndOverridesApplyPerGroup) {
  Json doc = minimal_doc();
  doc["cluster"]["workers"][0]["profile"] = "standard_b1ms";
  doc["cluster"]["workers"][0]["overrides"] =
      Json::parse(R"({"nic_mbps": 100, "compute": {"gflops": 0.5}, "burst": null})");
  Diagnostics diags;
  const auto s = check_doc(doc, diags);
  ASSERT_TRUE(s) << diags.format();
  for (int i : {1, 2}) {
    EXPECT_EQ(s->nodes[i].profile.name, "B1ms");
    EXPECT_EQ(s->nodes[i].profile.nic_mbps, 100);
    EXPECT_EQ(s->nodes[i].profile.compute.gflops, 0.5);
    EXPECT_EQ(s->nodes[i].profile.compute.step_overhead_us, 6500);  // untouched
    EXPECT_FALSE(s->nodes[i].profile.burst);
  }
  EXPECT_EQ(s->nodes[3].profile.nic_mbps, 1500);  // another group: catalog value
  const auto hosts = network_hosts(s->nodes);
  ASSERT_EQ(hosts.size(), 4u);
  EXPECT_EQ(hosts[0].name, "ps");
  EXPECT_EQ(hosts[0].nic_mbps, 3000);
  EXPECT_EQ(hosts[2].name, "w1");
  EXPECT_EQ(hosts[2].nic_mbps, 100);
}

TEST(ScenarioLoad, ZeroCountGroupsExpandToNothing) {
  Json doc = minimal_doc();
  doc["cluster"]["workers"][0]["count"] = 0;
  Diagnostics diags;
  const auto s = check_doc(doc, diags);
  ASSERT_TRUE(s) << diags.format();
  ASSERT_EQ(s->nodes.size(), 2u);
  EXPECT_EQ(s->nodes[1].host, "w0");
  EXPECT_EQ(s->nodes[1].profile.name, "DS2_v2");
  EXPECT_EQ(s->nodes[1].group, 1);
}

TEST(ScenarioLoad, CustomNetworkBecomesLinkSpecs) {
  Json doc = minimal_doc();
  doc["network"] = Json::parse(R"({"topology": "custom", "switches": ["s0", "s1"], "links": [
    {"a": "ps", "b": "s0", "bandwidth_mbps": 10000, "latency_us": 50},
    {"a": "s0", "b": "s1", "bandwidth_mbps": 40000, "latency_us": 2.5},
    {"a": "w0", "b": "s1"}, {"a": "w1", "b": "s1"}, {"a": "w2", "b": "s0", "latency_us": 0}]})");
  Diagnostics diags;
  const auto s = check_doc(doc, diags);
  ASSERT_TRUE(s) << diags.format();
  EXPECT_EQ(s->network.topology, "custom");
  EXPECT_EQ(s->network.switches, (std::vector<std::string>{"s0", "s1"}));
  ASSERT_EQ(s->network.links.size(), 5u);
  EXPECT_EQ(s->network.links[0].a, "ps");
  EXPECT_EQ(s->network.links[0].bandwidth_mbps, 10000);
  EXPECT_EQ(s->network.links[0].latency, 50 * engine::kMicrosecond);
  EXPECT_EQ(s->network.links[1].latency, 2'500 * engine::kNanosecond);
  EXPECT_FALSE(s->network.links[2].bandwidth_mbps);                    // host end: NIC speed
  EXPECT_EQ(s->network.links[2].latency, 100 * engine::kMicrosecond);  // default
  EXPECT_EQ(s->network.links[4].latency, engine::SimTime{});
}

TEST(ScenarioLoad, SeedCoversTheWholeUint64Range) {
  Json doc = minimal_doc();
  doc["seed"] = std::numeric_limits<std::uint64_t>::max();
  Diagnostics diags;
  auto s = check_doc(doc, diags);
  ASSERT_TRUE(s) << diags.format();
  EXPECT_EQ(s->seed, std::numeric_limits<std::uint64_t>::max());
  doc["seed"] = 0;
  s = check_doc(doc, diags);
  ASSERT_TRUE(s) << diags.format();
  EXPECT_EQ(s->seed, 0u);
}

TEST(ScenarioLoad, OutputsDirAndTimeline) {
  Json doc = minimal_doc();
  doc["outputs"] = Json::parse(R"({"dir": "results/x", "timeline": false})");
  Diagnostics diags;
  const auto s = check_doc(doc, diags);
  ASSERT_TRUE(s) << diags.format();
  EXPECT_EQ(s->outputs.dir, "results/x");
  EXPECT_FALSE(s->outputs.timeline);
}

TEST(ScenarioLoad, LoadScenarioThrowsEveryProblem) {
  try {
    load_scenario(example_path("invalid-five-mistakes.json"), {}, HERMES_SOURCE_DIR);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("invalid-five-mistakes.json: /training/chunk_size: "), std::string::npos)
        << what;
    EXPECT_NE(what.find("/runs/1/alpha"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace hermes::scenario
