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

#include "base/random.h"
#include "tests/fuzz/scenario_reader_check.h"

namespace hermes::fuzz {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

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

// Every pointer to a value inside `doc` (containers included), in document order.
void pointers(const Json& v, const std::string& at, std::vector<std::string>& out) {
  out.push_back(at);
  if (v.is_object()) {
    for (const auto& [k, child] : v.items()) pointers(child, at + "/" + k, out);
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i) pointers(v[i], at + "/" + std::to_string(i), out);
  }
}

std::string nested(int depth, const std::string& open, const std::string& close,
                   const std::string& core = "1") {
  std::string s;
  for (int i = 0; i < depth; ++i) s += open;
  s += core;
  for (int i = 0; i < depth; ++i) s += close;
  return s;
}

// Values written as JSON text in place of a value: extremes, wrong types, deep nesting.
const std::vector<std::string>& hostile_values() {
  static const std::vector<std::string> values = {
      "1e400",
      "-1e400",
      "1e308",
      "-1e308",
      "1e-320",
      "-0",
      "0",
      "-1",
      "18446744073709551616",
      "9223372036854775808",
      "-9223372036854775809",
      "1.5",
      "\"\"",
      "\"x\"",
      "null",
      "true",
      "[]",
      "{}",
      nested(60, "[", "]"),
      nested(70, "[", "]"),
      nested(5000, "{\"a\":", "}"),
      "\"" + std::string(100000, 'a') + "\"",
      "\"\\u0000\"",
      "\"\\ud800\"",
      "\"/\"",
      "\".\"",
      "\"..\"",
      "1e15",
      "1e-300",
      "2147483648",
      "100000000",
  };
  return values;
}

std::vector<Case> corpus() {
  std::vector<Case> cases;
  RandomStream rng(12, 0);
  const auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng.uniform_int(n)); };
  for (const auto& [file, text] : shipped_scenarios()) {
    // Truncations.
    for (std::size_t k = 1; k <= 8; ++k) {
      cases.push_back(
          {file + " cut at " + std::to_string(k) + "/9", text.substr(0, text.size() * k / 9), {}});
    }
    // Byte flips, deletions, duplications.
    const char hostile_bytes[] = {'\xFF', '\0', '"', '[', '{', '}', ']', ',', ':', '\\', '\xC3'};
    for (int i = 0; i < 8; ++i) {
      std::string t = text;
      t[pick(t.size())] = hostile_bytes[pick(sizeof hostile_bytes)];
      cases.push_back({file + " byte flip " + std::to_string(i), t, {}});
      std::string d = text;
      const std::size_t at = pick(d.size());
      d.erase(at, pick(40) + 1);
      cases.push_back({file + " deletion " + std::to_string(i), d, {}});
      std::string u = text;
      const std::size_t from = pick(u.size());
      u.insert(pick(u.size()), u.substr(from, pick(60) + 1));
      cases.push_back({file + " duplication " + std::to_string(i), u, {}});
    }
    // Hostile values at keys of the document, as text (so that the parser sees them too).
    const Json doc = Json::parse(text);
    std::vector<std::string> at;
    pointers(doc, "", at);
    for (int i = 0; i < 12; ++i) {
      const std::string ptr = at[1 + pick(at.size() - 1)];
      const std::string& value = hostile_values()[pick(hostile_values().size())];
      Json d = doc;
      d[Json::json_pointer(ptr)] = "@@HOSTILE@@";
      std::string t = d.dump(1);
      t.replace(t.find("\"@@HOSTILE@@\""), 13, value);
      cases.push_back({file + " " + ptr + "=" + value.substr(0, 30), t, {}});
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
