// "link" events: the resolved faults and document, and each mistake at its JSON pointer before
// anything runs.
#include <gtest/gtest.h>

#include "tests/scenario/scenario_test_util.h"

namespace hermes::scenario {
namespace {

using namespace testing;  // the scenario test helpers (scenario_test_util.h)
using namespace engine::time_literals;

TEST(LinkEvents, AValidListIsResolvedAndRecordedWithItsDefaults) {
  Json doc = minimal_doc();
  doc["events"] = Json::parse(R"([
    {"kind": "link", "node": "w2", "at_s": 100, "duration_s": 60, "bandwidth_factor": 0.1,
     "added_latency_ms": 20},
    {"kind": "slowdown", "node": "w2", "at_s": 120, "duration_s": 60, "speed_factor": 0.5},
    {"kind": "link", "node": "ps", "at_s": 0.5, "duration_s": 1, "bandwidth_factor": 0},
    {"kind": "link", "node": "w2", "at_s": 160, "duration_s": 10, "added_latency_ms": 0.25}])");
  Diagnostics diags;
  const auto s = check_doc(doc, diags);
  ASSERT_TRUE(s) << diags.format();
  ASSERT_EQ(s->link_faults.size(), 3u);
  ASSERT_EQ(s->slowdowns.size(), 1u);
  const auto& f = s->link_faults;
  EXPECT_EQ(f[0].host, "w2");
  EXPECT_EQ(f[0].start, 100_s);
  EXPECT_EQ(f[0].end, 160_s);
  EXPECT_EQ(f[0].bandwidth_factor, 0.1);
  EXPECT_EQ(f[0].added_latency, 20_ms);
  EXPECT_EQ(f[1].host, "ps");
  EXPECT_EQ(f[1].start, 500_ms);
  EXPECT_EQ(f[1].bandwidth_factor, 0.0);
  EXPECT_EQ(f[1].added_latency, 0_ns);
  EXPECT_EQ(f[2].bandwidth_factor, 1.0);
  EXPECT_EQ(f[2].added_latency, 250_us);
  // Recorded as read, with the defaults filled in.
  const Json& events = s->document["events"];
  EXPECT_EQ(events[0], doc["events"][0]);
  EXPECT_EQ(events[2]["added_latency_ms"], 0);
  EXPECT_EQ(events[3]["bandwidth_factor"], 1);
  EXPECT_EQ(events[3].dump(),
            R"({"kind":"link","node":"w2","at_s":160,"duration_s":10,"bandwidth_factor":1,)"
            R"("added_latency_ms":0.25})");
  // The resolved document loads again to the same faults.
  Diagnostics again;
  const auto s2 = check_doc(s->document, again);
  ASSERT_TRUE(s2) << again.format();
  EXPECT_EQ(s2->link_faults.size(), 3u);
  EXPECT_EQ(s2->document, s->document);
}

// One link event with `keys` besides its kind: the paths of its errors; `message` in one of them.
struct Mistake {
  const char* keys;
  Paths paths;
  const char* message;
};

TEST(LinkEvents, EachMistakeAtItsPath) {
  const Mistake mistakes[] = {
      {R"("node": "w7", "at_s": 1, "duration_s": 1, "bandwidth_factor": 0.5)",
       {"/events/0/node"},
       "unknown node 'w7' (accepted: ps, w0..w2)"},
      {R"("node": "w1", "at_s": 1, "duration_s": 1, "bandwidth_factor": 1.5)",
       {"/events/0/bandwidth_factor"},
       "bandwidth_factor in [0, 1]"},
      {R"("node": "w1", "at_s": 1, "duration_s": 1, "bandwidth_factor": -0.1)",
       {"/events/0/bandwidth_factor"},
       "got -0.1"},
      {R"("node": "w1", "at_s": 1, "duration_s": 1, "added_latency_ms": -5)",
       {"/events/0/added_latency_ms"},
       "added_latency_ms in [0, 1000000000]"},
      {R"("node": "w1", "at_s": 1, "duration_s": 0, "bandwidth_factor": 0)",
       {"/events/0/duration_s"},
       "duration_s in (0, 1000000000]"},
      {R"("node": "w1", "at_s": 1, "duration_s": 1e-12, "bandwidth_factor": 0)",
       {"/events/0/duration_s"},
       "shorter than the simulator's 1 ns resolution"},
      {R"("node": "w1", "at_s": -1, "duration_s": 1, "bandwidth_factor": 0)",
       {"/events/0/at_s"},
       "at_s in [0, 1000000000]"},
      {R"("node": "w1", "at_s": 1, "duration_s": 1)",
       {"/events/0"},
       "a link event that changes nothing"},
      {R"("node": "w1", "at_s": 1, "duration_s": 1, "speed_factor": 0.5)",
       {"/events/0", "/events/0/speed_factor"},
       "accepted: kind, node, at_s, duration_s, bandwidth_factor, added_latency_ms"},
  };
  for (const Mistake& m : mistakes) {
    Json doc = minimal_doc();
    doc["events"] = Json::array({Json::parse(std::string(R"({"kind": "link", )") + m.keys + "}")});
    Diagnostics diags;
    EXPECT_FALSE(check_doc(doc, diags)) << m.keys;
    EXPECT_EQ(error_paths(diags), m.paths) << m.keys;
    EXPECT_TRUE(Contains(diags.format(), m.message)) << m.keys;
  }
}

TEST(LinkEvents, OverlappingFaultsOfOneLinkNameBothEvents) {
  Diagnostics diags;
  EXPECT_EQ(errors_after(R"({"events": [
      {"kind": "link", "node": "w1", "at_s": 100, "duration_s": 60, "bandwidth_factor": 0},
      {"kind": "link", "node": "w0", "at_s": 120, "duration_s": 60, "bandwidth_factor": 0},
      {"kind": "slowdown", "node": "w1", "at_s": 120, "duration_s": 60, "speed_factor": 0.5},
      {"kind": "link", "node": "w1", "at_s": 150, "duration_s": 60, "added_latency_ms": 5}]})",
                         diags),
            Paths{"/events/3"})
      << diags.format();
  EXPECT_TRUE(Contains(only_message(diags),
                       "the link fault of w1 [150, 210) s overlaps /events/0 (w1 [100, 160) s) "
                       "on link w1-switch0 (accepted: one fault at a time per link)"));
  // Touching intervals do not overlap; nor does a link fault overlap a slowdown.
  Json doc = minimal_doc();
  doc["events"] = Json::parse(R"([
      {"kind": "link", "node": "w1", "at_s": 100, "duration_s": 60, "bandwidth_factor": 0},
      {"kind": "link", "node": "w1", "at_s": 160, "duration_s": 60, "bandwidth_factor": 0.5},
      {"kind": "slowdown", "node": "w1", "at_s": 100, "duration_s": 60, "speed_factor": 0.5}])");
  EXPECT_TRUE(check_doc(doc, diags)) << diags.format();
}

// In a custom network two hosts may share a cable: their faults must not overlap on it.
TEST(LinkEvents, FaultsOfTwoHostsOverlapOnTheirSharedCable) {
  Json doc = minimal_doc();
  doc["network"] = Json::parse(R"({"topology": "custom", "switches": ["s0"], "links": [
      {"a": "ps", "b": "w0"}, {"a": "ps", "b": "s0"}, {"a": "w1", "b": "s0"},
      {"a": "w2", "b": "s0"}]})");
  doc["events"] = Json::parse(R"([
      {"kind": "link", "node": "ps", "at_s": 10, "duration_s": 10, "bandwidth_factor": 0.5},
      {"kind": "link", "node": "w1", "at_s": 10, "duration_s": 10, "bandwidth_factor": 0},
      {"kind": "link", "node": "w0", "at_s": 15, "duration_s": 10, "bandwidth_factor": 0}])");
  Diagnostics diags;
  EXPECT_FALSE(check_doc(doc, diags));
  EXPECT_EQ(error_paths(diags), Paths{"/events/2"});
  EXPECT_TRUE(Contains(only_message(diags),
                       "overlaps /events/0 (ps [10, 20) s) on link ps-w0 (/network/links/0)"));
}

TEST(LinkEvents, EveryMistakeInOnePass) {
  const Paths paths = errors_after(R"({"events": [
      {"kind": "link", "node": "w9", "at_s": 1, "duration_s": 1, "bandwidth_factor": 0.5},
      {"kind": "link", "node": "w1", "at_s": -1, "duration_s": 0, "bandwidth_factor": 2},
      {"kind": "link", "node": "w1", "at_s": 1, "duration_s": 5, "bandwidth_factor": 0.5},
      {"kind": "link", "node": "w1", "at_s": 2, "duration_s": 5, "added_latency_ms": 1}],
      "training": {"batch_size": 0}})");
  EXPECT_EQ(paths, (Paths{"/training/batch_size", "/events/1/at_s", "/events/1/duration_s",
                          "/events/1/bandwidth_factor", "/events/0/node", "/events/3"}));
}

}  // namespace
}  // namespace hermes::scenario
