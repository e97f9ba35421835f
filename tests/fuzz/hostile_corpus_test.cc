// The hostile-input corpus of issue 12, generated in code and checked in the normal suite (and
// under ASan + UBSan by tools/test's second pass): mutations of every shipped scenario
// (truncations, byte flips and deletions, hostile values at every key, deep nesting, numbers out of
// range, bad UTF-8, wrong types) and hostile --set overrides. Each must be refused with diagnostics
// or accepted, never crash or throw (scenario_reader_check.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/fuzz/mutations.h"
#include "tests/fuzz/scenario_reader_check.h"

namespace hermes::fuzz {
namespace {

namespace fs = std::filesystem;

struct Case {
  std::string name;
  std::string text;
  std::vector<std::string> sets;
};

std::vector<std::pair<std::string, std::string>> shipped_scenarios() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const char* dir : {"scenarios/examples", "scenarios/paper", "scenarios/bench"}) {
    for (const auto& e : fs::directory_iterator(std::string(HERMES_SOURCE_DIR) + "/" + dir)) {
      if (e.path().extension() != ".json") continue;
      std::ifstream in(e.path(), std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      out.emplace_back(e.path().filename().string(), ss.str());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Case> corpus() {
  std::vector<Case> cases;
  RandomStream rng(12, 0);
  for (const auto& [file, text] : shipped_scenarios()) {
    for (auto& [label, t] : byte_mutations(file, text, rng, 8, 8)) {
      cases.push_back({std::move(label), std::move(t), {}});
    }
    // Hostile values at keys of the document, as text (so that the parser sees them too).
    for (auto& [label, t] : value_mutations(file, Json::parse(text), rng, 12)) {
      cases.push_back({std::move(label), std::move(t), {}});
    }
    // Bad UTF-8 inside a string of the file.
    std::string bad = text;
    bad.insert(bad.find("\"name\"") + 2, "\xFF\xFE");
    cases.push_back({file + " bad UTF-8 in a key", bad, {}});
  }
  const std::string demo = shipped_scenarios().front().second;  // demo.json comes first
  // Whole-file hostility.
  for (const std::string& text :
       {nested(100000, "[", "]"), nested(100000, "{\"k\":", "}"), std::string(100000, '['),
        std::string("{\"name\": \"x\", \"seed\": 1e400}"), std::string("\xEF\xBB\xBF{}"),
        std::string(""), std::string(" "), std::string("\0\0\0", 3),
        std::string("{\"a\":1,\"a\":2}"), std::string("{\"name\": \"x\", \"seed\": -0}"),
        std::string("[1, 2]"), std::string("\"x\""), std::string("{\"profiles\": \"/dev/zero\"}"),
        std::string("{\"profiles\": \"/\"}"), std::string("{\"profiles\": \"/proc/self/mem\"}"),
        std::string("{\"profiles\": \"") + std::string(5000, 'a') + "\"}"}) {
    cases.push_back({"whole file " + text.substr(0, 20), text, {}});
  }
  // Hostile --set arguments on a valid scenario.
  for (const std::string& set :
       {std::string("seed=1e400"), std::string("description=\xFF"), std::string("\xFF=1"),
        "x=" + nested(100000, "[", "]"), std::string("seed.x.y=1"), std::string("=1"),
        std::string("runs.99.alpha=1"), std::string("runs.-={\"protocol\": \"demo\"}"),
        std::string("cluster.workers.0.count=2147483648"),
        std::string("cluster.workers.0.count=10000"), std::string("outputs.dir=/"),
        std::string("outputs.dir=.."), std::string("training.chunk_size=1000000000"),
        std::string("runs.demo.iterations=1000000000"),
        std::string("cluster.workers.0.overrides={\"compute\": {\"gflops\": 1e-300}}"),
        std::string("cluster.workers.0.overrides={\"nic_mbps\": 1e-300}"),
        std::string("profiles=/dev/zero"), std::string("name=a/b"),
        std::string(std::string(200, 'a') + std::string(200, '.') + "=1")}) {
    cases.push_back({"--set " + set.substr(0, 30), demo, {set}});
  }
  return cases;
}

TEST(HostileCorpus, EveryInputIsRefusedCleanlyOrAccepted) {
  const std::vector<Case> cases = corpus();
  ASSERT_GE(cases.size(), 400u);
  std::size_t refused = 0;
  for (const auto& c : cases) {
    const bool file_catalog = c.name.find("whole file") == 0 || c.name.find("--set") == 0;
    const std::string problem = check_reader(c.text, c.sets, file_catalog);
    EXPECT_EQ(problem, "") << c.name;
    Diagnostics diags;
    refused +=
        !scenario::check_scenario_text(c.text, c.sets, HERMES_SOURCE_DIR, diags, &shipped_catalog())
             .has_value();
  }
  // The corpus is hostile: most of it must be refused (a generator producing only valid files
  // would test nothing).
  EXPECT_GT(refused, cases.size() * 2 / 3) << refused << " of " << cases.size();
}

}  // namespace
}  // namespace hermes::fuzz
