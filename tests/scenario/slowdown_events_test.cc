// "events" (slowdowns): each mistake at its JSON pointer, all in one pass, and the resolved list.
#include <gtest/gtest.h>

#include "tests/scenario/scenario_test_util.h"

namespace hermes::scenario {
namespace {

using namespace testing;  // the scenario test helpers (scenario_test_util.h)
using namespace engine::time_literals;

TEST(SlowdownEvents, AValidListIsResolvedAndRecorded) {
  Json doc = minimal_doc();
  doc["events"] = Json::parse(R"([
    {"kind": "slowdown", "node": "w2", "at_s": 120, "duration_s": 60, "speed_factor": 0.5},
    {"kind": "slowdown", "node": "ps", "at_s": 0.5, "duration_s": 1, "speed_factor": 1},
    {"kind": "slowdown", "node": "w2", "at_s": 180, "duration_s": 10, "speed_factor": 0.25}])");
  Diagnostics diags;
  const auto s = check_doc(doc, diags);
  ASSERT_TRUE(s) << diags.format();
  ASSERT_EQ(s->slowdowns.size(), 3u);
  EXPECT_EQ(s->slowdowns[0].node, "w2");
  EXPECT_EQ(s->slowdowns[0].start, 120_s);
  EXPECT_EQ(s->slowdowns[0].end, 180_s);
  EXPECT_EQ(s->slowdowns[0].speed_factor, 0.5);
  EXPECT_EQ(s->slowdowns[0].origin, "/events/0");
  EXPECT_EQ(s->slowdowns[1].start, 500_ms);
  EXPECT_EQ(s->document["events"], doc["events"]);
  // The resolved document loads again to the same slowdowns.
  Diagnostics again;
  const auto s2 = check_doc(s->document, again);
  ASSERT_TRUE(s2) << again.format();
  EXPECT_EQ(s2->slowdowns.size(), 3u);
  EXPECT_EQ(s2->document, s->document);
}

TEST(SlowdownEvents, WithoutEventsTheDocumentHasNoTraceOfThem) {
  Diagnostics diags;
  const auto s = check_doc(minimal_doc(), diags);
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->slowdowns.empty());
  EXPECT_FALSE(s->trace);
  EXPECT_FALSE(s->document.contains("events"));
  EXPECT_FALSE(s->document.contains("trace"));
}

TEST(SlowdownEvents, EachMistakeAtItsPath) {
  Diagnostics diags;
  EXPECT_EQ(errors_after(R"({"events": [{"kind": "slowdown", "node": "w7", "at_s": 1,
                                          "duration_s": 1, "speed_factor": 0.5}]})",
                         diags),
            Paths{"/events/0/node"});
  EXPECT_TRUE(Contains(only_message(diags), "unknown node 'w7' (accepted: ps, w0..w2)"));
  EXPECT_EQ(errors_after(R"({"events": [{"kind": "reboot", "node": "w1", "at_s": 1}]})", diags),
            Paths{"/events/0/kind"});
  EXPECT_TRUE(Contains(only_message(diags),
                       "unknown kind 'reboot' (accepted: slowdown, crash, eviction, link)"));
  EXPECT_EQ(errors_after(R"({"events": [{"kind": "slowdown", "node": "w1", "at_s": 1,
                                          "duration_s": 1, "speed_factor": 0}]})",
                         diags),
            Paths{"/events/0/speed_factor"});
  EXPECT_TRUE(Contains(only_message(diags), "speed_factor in (0, 1]"));
  EXPECT_EQ(errors_after(R"({"events": [{"kind": "slowdown", "node": "w1", "at_s": 1,
                                          "duration_s": 1, "speed_factor": -0.5}]})"),
            Paths{"/events/0/speed_factor"});
  EXPECT_EQ(errors_after(R"({"events": [{"kind": "slowdown", "node": "w1", "at_s": 1,
                                          "duration_s": 1, "speed_factor": 1.5}]})"),
            Paths{"/events/0/speed_factor"});
  EXPECT_EQ(errors_after(R"({"events": [{"kind": "slowdown", "node": "w1", "at_s": 1,
                                          "duration_s": 1, "speed_factor": "nan"}]})"),
            Paths{"/events/0/speed_factor"});
  EXPECT_EQ(errors_after(R"({"events": [{"kind": "slowdown", "node": "w1", "at_s": -1,
                                          "duration_s": 1, "speed_factor": 0.5}]})"),
            Paths{"/events/0/at_s"});
  EXPECT_EQ(errors_after(R"({"events": [{"kind": "slowdown", "node": "w1", "at_s": 1,
                                          "duration_s": 0, "speed_factor": 0.5}]})"),
            Paths{"/events/0/duration_s"});
  EXPECT_EQ(errors_after(R"({"events": [{"kind": "slowdown", "node": "w1", "at_s": 1,
                                          "duration_s": 1, "speed_factor": 0.5, "n": 1}]})",
                         diags),
            Paths{"/events/0/n"});
  EXPECT_TRUE(
      Contains(only_message(diags), "accepted: kind, node, at_s, duration_s, speed_factor"));
  EXPECT_EQ(errors_after(R"({"events": [{"kind": "slowdown", "at_s": 1, "duration_s": 1,
                                          "speed_factor": 0.5}]})"),
            Paths{"/events/0/node"});
  EXPECT_EQ(errors_after(R"({"events": {"kind": "slowdown"}})"), Paths{"/events"});
  EXPECT_EQ(errors_after(R"({"events": [3]})"), Paths{"/events/0"});
}

TEST(SlowdownEvents, OverlapsOfOneNodeNameBothEvents) {
  Diagnostics diags;
  EXPECT_EQ(errors_after(R"({"events": [
      {"kind": "slowdown", "node": "w1", "at_s": 100, "duration_s": 60, "speed_factor": 0.5},
      {"kind": "slowdown", "node": "w0", "at_s": 120, "duration_s": 60, "speed_factor": 0.5},
      {"kind": "slowdown", "node": "w1", "at_s": 150, "duration_s": 60, "speed_factor": 0.5},
      {"kind": "slowdown", "node": "w1", "at_s": 160, "duration_s": 1, "speed_factor": 0.5}]})",
                         diags),
            (Paths{"/events/2", "/events/3"}))
      << diags.format();
  EXPECT_TRUE(Contains(diags.items()[0].message,
                       "the slowdown of w1 [150, 210) s overlaps /events/0 [100, 160) s"));
  EXPECT_TRUE(Contains(diags.items()[1].message, "overlaps /events/2"));
  // Touching intervals do not overlap.
  Json doc = minimal_doc();
  doc["events"] = Json::parse(R"([
      {"kind": "slowdown", "node": "w1", "at_s": 100, "duration_s": 60, "speed_factor": 0.5},
      {"kind": "slowdown", "node": "w1", "at_s": 160, "duration_s": 60, "speed_factor": 0.5}])");
  EXPECT_TRUE(check_doc(doc, diags));
}

TEST(SlowdownEvents, EveryMistakeInOnePass) {
  const Paths paths = errors_after(R"({"events": [
      {"kind": "slowdown", "node": "w9", "at_s": 1, "duration_s": 1, "speed_factor": 0.5},
      {"kind": "slowdown", "node": "w1", "at_s": -1, "duration_s": 0, "speed_factor": 2},
      {"kind": "reboot"}], "training": {"batch_size": 0}})");
  EXPECT_EQ(paths, (Paths{"/training/batch_size", "/events/1/at_s", "/events/1/duration_s",
                          "/events/1/speed_factor", "/events/2/kind", "/events/0/node"}));
}

}  // namespace
}  // namespace hermes::scenario
