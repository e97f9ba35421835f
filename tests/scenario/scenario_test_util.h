// Shared fixtures for the scenario tests: a small profile catalog with made-up numbers (so the
// tests do not depend on scenarios/profiles/azure.json) and a minimal valid scenario to mutate.
#pragma once

#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "base/diagnostics.h"
#include "sim/cluster/profile.h"
#include "sim/scenario/scenario.h"

namespace hermes::scenario::testing {

// Error JSON pointers, in the order they were reported.
using Paths = std::vector<std::string>;

// The README's table `name` (between "<!-- name: begin" and "<!-- name: end -->" in
// scenarios/README.md) is `generated`, what `source` gives: it cannot drift from the code. On a
// change, paste the table the failure prints.
inline void expect_readme_table(std::string_view name, const std::string& generated,
                                std::string_view source) {
  std::ifstream in(std::string(HERMES_SOURCE_DIR) + "/scenarios/README.md");
  ASSERT_TRUE(in) << "scenarios/README.md not found";
  std::stringstream text;
  text << in.rdbuf();
  const std::string readme = text.str();
  const std::string begin = "<!-- " + std::string(name) + ": begin";
  const std::string end = "<!-- " + std::string(name) + ": end -->";
  const auto at = readme.find(begin);
  ASSERT_NE(at, std::string::npos) << "no '" << begin << "' marker in scenarios/README.md";
  const auto table = readme.find('\n', at) + 1;
  const auto stop = readme.find(end, table);
  ASSERT_NE(stop, std::string::npos) << "no '" << end << "' marker in scenarios/README.md";
  EXPECT_EQ(readme.substr(table, stop - table), generated)
      << "scenarios/README.md's " << name << " table differs from " << source
      << "; the table it gives:\n"
      << generated;
}

inline const cluster::ProfileCatalog& test_catalog() {
  static const cluster::ProfileCatalog catalog = [] {
    const auto doc = nlohmann::ordered_json::parse(R"({
      "profiles": {
        "DS3_v2": {"azure_name": "Standard_DS3_v2", "vcpus": 4, "memory_gib": 14,
                   "nic_mbps": 3000,
                   "compute": {"gflops": 4.0, "step_overhead_us": 7000, "jitter_cv": 0.04}},
        "B1ms":   {"azure_name": "Standard_B1ms", "vcpus": 1, "memory_gib": 2, "nic_mbps": 250,
                   "compute": {"gflops": 1.5, "step_overhead_us": 6500, "jitter_cv": 0.05},
                   "burst": {"baseline_pct": 20, "credits_per_hour": 12, "max_credits": 288,
                             "initial_credits": 30}},
        "DS2_v2": {"azure_name": "Standard_DS2_v2", "vcpus": 2, "memory_gib": 7,
                   "nic_mbps": 1500,
                   "compute": {"gflops": 3.0, "step_overhead_us": 7000, "jitter_cv": 0.04}},
        "F4s_v2": {"azure_name": "Standard_F4s_v2", "vcpus": 4, "memory_gib": 8,
                   "nic_mbps": 10000,
                   "compute": {"gflops": 3.5, "step_overhead_us": 6000, "jitter_cv": 0.0}}
      }
    })");
    Diagnostics diags("test catalog");
    auto c = cluster::ProfileCatalog::parse(doc, diags);
    if (!diags.ok()) throw std::runtime_error("test catalog invalid:\n" + diags.format());
    return c;
  }();
  return catalog;
}

// A small valid scenario: PS + 2 B1ms + 1 DS2_v2, star network, one BSP run.
inline Json minimal_doc() {
  return Json::parse(R"({
    "name": "t",
    "cluster": {"ps": {"profile": "DS3_v2"},
                "workers": [{"profile": "B1ms", "count": 2}, {"profile": "DS2_v2"}]},
    "runs": [{"protocol": "bsp"}]
  })");
}

inline std::optional<Scenario> check_doc(const Json& doc, Diagnostics& diags,
                                         const std::vector<std::string>& sets = {}) {
  return check_scenario_text(doc.dump(2), sets, HERMES_SOURCE_DIR, diags, &test_catalog());
}

// The minimal scenario with `patch` (a JSON merge patch) applied, checked.
inline std::optional<Scenario> with_patch(const char* patch, Diagnostics& diags) {
  Json doc = minimal_doc();
  doc.merge_patch(Json::parse(patch));
  return check_doc(doc, diags);
}

inline std::vector<std::string> error_paths(const Diagnostics& diags) {
  std::vector<std::string> paths;
  for (const auto& d : diags.items()) paths.push_back(d.json_path);
  return paths;
}

// Applies `patch` (a JSON merge patch, RFC 7386) to the minimal scenario and returns the paths
// of the errors found.
inline std::vector<std::string> errors_after(const char* patch, Diagnostics& diags) {
  diags = Diagnostics();
  Json doc = minimal_doc();
  doc.merge_patch(Json::parse(patch));
  EXPECT_FALSE(check_doc(doc, diags)) << "expected errors for " << patch;
  return error_paths(diags);
}

inline std::vector<std::string> errors_after(const char* patch) {
  Diagnostics diags;
  return errors_after(patch, diags);
}

// gtest without gmock: substring check with a readable failure.
inline ::testing::AssertionResult Contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << text << "\" does not contain \"" << part << "\"";
}

// The single diagnostic's message; fails the test if there is not exactly one.
inline std::string only_message(const Diagnostics& diags) {
  EXPECT_EQ(diags.count(), 1u) << diags.format();
  return diags.items().empty() ? std::string() : diags.items().front().message;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string example_path(const std::string& file) {
  return std::string(HERMES_SOURCE_DIR) + "/scenarios/examples/" + file;
}

}  // namespace hermes::scenario::testing
