#include "sim/network/network_spec.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "tests/network/test_hosts.h"

namespace hermes::network {
namespace {

using namespace engine::time_literals;
using testing::make_hosts;
using testing::star_spec;

std::set<std::string> paths(const Diagnostics& d) {
  std::set<std::string> out;
  for (const auto& item : d.items()) out.insert(item.json_path);
  return out;
}

const Diagnostic* at(const Diagnostics& d, const std::string& path) {
  for (const auto& item : d.items()) {
    if (item.json_path == path) return &item;
  }
  return nullptr;
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(CheckNetworkSpec, ValidSpecsReportNothing) {
  Diagnostics d;
  check_network_spec(star_spec(0_ns), make_hosts({1000, 100, 10}), "/network", d);
  NetworkSpec custom;
  custom.topology = "custom";
  custom.switches = {"s1", "s2"};
  custom.links = {{"ps", "s1", std::nullopt, 0_ns},
                  {"s1", "s2", 1000.0, 5_ns},
                  {"w0", "s2", std::nullopt, 0_ns},
                  {"w1", "ps", 10.0, 0_ns}};
  check_network_spec(custom, make_hosts({1000, 100, 10}), "/network", d);
  EXPECT_TRUE(d.ok()) << d.format();
}

// The brief's one-pass case: a dangling endpoint, a bad bandwidth and an unreachable worker are
// all reported by the same call, each at its own path.
TEST(CheckNetworkSpec, ReportsDanglingBadBandwidthAndUnreachableInOnePass) {
  NetworkSpec s;
  s.topology = "custom";
  s.switches = {"s1"};
  s.links = {
      {"ps", "s1", std::nullopt, 0_ns}, {"w0", "s1", -5.0, 0_ns}, {"w1", "s9", std::nullopt, 0_ns}};
  Diagnostics d("scenario.json");
  check_network_spec(s, make_hosts({1000, 1000, 1000}), "/network", d);
  EXPECT_EQ(paths(d),
            (std::set<std::string>{"/network/links/1/bandwidth_mbps", "/network/links/2/b",
                                   "/cluster/workers/0", "/cluster/workers/1"}))
      << d.format();
  EXPECT_EQ(d.count(), 4u);

  const Diagnostic* dangling = at(d, "/network/links/2/b");
  ASSERT_NE(dangling, nullptr);
  EXPECT_TRUE(contains(dangling->message, "\"s9\" names no host or switch")) << dangling->message;
  EXPECT_TRUE(contains(dangling->message, "accepted: s1, ps, w0, w1")) << dangling->message;
  EXPECT_EQ(dangling->file, "scenario.json");

  EXPECT_TRUE(contains(at(d, "/network/links/1/bandwidth_mbps")->message, "got -5"));
  // w0's only cable is unusable, so it is unreachable too; w1's cable dangles.
  EXPECT_TRUE(contains(at(d, "/cluster/workers/1")->message, "host \"w1\" cannot reach the PS"));
}

TEST(CheckNetworkSpec, UnknownTopologyNamesAcceptedValues) {
  NetworkSpec s;
  s.topology = "ring";
  Diagnostics d;
  check_network_spec(s, make_hosts({1000, 1000}), "/network", d);
  ASSERT_EQ(d.count(), 1u) << d.format();
  EXPECT_EQ(d.items()[0].json_path, "/network/topology");
  EXPECT_TRUE(contains(d.items()[0].message, "\"ring\"; accepted: star, custom"));
}

TEST(CheckNetworkSpec, DuplicateNames) {
  NetworkSpec s;
  s.topology = "custom";
  s.switches = {"s1", "s1", "w0"};
  s.links = {{"ps", "s1", std::nullopt, 0_ns}, {"w0", "s1", std::nullopt, 0_ns}};
  auto hosts = make_hosts({1000, 1000, 1000});
  hosts[2].name = "w0";  // the second worker reuses the first one's name
  Diagnostics d;
  check_network_spec(s, hosts, "/network", d);
  const Diagnostic* host_dup = at(d, "/cluster/workers/1");
  ASSERT_NE(host_dup, nullptr) << d.format();
  EXPECT_TRUE(contains(host_dup->message, "duplicate host name \"w0\" (also /cluster/workers/0)"));
  ASSERT_NE(at(d, "/network/switches/1"), nullptr);
  EXPECT_TRUE(contains(at(d, "/network/switches/1")->message, "(also /network/switches/0)"));
  ASSERT_NE(at(d, "/network/switches/2"), nullptr);
  EXPECT_TRUE(contains(at(d, "/network/switches/2")->message, "(also /cluster/workers/0)"));
}

TEST(CheckNetworkSpec, LinkFieldProblems) {
  NetworkSpec s;
  s.topology = "custom";
  s.switches = {"s1", "s2"};
  s.links = {{"ps", "s1", std::nullopt, 0_ns},
             {"s1", "s2", std::nullopt, 0_ns},  // switch-switch without bandwidth
             {"w0", "s1", 0.0, -3_ns},          // zero bandwidth and negative latency
             {"s2", "s2", 10.0, 0_ns}};         // self loop
  Diagnostics d;
  check_network_spec(s, make_hosts({1000, 1000}), "/network", d);
  EXPECT_EQ(paths(d), (std::set<std::string>{
                          "/network/links/1/bandwidth_mbps", "/network/links/2/bandwidth_mbps",
                          "/network/links/2/latency_us", "/network/links/3", "/cluster/workers/0"}))
      << d.format();
  EXPECT_TRUE(contains(at(d, "/network/links/1/bandwidth_mbps")->message,
                       "between two switches (\"s1\", \"s2\") needs bandwidth_mbps"));
  EXPECT_TRUE(contains(at(d, "/network/links/2/latency_us")->message, "got -3 ns"));
  EXPECT_TRUE(contains(at(d, "/network/links/3")->message, "connects \"s2\" to itself"));
}

TEST(CheckNetworkSpec, HostEndWithoutUsableNic) {
  NetworkSpec s;
  s.topology = "custom";
  s.switches = {"s"};
  s.links = {{"ps", "s", std::nullopt, 0_ns}, {"w0", "s", std::nullopt, 0_ns}};
  Diagnostics d;
  check_network_spec(s, make_hosts({1000, 0}), "/network", d);
  ASSERT_NE(at(d, "/network/links/1/bandwidth_mbps"), nullptr) << d.format();
  EXPECT_TRUE(contains(at(d, "/network/links/1/bandwidth_mbps")->message, "host \"w0\""));
}

TEST(CheckNetworkSpec, StarProblems) {
  NetworkSpec s = star_spec(-1_ns);
  s.switches = {"x"};
  s.links = {{"ps", "x", std::nullopt, 0_ns}};
  auto hosts = make_hosts({1000, 0, 1000});
  hosts[2].name = "switch0";
  Diagnostics d;
  check_network_spec(s, hosts, "/net", d, "/c");
  // The NIC-less worker is reported once (its NIC), not again as unreachable.
  EXPECT_EQ(paths(d), (std::set<std::string>{"/net/latency_us", "/net/switches", "/net/links",
                                             "/c/workers/0", "/c/workers/1"}))
      << d.format();
  EXPECT_EQ(d.count(), 5u) << d.format();
  EXPECT_TRUE(contains(at(d, "/c/workers/0")->message, "NIC speed > 0"));
  EXPECT_TRUE(contains(at(d, "/c/workers/1")->message, "\"switch0\""));
}

TEST(CheckNetworkSpec, AcceptedNamesAreTruncatedForLargeClusters) {
  NetworkSpec s;
  s.topology = "custom";
  s.switches = {"core"};
  s.links = {{"ps", "core", std::nullopt, 0_ns}, {"ps", "cor", std::nullopt, 0_ns}};
  std::vector<double> nics(21, 1000);
  auto hosts = make_hosts(nics);
  for (std::size_t i = 1; i < hosts.size(); ++i)
    s.links.push_back({hosts[i].name, "core", {}, 0_ns});
  Diagnostics d;
  check_network_spec(s, hosts, "/network", d);
  ASSERT_EQ(d.count(), 1u) << d.format();
  EXPECT_TRUE(
      contains(d.items()[0].message, "accepted: core, ps, w0, w1, w2, w3, w4, w5, ... (22 names)"))
      << d.items()[0].message;
}

TEST(CheckNetworkSpec, UnreachableWorkersEachReported) {
  NetworkSpec s;
  s.topology = "custom";
  s.switches = {"a", "b"};
  s.links = {{"ps", "a", std::nullopt, 0_ns},
             {"w0", "a", std::nullopt, 0_ns},
             {"w1", "b", std::nullopt, 0_ns},
             {"w2", "b", std::nullopt, 0_ns}};
  Diagnostics d;
  check_network_spec(s, make_hosts({1000, 1000, 1000, 1000}), "/network", d);
  EXPECT_EQ(paths(d), (std::set<std::string>{"/cluster/workers/1", "/cluster/workers/2"}))
      << d.format();
}

}  // namespace
}  // namespace hermes::network
