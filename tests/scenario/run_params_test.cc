// The run-parameter declarations (sim/scenario/run_params.h) against what derives from them or
// must agree with them: the README's table of run keys, RunSpec's own defaults, and the two run
// name builders (typed and lenient).
#include "sim/scenario/run_params.h"

#include <set>
#include <string>

#include <gtest/gtest.h>

#include "scenario_test_util.h"
#include "sim/scenario/run_names.h"

namespace hermes::scenario {
namespace {

// The README's table cannot drift from the declarations.
TEST(RunParams, ReadmeTableIsTheDeclarations) {
  testing::expect_readme_table("run keys", run_keys_table(),
                               "sim/scenario/run_params.cc and the protocols' descriptors");
}

// RunSpec's initializers (used by code and tests that build a RunSpec by hand) are the declared
// defaults; the one exception is dynamic_allocation, whose RunSpec default is the baselines'.
TEST(RunParams, RunSpecDefaultsAreTheDeclaredOnes) {
  // A field's default in RunSpec is its declaration's; a parameter without a field (RunSpec::own)
  // gets its declared default from default_run.
  const RunSpec plain;
  for (const RunParam& p : run_param_table()) {
    if (p.key == "dynamic_allocation" && p.taken_by(Protocol::kHermes)) continue;
    if (p.field.get == nullptr) {
      EXPECT_EQ(plain.own.count(std::string(p.key)), 0u) << p.key;
      for (const std::string& name : protocol_names()) {
        const Protocol protocol = *parse_protocol(name);
        if (p.taken_by(protocol)) {
          EXPECT_EQ(p.value(default_run(protocol)), p.fallback) << p.key;
        }
      }
      continue;
    }
    EXPECT_EQ(p.value(plain), p.fallback) << p.key;
  }
  EXPECT_TRUE(default_run(Protocol::kHermes).dynamic_allocation);
  EXPECT_FALSE(default_run(Protocol::kAsp).dynamic_allocation);
}

TEST(RunParams, DeclarationsAreConsistent) {
  for (const std::string& name : protocol_names()) {
    std::set<std::string_view> keys;
    for (const RunParam* p : params_of(*parse_protocol(name))) {
      EXPECT_TRUE(keys.insert(p->key).second) << name << " declares " << p->key << " twice";
    }
  }
  for (const RunParam& p : run_param_table()) {
    EXPECT_NE(p.protocols, 0u) << p.key;
    EXPECT_FALSE(p.help.empty()) << p.key;
    if (p.type == ParamType::kInt || p.type == ParamType::kNumber) {
      EXPECT_TRUE(p.range.contains(p.fallback)) << p.key;
    }
    if (p.type == ParamType::kChoice) {
      EXPECT_LT(p.fallback, static_cast<double>(p.choices.size())) << p.key;
    }
    if (p.name == NameForm::kFlag || p.name == NameForm::kIfChanged) {
      EXPECT_FALSE(p.name_text.empty()) << p.key;
    }
  }
}

// Runs as the paper's scenarios write them, and every switch away from its default.
TEST(RunParams, LenientNameIsTheNameOfTheValidatedRun) {
  const std::vector<std::pair<std::string, std::string>> runs = {
      {R"({"protocol": "bsp"})", "bsp"},
      {R"({"protocol": "bsp", "dynamic_allocation": true})", "bsp-dyn"},
      {R"({"protocol": "asp", "async_update": "average", "dynamic_allocation": true})",
       "asp-avg-dyn"},
      {R"({"protocol": "ssp"})", "ssp-125"},
      {R"({"protocol": "ssp", "staleness": 0, "async_update": "add"})", "ssp-0"},
      {R"({"protocol": "ebsp", "lookahead": 7})", "ebsp-7"},
      {R"({"protocol": "hermes"})", "hermes-1.3"},
      {R"({"protocol": "hermes", "alpha": -1.6, "beta": 0.15})", "hermes-1.6-b0.15"},
      {R"({"protocol": "hermes", "alpha": -1e20, "lambda": 3, "window": 20, "variant": "paper",
           "gup": false, "dynamic_allocation": false, "loss_weighting": false})",
       "hermes-1e_20-l3-w20-paper-nogup-nodyn-nolw"},
      {R"({"protocol": "hermes", "alpha": -1.3000000000000003, "beta": 1e-7})",
       "hermes-1.3000000000000003-b1e-07"},
      {R"({"protocol": "demo", "iterations": 3})", "demo"},
  };
  for (const auto& [text, expected] : runs) {
    const Json run = Json::parse(text);
    EXPECT_EQ(default_run_name(run), expected) << text;
    Json doc = testing::minimal_doc();
    doc["runs"] = Json::array({run});
    Diagnostics diags("t.json");
    const auto sc = testing::check_doc(doc, diags);
    ASSERT_TRUE(sc) << text << "\n" << diags.format();
    EXPECT_EQ(sc->runs.at(0).name, expected) << text;
  }
}

// The lenient builder reads only the run's protocol's keys, as validation does: another
// protocol's key (an error) changes no name.
TEST(RunParams, LenientNameIgnoresAnotherProtocolsKeys) {
  EXPECT_EQ(default_run_name(Json::parse(R"({"protocol": "bsp", "async_update": "average"})")),
            "bsp");
  EXPECT_EQ(default_run_name(Json::parse(R"({"protocol": "hermes", "staleness": 3})")),
            "hermes-1.3");
  EXPECT_EQ(default_run_name(Json::parse(R"({"protocol": "hermes", "beta": "x", "lambda": 2.5})")),
            "hermes-1.3");
  EXPECT_EQ(default_run_name(Json::parse(R"({"protocol": "nope"})")), std::nullopt);
}

}  // namespace
}  // namespace hermes::scenario
