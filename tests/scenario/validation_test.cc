// Every kind of mistake is reported at its JSON pointer, with what is accepted, and all of them
// in one pass.
#include <gtest/gtest.h>

#include <algorithm>

#include "base/string_join.h"
#include "tests/scenario/scenario_test_util.h"

namespace hermes::scenario {
namespace {

using namespace testing;  // the scenario test helpers (scenario_test_util.h)

TEST(ScenarioValidation, FiveMistakesFileReportsExactlyItsFiveMistakes) {
  Diagnostics diags("invalid-five-mistakes.json");
  const auto s = check_scenario_text(read_file(example_path("invalid-five-mistakes.json")), {},
                                     HERMES_SOURCE_DIR, diags, &test_catalog());
  EXPECT_FALSE(s);
  Paths paths = error_paths(diags);
  std::sort(paths.begin(), paths.end());
  EXPECT_EQ(paths, (Paths{"/cluster/workers/1/profile", "/network/links/4/bandwidth_mbps",
                          "/runs/1/alpha", "/training/chunk_size", "/training/learning_rte"}))
      << diags.format();
}

TEST(ScenarioValidation, FiveMistakesFileWithTheShippedCatalogAndFileNames) {
  const std::string path = example_path("invalid-five-mistakes.json");
  Diagnostics diags;
  EXPECT_FALSE(check_scenario(path, {}, HERMES_SOURCE_DIR, diags));
  Paths paths = error_paths(diags);
  std::sort(paths.begin(), paths.end());
  EXPECT_EQ(paths, (Paths{"/cluster/workers/1/profile", "/network/links/4/bandwidth_mbps",
                          "/runs/1/alpha", "/training/chunk_size", "/training/learning_rte"}))
      << diags.format();
  for (const auto& d : diags.items()) EXPECT_EQ(d.file, path);
  EXPECT_EQ(diags.file(), "");  // restored
}

TEST(ScenarioValidation, UnknownKeysListTheAcceptedOnes) {
  Diagnostics diags;
  EXPECT_EQ(errors_after(R"({"seeds": 3})", diags), Paths{"/seeds"});
  EXPECT_TRUE(
      Contains(only_message(diags),
               "unknown key 'seeds' (accepted: name, description, seed, profiles, "
               "accounting, cluster, prices, network, dataset, model, training, runs, transfers, "
               "api, outputs, sweep, events, trace, availability)"));
  EXPECT_EQ(errors_after(R"({"training": {"stop": {"patiense": 3}}})"),
            Paths{"/training/stop/patiense"});
  EXPECT_EQ(errors_after(R"({"cluster": {"ps": {"profile": "DS3_v2", "count": 2}}})"),
            Paths{"/cluster/ps/count"});
  EXPECT_EQ(errors_after(R"({"outputs": {"timelines": true}})"), Paths{"/outputs/timelines"});
  EXPECT_EQ(errors_after(R"({"dataset": {"name": "mnist", "dir": "x"}})"), Paths{"/dataset/dir"});
  EXPECT_EQ(errors_after(R"({"cluster": {"spare": []}})"), Paths{"/cluster/spare"});
}

TEST(ScenarioValidation, WrongTypes) {
  Diagnostics diags;
  EXPECT_EQ(errors_after(R"({"training": {"batch_size": "16"}})", diags),
            Paths{"/training/batch_size"});
  EXPECT_TRUE(Contains(only_message(diags), "expected an integer (batch_size >= 1), got string"));
  EXPECT_EQ(errors_after(R"({"training": {"batch_size": 16.5}})"), Paths{"/training/batch_size"});
  EXPECT_EQ(errors_after(R"({"training": {"learning_rate": true}})"),
            Paths{"/training/learning_rate"});
  EXPECT_EQ(errors_after(R"({"name": 5})"), Paths{"/name"});
  EXPECT_EQ(errors_after(R"({"description": ["x"]})"), Paths{"/description"});
  EXPECT_EQ(errors_after(R"({"training": 3})"), Paths{"/training"});
  EXPECT_EQ(errors_after(R"({"runs": {"protocol": "bsp"}})"), Paths{"/runs"});
  EXPECT_EQ(errors_after(R"({"cluster": {"workers": {"profile": "B1ms"}}})"),
            Paths{"/cluster/workers"});
  EXPECT_EQ(errors_after(R"({"outputs": {"timeline": "yes"}})"), Paths{"/outputs/timeline"});
  EXPECT_EQ(errors_after(R"({"outputs": {"dir": ""}})"), Paths{"/outputs/dir"});
  EXPECT_EQ(errors_after(R"({"profiles": 7})"), Paths{"/profiles"});
}

TEST(ScenarioValidation, SeedMustBeANonNegativeInteger) {
  Diagnostics diags;
  EXPECT_EQ(errors_after(R"({"seed": -1})", diags), Paths{"/seed"});
  EXPECT_TRUE(Contains(only_message(diags), "accepted: an integer in [0, 18446744073709551615]"));
  EXPECT_EQ(errors_after(R"({"seed": 1.5})"), Paths{"/seed"});
  EXPECT_EQ(errors_after(R"({"seed": 1e30})"), Paths{"/seed"});
  EXPECT_EQ(errors_after(R"({"seed": "42"})"), Paths{"/seed"});
  // -0 is the integer 0.
  Diagnostics diags0;
  const auto s = check_scenario_text(R"({"name": "t", "seed": -0,
    "cluster": {"ps": {"profile": "DS3_v2"}, "workers": [{"profile": "B1ms"}]},
    "runs": [{"protocol": "bsp"}]})",
                                     {}, HERMES_SOURCE_DIR, diags0, &testing::test_catalog());
  ASSERT_TRUE(s) << diags0.format();
  EXPECT_EQ(s->seed, 0u);
  EXPECT_EQ(s->document["seed"].dump(), "0");
}

TEST(ScenarioValidation, NamesMustBeUsableAsDirectoryNames) {
  EXPECT_EQ(errors_after(R"({"name": "my demo"})"), Paths{"/name"});
  EXPECT_EQ(errors_after(R"({"name": ".."})"), Paths{"/name"});
  EXPECT_EQ(errors_after(R"({"name": "a/b"})"), Paths{"/name"});
  EXPECT_EQ(errors_after(R"({"runs": [{"name": "x y", "protocol": "bsp"}]})"),
            Paths{"/runs/0/name"});
  Json doc = minimal_doc();
  doc.erase("name");
  Diagnostics diags;
  EXPECT_FALSE(check_doc(doc, diags));
  EXPECT_EQ(error_paths(diags), Paths{"/name"});
  EXPECT_TRUE(Contains(only_message(diags), "missing required key 'name'"));
}

TEST(ScenarioValidation, TrainingRanges) {
  EXPECT_EQ(errors_after(R"({"training": {"chunk_size": 0}})"), Paths{"/training/chunk_size"});
  EXPECT_EQ(errors_after(R"({"training": {"batch_size": 0}})"), Paths{"/training/batch_size"});
  EXPECT_EQ(errors_after(R"({"training": {"local_epochs": 0}})"), Paths{"/training/local_epochs"});
  EXPECT_EQ(errors_after(R"({"training": {"learning_rate": 0}})"),
            Paths{"/training/learning_rate"});
  EXPECT_EQ(errors_after(R"({"training": {"learning_rate": -0.1}})"),
            Paths{"/training/learning_rate"});
  EXPECT_EQ(errors_after(R"({"training": {"train_fraction": 0}})"),
            Paths{"/training/train_fraction"});
  Diagnostics diags;
  EXPECT_EQ(errors_after(R"({"training": {"train_fraction": 1}})", diags),
            Paths{"/training/train_fraction"});
  EXPECT_TRUE(Contains(only_message(diags), "accepted: train_fraction in (0, 1); got 1"));
  EXPECT_EQ(errors_after(R"({"training": {"chunking": "sequential"}})", diags),
            Paths{"/training/chunking"});
  EXPECT_EQ(errors_after(R"({"training": {"stop": {"patience": 0, "max_sim_time_s": 0,
                                                    "max_iterations": 0}}})"),
            (Paths{"/training/stop/patience", "/training/stop/max_sim_time_s",
                   "/training/stop/max_iterations"}));
  EXPECT_EQ(errors_after(R"({"training": {"batch_size": 3000000000}})"),
            Paths{"/training/batch_size"});
}

TEST(ScenarioValidation, BatchMustFitTheTrainingPartOfAChunk) {
  Diagnostics diags;
  // 10 * 0.85 = 8.5 training samples.
  EXPECT_EQ(errors_after(R"({"training": {"chunk_size": 10, "batch_size": 9}})", diags),
            Paths{"/training/batch_size"});
  EXPECT_TRUE(Contains(only_message(diags),
                       "chunk_size 10 * train_fraction 0.85 = 8.5; accepted: batch_size <= "
                       "chunk_size * train_fraction"));
  Json doc = minimal_doc();
  doc["training"] = Json::parse(R"({"chunk_size": 10, "batch_size": 8})");
  Diagnostics ok;
  EXPECT_TRUE(check_doc(doc, ok)) << ok.format();
}

TEST(ScenarioValidation, DatasetAndModelNames) {
  Diagnostics diags;
  EXPECT_EQ(errors_after(R"({"dataset": {"name": "imagenet"}})", diags), Paths{"/dataset/name"});
  EXPECT_TRUE(Contains(only_message(diags),
                       "unknown dataset 'imagenet' (accepted: mnist, fashion-mnist, cifar10, or "
                       "your own with \"format\", \"shape\" and \"classes\")"));
  EXPECT_EQ(errors_after(R"({"model": {"name": "resnet"}})"), Paths{"/model/name"});
}

TEST(ScenarioValidation, EmptyClusterAndUnknownProfiles) {
  Diagnostics diags;
  EXPECT_EQ(errors_after(R"({"cluster": {"workers": []}})", diags), Paths{"/cluster/workers"});
  EXPECT_TRUE(Contains(only_message(diags), "no workers"));
  Json doc = minimal_doc();
  doc["cluster"]["workers"][0]["count"] = 0;
  doc["cluster"]["workers"][1]["count"] = 0;
  Diagnostics zero;
  EXPECT_FALSE(check_doc(doc, zero));
  EXPECT_EQ(error_paths(zero), Paths{"/cluster/workers"});
  EXPECT_EQ(errors_after(R"({"cluster": {"workers": [{"profile": "B1ms", "count": -1}]}})"),
            Paths{"/cluster/workers/0/count"});
  EXPECT_EQ(errors_after(R"({"cluster": {"workers": [{"count": 2}]}})"),
            Paths{"/cluster/workers/0/profile"});
  EXPECT_EQ(errors_after(R"({"cluster": {"ps": null}})"), Paths{"/cluster/ps"});

  Diagnostics unknown;
  EXPECT_EQ(errors_after(R"({"cluster": {"ps": {"profile": "Z9"}}})", unknown),
            Paths{"/cluster/ps/profile"});
  EXPECT_TRUE(Contains(only_message(unknown), "unknown profile 'Z9'"));
  EXPECT_TRUE(Contains(only_message(unknown), "DS3_v2, B1ms, DS2_v2, F4s_v2"));

  Json no_cluster = minimal_doc();
  no_cluster.erase("cluster");
  Diagnostics missing;
  EXPECT_FALSE(check_doc(no_cluster, missing));
  EXPECT_EQ(error_paths(missing), Paths{"/cluster"});
}

TEST(ScenarioValidation, OverridesAreCheckedByTheClusterModule) {
  Json doc = minimal_doc();
  doc["cluster"]["workers"][1]["overrides"] = Json::parse(R"({"nic_mbps": -5, "gpus": 1})");
  Diagnostics diags;
  EXPECT_FALSE(check_doc(doc, diags));
  Paths paths = error_paths(diags);
  std::sort(paths.begin(), paths.end());
  EXPECT_EQ(paths,
            (Paths{"/cluster/workers/1/overrides/gpus", "/cluster/workers/1/overrides/nic_mbps"}))
      << diags.format();
  EXPECT_EQ(errors_after(R"({"cluster": {"ps": {"profile": "DS3_v2", "overrides": 4}}})"),
            Paths{"/cluster/ps/overrides"});
}

TEST(ScenarioValidation, RunsProtocolsAndParameters) {
  Diagnostics diags;
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "gossip"}]})", diags),
            Paths{"/runs/0/protocol"});
  // Every protocol of the descriptors, in their order (a new one needs no edit here).
  const std::string accepted = "accepted: " + join_strings(protocol_names());
  EXPECT_TRUE(Contains(only_message(diags), "unknown protocol 'gossip' (" + accepted + ")"));
  EXPECT_EQ(errors_after(R"({"runs": [{"name": "x"}]})", diags), Paths{"/runs/0/protocol"});
  EXPECT_TRUE(Contains(only_message(diags), accepted));
  // Without a protocol only keys that no protocol accepts are reported.
  EXPECT_EQ(errors_after(R"({"runs": [{"protocl": "bsp", "alpha": 1}]})"),
            (Paths{"/runs/0/protocol", "/runs/0/protocl"}));

  // Parameters of another protocol are unknown keys.
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "hermes", "staleness": 3}]})", diags),
            Paths{"/runs/0/staleness"});
  EXPECT_TRUE(Contains(only_message(diags),
                       "accepted: name, protocol, alpha, beta, lambda, window, variant, gup, "
                       "dynamic_allocation, loss_weighting"));
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "bsp", "alpha": -1}]})"),
            Paths{"/runs/0/alpha"});
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "ssp", "lookahead": 3}]})"),
            Paths{"/runs/0/lookahead"});
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "demo", "dynamic_allocation": true}]})"),
            Paths{"/runs/0/dynamic_allocation"});
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "asp", "iterations": 3}]})"),
            Paths{"/runs/0/iterations"});
  // BSP averages by construction; only the asynchronous baselines choose how to apply.
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "bsp", "async_update": "add"}]})"),
            Paths{"/runs/0/async_update"});
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "hermes", "async_update": "add"}]})"),
            Paths{"/runs/0/async_update"});
}

TEST(ScenarioValidation, ProtocolParameterRanges) {
  Diagnostics diags;
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "hermes", "alpha": 0.5}]})", diags),
            Paths{"/runs/0/alpha"});
  EXPECT_TRUE(Contains(only_message(diags), "accepted: alpha < 0; got 0.5"));
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "hermes", "alpha": 0}]})"),
            Paths{"/runs/0/alpha"});
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "hermes", "beta": 1}]})", diags),
            Paths{"/runs/0/beta"});
  EXPECT_TRUE(Contains(only_message(diags), "accepted: beta in [0, 1)"));
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "hermes", "beta": -0.1}]})"),
            Paths{"/runs/0/beta"});
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "hermes", "lambda": 0}]})"),
            Paths{"/runs/0/lambda"});
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "hermes", "window": 1}]})"),
            Paths{"/runs/0/window"});
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "hermes", "variant": "clean"}]})"),
            Paths{"/runs/0/variant"});
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "hermes", "gup": 1}]})"), Paths{"/runs/0/gup"});
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "ssp", "staleness": -1}]})"),
            Paths{"/runs/0/staleness"});
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "ebsp", "lookahead": 0}]})"),
            Paths{"/runs/0/lookahead"});
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "ssp", "async_update": "mean"}]})", diags),
            Paths{"/runs/0/async_update"});
  EXPECT_TRUE(Contains(only_message(diags), "accepted: add, average, server-lr"));
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "asp", "async_update": 0.5}]})"),
            Paths{"/runs/0/async_update"});
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "demo", "iterations": 0}]})"),
            Paths{"/runs/0/iterations"});
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "asp", "update_unit": "step"}]})", diags),
            Paths{"/runs/0/update_unit"});
  EXPECT_TRUE(Contains(only_message(diags), "accepted: chunk, steps"));
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "bsp", "update_unit": "steps",
                                        "steps_per_update": 0}]})",
                         diags),
            Paths{"/runs/0/steps_per_update"});
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "ssp", "evaluate_every": 0}]})"),
            Paths{"/runs/0/evaluate_every"});
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "asp", "async_update": "server-lr",
                                        "server_lr": -1}]})"),
            Paths{"/runs/0/server_lr"});
}

// Keys that mean something only with another's value: an error at the key, saying what it needs.
TEST(ScenarioValidation, UpdateUnitAndServerStepCombinations) {
  Diagnostics diags;
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "asp", "steps_per_update": 4}]})", diags),
            Paths{"/runs/0/steps_per_update"});
  EXPECT_TRUE(Contains(only_message(diags), "used only with \"update_unit\": \"steps\""));
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "bsp", "update_unit": "steps",
                                        "dynamic_allocation": true}]})",
                         diags),
            Paths{"/runs/0/dynamic_allocation"});
  EXPECT_TRUE(Contains(only_message(diags), "not defined for \"update_unit\": \"steps\""));
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "ssp", "async_update": "server-lr"}]})", diags),
            Paths{"/runs/0/server_lr"});
  EXPECT_TRUE(Contains(only_message(diags), "accepted: a number > 0 and <= 1000"));
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "asp", "async_update": "server-lr",
                                        "server_lr": 0}]})"),
            Paths{"/runs/0/server_lr"});
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "ebsp", "server_lr": 0.1}]})", diags),
            Paths{"/runs/0/server_lr"});
  EXPECT_TRUE(Contains(only_message(diags), "used only with \"async_update\": \"server-lr\""));
  // Hermes pushes by its own rule: the baselines' update unit is an unknown key there.
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "hermes", "update_unit": "steps"}]})"),
            Paths{"/runs/0/update_unit"});
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "hermes", "evaluate_every": 2}]})"),
            Paths{"/runs/0/evaluate_every"});
  // A protocol that has no server step: server_lr is an unknown key, not a key in need of
  // async_update.
  for (const char* p : {"hermes", "selsync"}) {
    EXPECT_EQ(
        errors_after(
            (R"({"runs": [{"protocol": ")" + std::string(p) + R"(", "server_lr": 0.1}]})").c_str(),
            diags),
        Paths{"/runs/0/server_lr"})
        << p;
    EXPECT_TRUE(Contains(only_message(diags), "unknown key 'server_lr'")) << only_message(diags);
  }
  // Accepted together.
  Json doc = minimal_doc();
  doc.merge_patch(Json::parse(R"({"runs": [{"protocol": "asp", "update_unit": "steps",
                                            "steps_per_update": 4, "evaluate_every": 12,
                                            "async_update": "server-lr", "server_lr": 0.05}]})"));
  EXPECT_TRUE(check_doc(doc, diags)) << diags.format();
}

TEST(ScenarioValidation, RunListMustBeNonEmptyWithUniqueNames) {
  Diagnostics diags;
  EXPECT_EQ(errors_after(R"({"runs": []})", diags), Paths{"/runs"});
  EXPECT_TRUE(Contains(only_message(diags), "no runs"));
  Json doc = minimal_doc();
  doc.erase("runs");
  Diagnostics missing;
  EXPECT_FALSE(check_doc(doc, missing));
  EXPECT_EQ(error_paths(missing), Paths{"/runs"});

  // Explicit duplicate: reported at the later run's name.
  EXPECT_EQ(errors_after(R"({"runs": [{"name": "a", "protocol": "bsp"},
                                      {"name": "b", "protocol": "asp"},
                                      {"name": "a", "protocol": "ssp"}]})",
                         diags),
            Paths{"/runs/2/name"});
  EXPECT_TRUE(Contains(only_message(diags), "duplicate run name 'a' (also /runs/0)"));
  // Default names collide: reported at the run (it has no name key).
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "bsp"}, {"protocol": "bsp"}]})"),
            Paths{"/runs/1"});
  EXPECT_EQ(errors_after(R"({"runs": [{"name": "bsp", "protocol": "asp"}, {"protocol": "bsp"}]})"),
            Paths{"/runs/1"});
}

TEST(ScenarioValidation, NetworkProblems) {
  Diagnostics diags;
  EXPECT_EQ(errors_after(R"({"network": {"topology": "ring"}})", diags),
            Paths{"/network/topology"});
  EXPECT_TRUE(Contains(only_message(diags), "accepted: star, custom"));
  EXPECT_EQ(errors_after(R"({"network": {"topology": "star", "links": []}})", diags),
            Paths{"/network/links"});
  EXPECT_TRUE(Contains(only_message(diags), "accepted: topology, latency_us"));
  EXPECT_EQ(errors_after(R"({"network": {"latency_us": -1}})"), Paths{"/network/latency_us"});
  EXPECT_EQ(errors_after(R"({"network": {"topology": "custom"}})"), Paths{"/network/links"});

  Json doc = minimal_doc();
  doc["network"] = Json::parse(R"({"topology": "custom", "switches": ["s0", 5], "links": [
    {"a": "ps", "b": "s0"}, {"a": "w0", "b": "s0", "latency_us": -3}, {"b": "s0"},
    {"a": "w2", "b": "s0", "bandwidth_mbps": "fast", "mtu": 1500}]})");
  Diagnostics shape;
  EXPECT_FALSE(check_doc(doc, shape));
  EXPECT_EQ(error_paths(shape),
            (Paths{"/network/switches/1", "/network/links/1/latency_us", "/network/links/2/a",
                   "/network/links/3/bandwidth_mbps", "/network/links/3/mtu"}))
      << shape.format();
}

TEST(ScenarioValidation, DanglingEndpointsAndUnreachableWorkersComeFromTheNetworkCheck) {
  Json doc = minimal_doc();
  doc["network"] = Json::parse(R"({"topology": "custom", "switches": ["s0"], "links": [
    {"a": "ps", "b": "s0"}, {"a": "w0", "b": "s9"}, {"a": "w1", "b": "s0"}]})");
  Diagnostics diags;
  EXPECT_FALSE(check_doc(doc, diags));
  // w0's link names no switch, so w0 (group 0) cannot reach the PS either; w2 (group 1, the
  // DS2_v2) has no link at all.
  EXPECT_EQ(error_paths(diags),
            (Paths{"/network/links/1/b", "/cluster/workers/0", "/cluster/workers/1"}))
      << diags.format();
  EXPECT_TRUE(Contains(diags.items()[0].message, "\"s9\" names no host or switch"));
  EXPECT_TRUE(Contains(diags.items()[1].message, "\"w0\""));
  EXPECT_TRUE(Contains(diags.items()[2].message, "\"w2\""));
}

TEST(ScenarioValidation, CatalogThatCannotBeLoadedIsOneError) {
  Json doc = minimal_doc();
  doc["profiles"] = "/nonexistent/catalog.json";
  Diagnostics diags;
  EXPECT_FALSE(check_scenario_text(doc.dump(), {}, HERMES_SOURCE_DIR, diags));
  EXPECT_EQ(error_paths(diags), Paths{"/profiles"});
  EXPECT_TRUE(Contains(only_message(diags), "cannot load the profile catalog"));
}

TEST(ScenarioValidation, RelativeCatalogPathResolvesAgainstTheSourceDir) {
  Json doc = minimal_doc();
  doc["profiles"] = "scenarios/profiles/../profiles/azure.json";
  Diagnostics diags;
  const auto s = check_scenario_text(doc.dump(), {}, HERMES_SOURCE_DIR, diags);
  ASSERT_TRUE(s) << diags.format();
  EXPECT_EQ(s->catalog_path, std::string(HERMES_SOURCE_DIR) + "/scenarios/profiles/azure.json");
  EXPECT_EQ(s->document["profiles"], "scenarios/profiles/../profiles/azure.json");
}

TEST(ScenarioValidation, EveryMistakeOfADocumentInOnePass) {
  Diagnostics diags;
  const Paths paths = errors_after(R"({
    "seed": -3, "bogus": 1,
    "training": {"batch_size": 0, "chunk_size": -5, "stop": {"patience": "x"}},
    "runs": [{"protocol": "hermes", "alpha": 2, "window": 0}, {"protocol": "nope"}]
  })",
                                   diags);
  EXPECT_EQ(paths, (Paths{"/seed", "/training/batch_size", "/training/chunk_size",
                          "/training/stop/patience", "/runs/0/alpha", "/runs/0/window",
                          "/runs/1/protocol", "/bogus"}))
      << diags.format();
}

TEST(ScenarioValidation, UpperBoundsAreCheckedWithTheAcceptedRange) {
  Diagnostics diags;
  EXPECT_EQ(errors_after(R"({"training": {"local_epochs": 1000000}})", diags),
            Paths{"/training/local_epochs"});
  EXPECT_TRUE(Contains(only_message(diags), "accepted: local_epochs in [1, 1000]; got 1000000"));
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "ebsp", "lookahead": 100000000}]})", diags),
            Paths{"/runs/0/lookahead"});
  EXPECT_TRUE(Contains(only_message(diags), "accepted: lookahead in [1, 10000]"));
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "hermes", "window": 1000000}]})"),
            Paths{"/runs/0/window"});
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "demo", "iterations": 2000000}]})"),
            Paths{"/runs/0/iterations"});
  // A chunk larger than the dataset's training set is caught here, with the file and path.
  EXPECT_EQ(errors_after(R"({"training": {"chunk_size": 1000000000}})", diags),
            Paths{"/training/chunk_size"});
  EXPECT_TRUE(Contains(only_message(diags),
                       "accepted: chunk_size in [1, 60000], the 60000 "
                       "training samples of mnist; got 1000000000"));
  EXPECT_EQ(errors_after(R"({"dataset": {"name": "cifar10"}, "training": {"chunk_size": 50001}})"),
            Paths{"/training/chunk_size"});
}

TEST(ScenarioValidation, WorkersInAllGroupsTogetherAreBoundedAndNotExpandedBeyond) {
  Json doc = minimal_doc();
  doc["cluster"]["workers"] = Json::array();
  for (int i = 0; i < 1000; ++i) {
    doc["cluster"]["workers"].push_back({{"profile", "B1ms"}, {"count", 10000}});
  }
  Diagnostics diags;
  EXPECT_FALSE(check_doc(doc, diags));
  EXPECT_EQ(error_paths(diags), Paths{"/cluster/workers"});
  EXPECT_TRUE(Contains(only_message(diags),
                       "the cluster has 10000000 workers in all groups "
                       "together (accepted: at most 10000)"));
  doc["cluster"]["workers"] = Json::parse(R"([{"profile": "B1ms", "count": 10000}])");
  Diagnostics ok;
  EXPECT_TRUE(check_doc(doc, ok)) << ok.format();
}

TEST(ScenarioValidation, ACatalogThatIsNoFileSaysWhatItIs) {
  for (const char* path : {"/", "/dev/zero"}) {
    Diagnostics diags;
    Json doc = minimal_doc();
    doc["profiles"] = path;
    EXPECT_FALSE(check_scenario_text(doc.dump(), {}, HERMES_SOURCE_DIR, diags));
    EXPECT_EQ(error_paths(diags), Paths{"/profiles"});
    EXPECT_TRUE(Contains(only_message(diags), std::string("profile catalog '") + path + "' is a " +
                                                  (path[1] ? "character device" : "directory") +
                                                  ", not a regular file"))
        << diags.format();
  }
}

}  // namespace
}  // namespace hermes::scenario
