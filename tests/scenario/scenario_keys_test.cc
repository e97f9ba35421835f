// The declaration tables of the scenario's objects (sim/config/key_table.h, scenario_keys.h):
// the reader reads no key they do not declare (it would throw std::logic_error), and every key
// they declare is read; the "did you mean" of an unknown key, profile or protocol.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "sim/config/object_reader.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/scenario_keys.h"
#include "tests/support/scratch_dir.h"

namespace hermes::scenario {
namespace {

namespace fs = std::filesystem;

// What the shipped scenarios leave out: a custom network, a sweep range, a target accuracy, an
// output directory, price overrides, the run parameters recorded only when given.
constexpr const char* kRest = R"({
  "name": "every-key", "description": "d", "seed": 3, "accounting": "clean",
  "profiles": "scenarios/profiles/azure.json",
  "cluster": {"ps": {"profile": "DS3_v2", "pricing": "spot"},
              "workers": [{"profile": "DS2_v2", "count": 1, "overrides": {"vcpus": 2}}]},
  "prices": {"overrides": {"DS2_v2": {"spot": 0.1}}},
  "network": {"topology": "custom", "switches": ["s0"],
              "links": [{"a": "ps", "b": "s0"},
                        {"a": "w0", "b": "s0", "bandwidth_mbps": 1000, "latency_us": 50}]},
  "training": {"chunk_size": 500, "momentum": 0.9, "weight_decay": 0.0005,
               "stop": {"max_iterations": 10}},
  "runs": [{"name": "b", "protocol": "bsp", "barrier_timeout_s": 5,
            "update_unit": "steps", "steps_per_update": 2},
           {"protocol": "asp", "async_update": "server-lr", "server_lr": 0.1}],
  "outputs": {"dir": "results/every-key", "timeline": false, "target_accuracy": 0.9},
  "sweep": {"grid": {"training.learning_rate": {"from": 0.1, "to": 0.2, "step": 0.1}},
            "seeds": 2}
})";

class ScenarioKeys : public hermes::testing::ScratchDirTest {};

TEST_F(ScenarioKeys, EveryDeclaredKeyIsReadAndNoOtherIs) {
  std::set<std::string> read;
  config::ObjectReader::record_declared_reads(&read);
  put("rest.json", kRest);
  std::vector<std::string> files = {path("rest.json")};
  for (const auto& entry :
       fs::recursive_directory_iterator(std::string(HERMES_SOURCE_DIR) + "/scenarios")) {
    const std::string p = entry.path().string();
    if (entry.path().extension() != ".json" || p.find("/profiles/") != std::string::npos ||
        p.find("invalid") != std::string::npos) {
      continue;
    }
    files.push_back(p);
  }
  for (const auto& f : files) {
    Diagnostics diags;
    // A key read but not declared would throw std::logic_error here.
    EXPECT_TRUE(check_scenario(f, {}, HERMES_SOURCE_DIR, diags)) << f << "\n" << diags.format();
  }
  config::ObjectReader::record_declared_reads(nullptr);
  std::set<std::string> declared;
  for (const config::ObjectDecl* object : scenario_objects()) {
    for (const auto& key : object->keys) declared.insert(object->path + "." + std::string(key.key));
  }
  for (const auto& key : declared) EXPECT_TRUE(read.count(key)) << key << " is never read";
  for (const auto& key : read) EXPECT_TRUE(declared.count(key)) << key;
}

TEST(ScenarioKeysList, NamesEveryDeclaredKeyOnceInSchemaOrder) {
  const auto keys = scenario_keys();
  std::set<std::string> names;
  std::size_t declared = 0;
  for (const config::ObjectDecl* object : scenario_objects()) declared += object->keys.size();
  for (const auto& k : keys) {
    EXPECT_TRUE(names.insert(k.name).second) << k.name << " twice";
    EXPECT_FALSE(k.help.empty()) << k.name;
  }
  EXPECT_EQ(keys.size(), declared);
  ASSERT_FALSE(keys.empty());
  EXPECT_EQ(keys.front().name, "name");
  // A section's keys follow the key that holds it.
  const auto at = [&](const std::string& name) {
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (keys[i].name == name) return i;
    }
    return keys.size();
  };
  EXPECT_EQ(at("training.stop") + 1, at("training.stop.patience"));
  EXPECT_EQ(at("cluster.ps") + 1, at("cluster.ps.profile"));
  EXPECT_LT(at("runs"), at("runs[].protocol"));
  EXPECT_LT(at("runs[].protocol"), at("transfers"));
}

std::string only_message(const std::string& text) {
  Diagnostics diags;
  check_scenario_text(text, {}, HERMES_SOURCE_DIR, diags);
  return diags.format();
}

TEST(ScenarioSuggestions, UnknownKeyProfileAndProtocolNameTheNearest) {
  const std::string base = R"("name": "s", "cluster": {"ps": {"profile": "DS3_v2"},
      "workers": [{"profile": "DS2_v2"}]}, "runs": [{"protocol": "bsp"}])";
  std::string m = only_message("{" + base + R"(, "training": {"learning_rte": 0.1}})");
  EXPECT_NE(m.find("/training/learning_rte: unknown key 'learning_rte' (accepted: "), m.npos) << m;
  EXPECT_NE(m.find("); did you mean 'learning_rate'?"), m.npos) << m;
  m = only_message(R"({"name": "s", "cluster": {"ps": {"profile": "DS3_v2"},
      "workers": [{"profile": "B1mz"}]}, "runs": [{"protocol": "bsp"}]})");
  EXPECT_NE(m.find("unknown profile 'B1mz'"), m.npos) << m;
  EXPECT_NE(m.find("did you mean 'B1ms'?"), m.npos) << m;
  m = only_message(R"({"name": "s", "cluster": {"ps": {"profile": "DS3_v2"},
      "workers": [{"profile": "DS2_v2"}]}, "runs": [{"protocol": "hermez"}]})");
  EXPECT_NE(m.find("unknown protocol 'hermez' (accepted: bsp, asp, ssp, ebsp, hermes, selsync, "
                   "local_sgd, hybrid, demo); "
                   "did you mean 'hermes'?"),
            m.npos)
      << m;
  // Nothing near: the accepted list alone.
  m = only_message("{" + base + R"(, "training": {"momentum": 0.9}})");
  EXPECT_EQ(m.find("did you mean"), m.npos) << m;
}

}  // namespace
}  // namespace hermes::scenario
