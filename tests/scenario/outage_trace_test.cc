// "trace" rows of kinds crash and eviction (the optional columns event and notice_s): read into
// the same outages as the "events" list's, checked with them, each mistake with its file and line.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/scenario/trace_file_test.h"

namespace hermes::scenario {
namespace {

using namespace testing;  // the scenario test helpers (scenario_test_util.h)
using namespace engine::time_literals;

class OutageTrace : public TraceFileTest {
 protected:
  void expect_messages(const std::string& text, const std::vector<std::string>& want) {
    const auto m = messages(text);
    ASSERT_EQ(m.size(), want.size()) << ::testing::PrintToString(m);
    for (std::size_t i = 0; i < want.size(); ++i) {
      EXPECT_EQ(m[i].rfind(want[i], 0), 0u) << "message " << i << ": " << m[i];
    }
  }
};

TEST_F(OutageTrace, OutageRowsBecomeOutagesSortedByNodeThenStart) {
  Diagnostics diags;
  const auto s = check(
      "# crashes and evictions among slowdowns\n"
      "node,event,start_s,end_s,speed_factor,notice_s\n"
      "w1,eviction,20,80,,5\n"  // 3
      "w0,crash,30,,,\n"        // 4: gone for good
      "w2,,35,40,0.5,\n"        // 5: a slowdown, event left empty
      "w2,crash,40,60,,\n"      // 6
      "w2,slowdown,60,70,0.25,\n"
      "w1,eviction,200,260,,\n"  // 8: the default notice
      "w2,crash,1e8,,,\n",       // 9: beyond any run's end: never happens, but fine
      diags);
  ASSERT_TRUE(s) << diags.format();
  ASSERT_EQ(s->outages.size(), 5u);
  const OutageSpec& crash_for_good = s->outages[0];
  EXPECT_EQ(crash_for_good.node, "w0");
  EXPECT_EQ(crash_for_good.kind, OutageKind::kCrash);
  EXPECT_EQ(crash_for_good.start, 30_s);
  EXPECT_FALSE(crash_for_good.end);
  EXPECT_EQ(crash_for_good.origin, path("t.csv") + " line 4");
  const OutageSpec& evicted = s->outages[1];
  EXPECT_EQ(evicted.node, "w1");
  EXPECT_EQ(evicted.kind, OutageKind::kEviction);
  EXPECT_EQ(evicted.start, 20_s);
  EXPECT_EQ(*evicted.end, 80_s);
  EXPECT_EQ(evicted.notice, 5_s);
  EXPECT_EQ(evicted.warned(), 15_s);
  EXPECT_EQ(evicted.origin, path("t.csv") + " line 3");
  EXPECT_EQ(s->outages[2].notice, 30_s);  // Azure's, as for events
  EXPECT_EQ(s->outages[2].origin, path("t.csv") + " line 8");
  EXPECT_EQ(s->outages[3].node, "w2");
  EXPECT_EQ(*s->outages[3].end, 60_s);
  EXPECT_EQ(s->outages[3].notice, 0_s);  // a crash has none
  EXPECT_EQ(s->outages[4].start, engine::from_seconds(1e8));
  ASSERT_EQ(s->slowdowns.size(), 2u);
  EXPECT_EQ(s->slowdowns[0].origin, path("t.csv") + " line 5");
  EXPECT_EQ(s->slowdowns[0].speed_factor, 0.5);
  EXPECT_EQ(s->slowdowns[1].speed_factor, 0.25);
}

TEST_F(OutageTrace, TheOptionalColumnsInAnyOrderOrAbsent) {
  Diagnostics diags;
  // No notice_s column: an eviction gets the default notice.
  auto s = check("event,end_s,node,speed_factor,start_s\neviction,100,w2,,50\n", diags);
  ASSERT_TRUE(s) << diags.format();
  ASSERT_EQ(s->outages.size(), 1u);
  EXPECT_EQ(s->outages[0].start, 50_s);
  EXPECT_EQ(*s->outages[0].end, 100_s);
  EXPECT_EQ(s->outages[0].notice, 30_s);
  // No event column: every row is a slowdown, as before the column existed; notice_s alone is
  // allowed (and empty on a slowdown).
  s = check("notice_s,node,start_s,end_s,speed_factor\n,w2,50,100,0.5\n", diags);
  ASSERT_TRUE(s) << diags.format();
  EXPECT_TRUE(s->outages.empty());
  EXPECT_EQ(s->slowdowns.size(), 1u);
}

TEST_F(OutageTrace, AFourColumnTraceReadsAsBefore) {
  Diagnostics diags;
  const auto s = check("node,start_s,end_s,speed_factor\nw0,10,20,0.5\nw2,15,17.5,0.25\n", diags);
  ASSERT_TRUE(s) << diags.format();
  EXPECT_TRUE(s->outages.empty());
  ASSERT_EQ(s->slowdowns.size(), 2u);
  EXPECT_EQ(s->slowdowns[1].node, "w2");
  EXPECT_EQ(s->slowdowns[1].end, 17'500_ms);
  EXPECT_EQ(s->slowdowns[1].origin, path("t.csv") + " line 3");
  // The resolved document records the file and its checksum only, as before.
  Json want = {{"file", path("t.csv")}, {"sha256", s->trace->sha256}};
  EXPECT_EQ(s->document["trace"], want);
  // A row of a four-column trace is a slowdown: an empty speed factor is still an error.
  expect_messages("node,start_s,end_s,speed_factor\nw0,10,,\n",
                  {"line 2: column 'end_s': '' is not a time in seconds",
                   "line 2: column 'speed_factor': '' is not a speed factor (accepted: a number in "
                   "(0, 1])"});
}

TEST_F(OutageTrace, UnknownAndMissingColumnsNameTheAcceptedOnes) {
  const std::string accepted =
      "(accepted columns: node,start_s,end_s,speed_factor and optionally event,notice_s, in any "
      "order, each once)";
  expect_messages("node,kind,start_s,end_s,speed_factor\n",
                  {"line 1: unknown column 'kind' " + accepted});
  // The optional columns do not make a required one optional.
  expect_messages("node,event,start_s,end_s\n",
                  {"line 1: missing column 'speed_factor' " + accepted});
  expect_messages("node,event,end_s\n", {"line 1: missing column 'start_s' " + accepted,
                                         "line 1: missing column 'speed_factor' " + accepted});
  expect_messages("node,event,start_s,end_s,speed_factor,event\n",
                  {"line 1: duplicated column 'event' " + accepted});
}

TEST_F(OutageTrace, EveryRowMistakeWithItsLineInOnePass) {
  expect_messages(
      "node,event,start_s,end_s,speed_factor,notice_s\n"
      "w0,crash,10,,0.5,\n"       // 2: a speed factor on an outage
      "w0,reboot,20,30,,\n"       // 3: no such event
      "w1,crash,30,40,,5\n"       // 4: a notice on a crash
      "w1,,50,60,0.5,10\n"        // 5: a notice on a slowdown
      "w2,eviction,70,60,,\n"     // 6: back before it went
      "w2,eviction,80,90,,-1\n"   // 7: a negative notice
      "w2,crash,abc,,,\n"         // 8: a non-numeric time
      "w2,crash,-5,,,\n"          // 9: a negative time
      "w2,eviction,100,x,,\n"     // 10: a non-numeric end
      "w0,crash,200,,,\n"         // 11: fine
      "w1,crash,150,160,,\n"      // 12: before line 11
      "w9,crash,300,,,\n"         // 13: unknown node
      "w0,eviction,400,500,,\n",  // 14: w0 is gone for good since line 11
      {
          "line 2: column 'speed_factor': '0.5' on a crash row (accepted: an empty cell; a "
          "speed factor belongs to a slowdown row)",
          "line 3: column 'event': 'reboot' is not an event (accepted: slowdown (the default, "
          "also an empty cell), crash, eviction)",
          "line 4: column 'notice_s': '5' on a crash row (accepted: an empty cell; a crash "
          "comes without notice)",
          "line 5: column 'notice_s': '10' on a slowdown row (accepted: an empty cell; a notice "
          "belongs to an eviction row)",
          "line 6: end_s 60 is not after start_s 70 (accepted: end_s > start_s; empty: gone for "
          "good)",
          "line 7: column 'notice_s': '-1' is not a time in seconds (accepted: a number in [0, ",
          "line 8: column 'start_s': 'abc' is not a time in seconds",
          "line 9: column 'start_s': '-5' is not a time in seconds",
          "line 10: column 'end_s': 'x' is not a time in seconds",
          "line 12: rows must be sorted by start_s: start_s 150 comes after line 11's 200",
          "line 13: unknown node 'w9' (accepted: ",
          "line 14: the outage of w0 [370, 500) s overlaps " + path("t.csv") +
              " line 11 [200, end) s (accepted: one outage at a time per node)",
      });
}

TEST_F(OutageTrace, OverlapsWithEventsOutagesNameBoth) {
  Diagnostics diags;
  // The event's eviction counts from its notice, 70 s: inside the trace's crash [50, 80).
  const char* eviction_at_100 = R"({"events": [
      {"kind": "eviction", "node": "w1", "at_s": 100, "duration_s": 60}]})";
  EXPECT_FALSE(
      check("node,event,start_s,end_s,speed_factor\nw1,crash,50,80,\n", diags, eviction_at_100));
  EXPECT_EQ(error_paths(diags), Paths{"/events/0"});
  EXPECT_TRUE(Contains(only_message(diags), "the outage of w1 [70, 160) s overlaps " +
                                                path("t.csv") + " line 2 [50, 80) s"));
  // The trace's row the later one: reported at the file and line, naming the event.
  EXPECT_FALSE(
      check("node,event,start_s,end_s,speed_factor\nw1,crash,150,,\n", diags, eviction_at_100));
  EXPECT_EQ(error_paths(diags), Paths{"/trace/file"});
  EXPECT_TRUE(Contains(only_message(diags), path("t.csv") +
                                                ": line 2: the outage of w1 [150, end) s "
                                                "overlaps /events/0 [70, 160) s"));
  // One after the other: both kept, the event's first among equals of one node.
  const auto s =
      check("node,event,start_s,end_s,speed_factor\nw1,crash,160,,\n", diags, eviction_at_100);
  ASSERT_TRUE(s) << diags.format();
  ASSERT_EQ(s->outages.size(), 2u);
  EXPECT_EQ(s->outages[0].origin, "/events/0");
  EXPECT_EQ(s->outages[1].origin, path("t.csv") + " line 2");
}

TEST_F(OutageTrace, AWorkerTakesOutagesFromOneSource) {
  Diagnostics diags;
  // Declared in the trace, and selected by a model: the model's selection is the error.
  EXPECT_FALSE(check("node,event,start_s,end_s,speed_factor\nw2,crash,50,80,\n", diags,
                     R"({"availability": {"models": [
                         {"nodes": {"hosts": ["w2"]}, "kind": "crash", "mtbf_h": 1,
                          "outage": {"mean_s": 60}}]}})"));
  EXPECT_EQ(error_paths(diags), Paths{"/availability/models/0/nodes"});
  EXPECT_TRUE(Contains(only_message(diags), "selects w2, which already has declared outages"));
  // A model for another worker: both sources, one each.
  const auto s = check("node,event,start_s,end_s,speed_factor\nw2,crash,50,80,\n", diags,
                       R"({"availability": {"models": [
                           {"nodes": {"hosts": ["w1"]}, "kind": "crash", "mtbf_h": 1,
                            "outage": {"mean_s": 60}}]}})");
  ASSERT_TRUE(s) << diags.format();
  EXPECT_EQ(s->outages.back().origin, path("t.csv") + " line 2");
}

TEST_F(OutageTrace, ADemoRunTakesNoTraceOutage) {
  Diagnostics diags;
  EXPECT_FALSE(check("node,event,start_s,end_s,speed_factor\nw2,crash,50,80,\n", diags,
                     R"({"runs": [{"protocol": "demo"}]})"));
  EXPECT_EQ(error_paths(diags), Paths{"/runs/0/protocol"});
  EXPECT_TRUE(Contains(only_message(diags),
                       "a demo run takes no crash or eviction (" + path("t.csv") + " line 2)"));
}

TEST_F(OutageTrace, TheShippedSampleEvictsOnlySpotSizes) {
  // B-series sizes are not offered as Spot: the sample's evictions are of the DS2_v2 and F4s_v2
  // workers (w4..w11) of the paper's cluster only.
  Diagnostics diags;
  const auto s = check_scenario(example_path("trace-outages.json"), {}, HERMES_SOURCE_DIR, diags);
  ASSERT_TRUE(s) << diags.format();
  ASSERT_TRUE(s->trace);
  ASSERT_FALSE(s->outages.empty());
  for (const OutageSpec& o : s->outages) {
    const auto node = std::find_if(s->nodes.begin(), s->nodes.end(),
                                   [&](const NodeSpec& n) { return n.host == o.node; });
    ASSERT_NE(node, s->nodes.end());
    EXPECT_EQ(o.kind, OutageKind::kEviction) << o.origin;
    EXPECT_NE(node->profile.name, "B1ms") << o.origin;
  }
}

}  // namespace
}  // namespace hermes::scenario
