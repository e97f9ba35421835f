// "events" of kinds crash and eviction, and the "availability" section: the resolved outages,
// and each mistake at its JSON pointer with what is accepted.
#include <gtest/gtest.h>

#include "tests/scenario/scenario_test_util.h"

namespace hermes::scenario {
namespace {

using namespace testing;  // the scenario test helpers (scenario_test_util.h)
using namespace engine::time_literals;

TEST(OutageEvents, AValidListIsResolvedSortedByNodeThenStart) {
  Json doc = minimal_doc();
  doc["events"] = Json::parse(R"([
    {"kind": "eviction", "node": "w2", "at_s": 300, "duration_s": 60},
    {"kind": "crash", "node": "w0", "at_s": 100},
    {"kind": "crash", "node": "w2", "at_s": 10, "duration_s": 5},
    {"kind": "eviction", "node": "w1", "at_s": 20, "notice_s": 0}])");
  doc["availability"] = Json::parse(R"({"detection_s": 2.5})");
  Diagnostics diags;
  const auto s = check_doc(doc, diags);
  ASSERT_TRUE(s) << diags.format();
  ASSERT_EQ(s->outages.size(), 4u);
  EXPECT_EQ(s->outages[0].node, "w0");
  EXPECT_EQ(s->outages[0].kind, OutageKind::kCrash);
  EXPECT_EQ(s->outages[0].start, 100_s);
  EXPECT_FALSE(s->outages[0].end);  // gone for good
  EXPECT_EQ(s->outages[1].node, "w1");
  EXPECT_EQ(s->outages[1].warned(), 20_s);  // no notice
  EXPECT_EQ(s->outages[2].origin, "/events/2");
  EXPECT_EQ(*s->outages[2].end, 15_s);
  EXPECT_EQ(s->outages[3].kind, OutageKind::kEviction);
  EXPECT_EQ(s->outages[3].notice, 30_s);  // Azure's
  EXPECT_EQ(s->outages[3].warned(), 270_s);
  EXPECT_EQ(s->availability.detection, 2500_ms);
  // The resolved document records the notice it used and loads again to the same outages.
  EXPECT_EQ(s->document["events"][0]["notice_s"], 30);
  Diagnostics again;
  const auto s2 = check_doc(s->document, again);
  ASSERT_TRUE(s2) << again.format();
  EXPECT_EQ(s2->outages.size(), 4u);
  EXPECT_EQ(s2->document, s->document);
}

TEST(OutageEvents, AProbabilityTooSmallForADoubleIsRefusedAtItsKey) {
  // 1 - 1e-300 is 1 in a double: the rate would be 0. Refused with the range, at its key, never
  // as an internal error.
  for (const char* p : {"1e-300", "1e-17"}) {
    Json doc = minimal_doc();
    doc["availability"] = Json::parse(std::string(R"({"models": [{"nodes": {"hosts": ["w1"]},
        "kind": "eviction", "probability_per_h": )") +
                                      p + R"(, "outage": {"mean_s": 60}}]})");
    Diagnostics diags;
    EXPECT_FALSE(check_doc(doc, diags)) << p;
    EXPECT_EQ(error_paths(diags), Paths{"/availability/models/0/probability_per_h"}) << p;
    EXPECT_TRUE(Contains(diags.format(), "1e-16")) << diags.format();
    EXPECT_FALSE(Contains(diags.format(), "draw_outages")) << diags.format();
  }
  Json doc = minimal_doc();
  doc["availability"] = Json::parse(R"({"models": [{"nodes": {"hosts": ["w1"]},
      "kind": "eviction", "probability_per_h": 1e-16, "outage": {"mean_s": 60}}]})");
  Diagnostics diags;
  EXPECT_TRUE(check_doc(doc, diags)) << diags.format();
}

TEST(OutageEvents, WithoutThemTheDocumentHasNoTraceOfThem) {
  Diagnostics diags;
  const auto s = check_doc(minimal_doc(), diags);
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->outages.empty());
  EXPECT_FALSE(s->document.contains("availability"));
  EXPECT_EQ(s->availability.detection, 10_s);
}

TEST(OutageEvents, ThePsMayFailForAnIntervalWithCheckpoints) {
  Diagnostics diags;
  Json doc = minimal_doc();
  doc.merge_patch(Json::parse(R"({"availability": {"checkpoint_interval_s": 60},
    "events": [{"kind": "eviction", "node": "ps", "at_s": 100, "duration_s": 5}]})"));
  const auto s = check_doc(doc, diags);
  ASSERT_TRUE(s) << only_message(diags);
  ASSERT_EQ(s->outages.size(), 1u);
  EXPECT_EQ(s->outages[0].node, "ps");
  EXPECT_EQ(s->outages[0].warned(), 70_s);
  EXPECT_EQ(s->availability.checkpoint_interval, 60_s);
}

TEST(OutageEvents, EachMistakeAtItsPath) {
  Diagnostics diags;
  EXPECT_EQ(errors_after(R"({"events": [{"kind": "crash", "node": "w3", "at_s": 1}]})", diags),
            Paths{"/events/0/node"});
  EXPECT_TRUE(Contains(only_message(diags), "unknown node 'w3' (accepted: ps, w0..w2)"))
      << only_message(diags);
  // The PS may fail, but only for an interval.
  EXPECT_EQ(errors_after(R"({"events": [{"kind": "crash", "node": "ps", "at_s": 1}]})", diags),
            Paths{"/events/0"});
  EXPECT_TRUE(Contains(only_message(diags), "an outage of the PS needs its end"));
  EXPECT_EQ(errors_after(R"({"availability": {"checkpoint_interval_s": 0}})", diags),
            Paths{"/availability/checkpoint_interval_s"});
  EXPECT_EQ(errors_after(R"({"events": [{"kind": "crash", "node": "w1", "at_s": -1}]})", diags),
            Paths{"/events/0/at_s"});
  EXPECT_EQ(errors_after(R"({"events": [{"kind": "crash", "node": "w1", "at_s": 1,
                                          "duration_s": 0}]})",
                         diags),
            Paths{"/events/0/duration_s"});
  EXPECT_EQ(errors_after(R"({"events": [{"kind": "crash", "node": "w1", "at_s": 1,
                                          "notice_s": 5}]})",
                         diags),
            Paths{"/events/0/notice_s"});  // a crash comes without notice
  EXPECT_EQ(errors_after(R"({"events": [{"kind": "eviction", "node": "w1"}]})", diags),
            Paths{"/events/0/at_s"});
  // A bad duration_s is the one error: the notice_s beside it is still read (the reader once
  // stopped before it and reported it as an unknown key).
  EXPECT_EQ(errors_after(R"({"events": [{"kind": "eviction", "node": "w1", "at_s": 1,
                                          "duration_s": -1, "notice_s": 5}]})",
                         diags),
            Paths{"/events/0/duration_s"});
  EXPECT_EQ(errors_after(R"({"availability": {"detection_s": 0}})", diags),
            Paths{"/availability/detection_s"});
  EXPECT_EQ(errors_after(R"({"availability": {"detect": 1}})", diags),
            Paths{"/availability/detect"});
  EXPECT_EQ(errors_after(R"({"runs": [{"protocol": "demo"}],
                             "events": [{"kind": "crash", "node": "w1", "at_s": 1}]})",
                         diags),
            Paths{"/runs/0/protocol"});
  EXPECT_TRUE(Contains(only_message(diags), "a demo run takes no crash or eviction (/events/0)"));
}

TEST(OutageEvents, OutagesOfOneNodeMayNotOverlapCountingTheNotice) {
  Diagnostics diags;
  // The eviction's notice (30 s before 110) falls inside the crash [60, 100).
  EXPECT_EQ(errors_after(R"({"events": [
                 {"kind": "crash", "node": "w1", "at_s": 60, "duration_s": 40},
                 {"kind": "eviction", "node": "w1", "at_s": 110, "duration_s": 5}]})",
                         diags),
            Paths{"/events/1"});
  EXPECT_TRUE(Contains(only_message(diags),
                       "the outage of w1 [80, 115) s overlaps /events/0 [60, 100) s (accepted: "
                       "one outage at a time per node)"));
  // Gone for good: nothing of that node may follow.
  EXPECT_EQ(errors_after(R"({"events": [{"kind": "crash", "node": "w0", "at_s": 5},
                                        {"kind": "crash", "node": "w0", "at_s": 50}]})",
                         diags),
            Paths{"/events/1"});
  EXPECT_TRUE(Contains(only_message(diags), "overlaps /events/0 [5, end) s"));
  // Other nodes, or one after the other: fine.
  EXPECT_TRUE(check_doc(
      [] {
        Json doc = minimal_doc();
        doc["events"] = Json::parse(R"([
          {"kind": "crash", "node": "w0", "at_s": 5, "duration_s": 5},
          {"kind": "crash", "node": "w0", "at_s": 10, "duration_s": 5},
          {"kind": "crash", "node": "w1", "at_s": 6}])");
        return doc;
      }(),
      diags));
}

}  // namespace
}  // namespace hermes::scenario
