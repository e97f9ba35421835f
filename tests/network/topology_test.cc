#include "sim/network/topology.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/network/test_hosts.h"

namespace hermes::network {
namespace {

using engine::kMicrosecond;
using namespace engine::time_literals;
using testing::make_hosts;
using testing::star_spec;

std::vector<std::string> link_names(const Topology& t, const Route& r) {
  std::vector<std::string> out;
  for (const LinkId l : r.links) out.push_back(t.link_name(l));
  return out;
}

TEST(Topology, StarLinksEveryHostToSwitch0AtItsNicSpeed) {
  const Topology t = Topology::build(star_spec(100 * kMicrosecond), make_hosts({1000, 100, 10}));
  EXPECT_EQ(t.host_count(), 3u);
  EXPECT_EQ(t.switch_count(), 1u);
  EXPECT_EQ(t.link_count(), 6u);  // 3 cables, 2 directions each
  EXPECT_EQ(t.vertex_name(3), "switch0");
  EXPECT_EQ(t.find_host("w1"), HostIndex{2});
  EXPECT_FALSE(t.find_host("switch0").has_value());

  const Route& up = t.route(1, 0);
  EXPECT_EQ(link_names(t, up), (std::vector<std::string>{"w0->switch0", "switch0->ps"}));
  EXPECT_EQ(up.latency, 200 * kMicrosecond);
  EXPECT_DOUBLE_EQ(up.bottleneck, 12.5e6);  // 100 Mbit/s = 12.5 MB/s
  const Route& down = t.route(0, 2);
  EXPECT_EQ(link_names(t, down), (std::vector<std::string>{"ps->switch0", "switch0->w1"}));
  EXPECT_DOUBLE_EQ(down.bottleneck, 1.25e6);
  // The two directions of a cable are distinct resources.
  EXPECT_NE(t.route(0, 1).links, up.links);
  // Cached: same object.
  EXPECT_EQ(&t.route(1, 0), &up);

  const Route& self = t.route(1, 1);
  EXPECT_TRUE(self.links.empty());
  EXPECT_EQ(self.latency, 0_ns);
  EXPECT_TRUE(std::isinf(self.bottleneck));
  EXPECT_THROW(t.route(0, 3), std::out_of_range);
}

// ps, w0 on s1; w1, w2 on s2; s1-s2 at 500 Mbit/s.
NetworkSpec two_switches() {
  NetworkSpec s;
  s.topology = "custom";
  s.switches = {"s1", "s2"};
  s.links = {
      {"ps", "s1", std::nullopt, 10 * kMicrosecond}, {"w0", "s1", std::nullopt, 10 * kMicrosecond},
      {"s1", "s2", 500.0, 50 * kMicrosecond},        {"s2", "w1", std::nullopt, 20 * kMicrosecond},
      {"w2", "s2", 200.0, 5 * kMicrosecond},
  };
  return s;
}

TEST(Topology, CustomTwoSwitchRoutes) {
  const Topology t = Topology::build(two_switches(), make_hosts({1000, 1000, 100, 1000}));
  EXPECT_EQ(t.switch_count(), 2u);
  EXPECT_EQ(t.link_count(), 10u);

  const Route& w1_ps = t.route(2, 0);
  EXPECT_EQ(link_names(t, w1_ps), (std::vector<std::string>{"w1->s2", "s2->s1", "s1->ps"}));
  EXPECT_EQ(w1_ps.latency, 80 * kMicrosecond);
  EXPECT_DOUBLE_EQ(w1_ps.bottleneck, 12.5e6);  // w1's 100 Mbit/s NIC (no explicit bandwidth)

  const Route& w2_ps = t.route(3, 0);
  EXPECT_EQ(w2_ps.latency, 65 * kMicrosecond);
  EXPECT_DOUBLE_EQ(w2_ps.bottleneck, 25e6);  // explicit 200 Mbit/s on w2-s2

  const Route& w0_w2 = t.route(1, 3);
  EXPECT_EQ(link_names(t, w0_w2), (std::vector<std::string>{"w0->s1", "s1->s2", "s2->w2"}));
  EXPECT_DOUBLE_EQ(w0_w2.bottleneck, 25e6);

  const Route& w0_ps = t.route(1, 0);
  EXPECT_EQ(link_names(t, w0_ps), (std::vector<std::string>{"w0->s1", "s1->ps"}));
  EXPECT_DOUBLE_EQ(w0_ps.bottleneck, 125e6);
}

// w0 reaches ps through switch a or b (2 hops each), or through c-d (3 hops).
NetworkSpec diamond(engine::SimTime via_a, engine::SimTime via_b) {
  NetworkSpec s;
  s.topology = "custom";
  s.switches = {"a", "b", "c", "d"};
  s.links = {
      {"w0", "a", std::nullopt, via_a}, {"a", "ps", 1000.0, via_a},
      {"w0", "b", std::nullopt, via_b}, {"b", "ps", 1000.0, via_b},
      {"w0", "c", std::nullopt, 1_ns},  {"c", "d", 1000.0, 1_ns},
      {"d", "ps", 1000.0, 1_ns},
  };
  return s;
}

TEST(Topology, FewestHopsThenLatencyThenVertexIndex) {
  const auto hosts = make_hosts({1000, 1000});
  {
    // b is faster: 2 x 10 < 2 x 30. The 3-hop path (3 ns) loses despite lower latency.
    const Topology t = Topology::build(diamond(30_ns, 10_ns), hosts);
    EXPECT_EQ(link_names(t, t.route(1, 0)), (std::vector<std::string>{"w0->b", "b->ps"}));
    EXPECT_EQ(t.route(1, 0).latency, 20_ns);
    EXPECT_EQ(link_names(t, t.route(0, 1)), (std::vector<std::string>{"ps->b", "b->w0"}));
  }
  {
    // Tie on hops and latency: a has the lower vertex index (declared first).
    const Topology t = Topology::build(diamond(10_ns, 10_ns), hosts);
    EXPECT_EQ(link_names(t, t.route(1, 0)), (std::vector<std::string>{"w0->a", "a->ps"}));
    EXPECT_EQ(link_names(t, t.route(0, 1)), (std::vector<std::string>{"ps->a", "a->w0"}));
  }
}

TEST(Topology, HostsDoNotForward) {
  // ps and both workers hang off switch s; w0 also has a direct cable to ps and to w1.
  NetworkSpec s;
  s.topology = "custom";
  s.switches = {"s"};
  s.links = {{"ps", "w0", std::nullopt, 1_ns},
             {"w0", "w1", std::nullopt, 1_ns},
             {"w1", "s", std::nullopt, 1_ns},
             {"ps", "s", std::nullopt, 1_ns}};
  const Topology t = Topology::build(s, make_hosts({1000, 100, 1000}));
  // Direct host-host cable: one hop at the slower NIC.
  EXPECT_EQ(link_names(t, t.route(1, 0)), (std::vector<std::string>{"w0->ps"}));
  EXPECT_DOUBLE_EQ(t.route(1, 0).bottleneck, 12.5e6);
  // w1 -> ps is 2 hops via s; the equally short w1 -> w0 -> ps would need w0 to forward.
  EXPECT_EQ(link_names(t, t.route(2, 0)), (std::vector<std::string>{"w1->s", "s->ps"}));
}

TEST(Topology, UnreachablePairThrowsLogicError) {
  NetworkSpec s;
  s.topology = "custom";
  s.links = {{"ps", "w0", std::nullopt, 1_ns}, {"ps", "w1", std::nullopt, 1_ns}};
  const Topology t = Topology::build(s, make_hosts({1000, 1000, 1000}));
  EXPECT_TRUE(t.reachable(1, 0));
  EXPECT_FALSE(t.reachable(1, 2));  // would need the PS to forward
  EXPECT_THROW(t.route(1, 2), std::logic_error);
}

TEST(Topology, BuildThrowsInputErrorListingProblems) {
  NetworkSpec s;
  s.topology = "custom";
  s.switches = {"s"};
  s.links = {{"ps", "s", std::nullopt, 0_ns}, {"w0", "sx", std::nullopt, 0_ns}};
  try {
    Topology::build(s, make_hosts({1000, 1000}), "/net");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("/net/links/1/b"), std::string::npos) << msg;
    EXPECT_NE(msg.find("/cluster/workers/0"), std::string::npos) << msg;
  }
}

}  // namespace
}  // namespace hermes::network
