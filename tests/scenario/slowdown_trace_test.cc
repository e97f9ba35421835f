// "trace": a CSV of slowdown intervals. Each mistake names the file and line, all in one pass.
#include <gtest/gtest.h>

#include "tests/scenario/trace_file_test.h"

namespace hermes::scenario {
namespace {

using namespace testing;  // the scenario test helpers (scenario_test_util.h)
using namespace engine::time_literals;

using SlowdownTrace = TraceFileTest;

TEST_F(SlowdownTrace, RowsAreReadInAnyColumnOrderWithCommentsAndBlankLines) {
  Diagnostics diags;
  const auto s = check(
      "# an illustrative trace\n"
      "start_s,node,speed_factor,end_s\n"
      "10,w0,0.5,20\n"
      "\n"
      "15, w2 ,0.25,17.5\n",
      diags);
  ASSERT_TRUE(s) << diags.format();
  ASSERT_EQ(s->slowdowns.size(), 2u);
  EXPECT_EQ(s->slowdowns[1].node, "w2");
  EXPECT_EQ(s->slowdowns[1].start, 15_s);
  EXPECT_EQ(s->slowdowns[1].end, 17'500_ms);
  EXPECT_EQ(s->slowdowns[1].speed_factor, 0.25);
  EXPECT_EQ(s->slowdowns[1].origin, path("t.csv") + " line 5");
  ASSERT_TRUE(s->trace);
  EXPECT_EQ(s->trace->sha256.size(), 64u);
  EXPECT_EQ(s->document["trace"]["sha256"], s->trace->sha256);
  EXPECT_EQ(s->document["trace"]["file"], path("t.csv"));
  // The resolved document loads again; once the file changes, its recorded checksum says so.
  Diagnostics again;
  EXPECT_TRUE(check_doc(s->document, again)) << again.format();
  put("t.csv", "node,start_s,end_s,speed_factor\n");
  EXPECT_FALSE(check_doc(s->document, again));
  EXPECT_EQ(error_paths(again), Paths{"/trace/sha256"});
  EXPECT_TRUE(Contains(only_message(again), "the file changed since"));
}

TEST_F(SlowdownTrace, AMissingFileSaysWhy) {
  Json doc = minimal_doc();
  doc["trace"] = {{"file", path("absent.csv")}};
  Diagnostics diags;
  EXPECT_FALSE(check_doc(doc, diags));
  EXPECT_EQ(error_paths(diags), Paths{"/trace/file"});
  EXPECT_TRUE(Contains(only_message(diags), path("absent.csv") + ": cannot open the trace"));
  EXPECT_TRUE(Contains(only_message(diags), "No such file or directory"));
}

TEST_F(SlowdownTrace, HeaderMistakesNameTheAcceptedColumns) {
  const std::string accepted = "(accepted columns: node,start_s,end_s,speed_factor";
  auto m = messages("node,start_s,end_s,speed\n");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_TRUE(Contains(m[0], "line 1: unknown column 'speed' " + accepted));
  m = messages("# note\nnode,start_s,end_s\n");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_TRUE(Contains(m[0], "line 2: missing column 'speed_factor' " + accepted));
  m = messages("node,start_s,end_s,speed_factor,node\n");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_TRUE(Contains(m[0], "line 1: duplicated column 'node'"));
  m = messages("");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_TRUE(Contains(m[0], "no header line"));
}

TEST_F(SlowdownTrace, EveryRowMistakeWithItsLineInOnePass) {
  const auto m = messages(
      "node,start_s,end_s,speed_factor\n"
      "w0,abc,20,0.5\n"  // 2: non-numeric
      "w0,-5,20,0.5\n"   // 3: negative
      "w1,30,30,0.5\n"   // 4: end <= start
      "w1,40,50,0\n"     // 5: speed factor 0
      "w2,35,36,0.5\n"   // 6: fine (the rows before it had errors)
      "w9,60,70,0.5\n"   // 7: unknown node
      "w1,70,80,0.5\n"   // 8: fine
      "w1,75,90,0.5\n"   // 9: overlaps line 8
      "w0,1,2\n");       // 10: too few columns: the reading stops here
  std::vector<std::string> want = {
      "line 2: column 'start_s': 'abc' is not a time in seconds",
      "line 3: column 'start_s': '-5' is not a time in seconds",
      "line 4: end_s 30 is not after start_s 30",
      "line 5: column 'speed_factor': '0' is not a speed factor (accepted: a number in (0, 1])",
      "Too few columns in line 10",
      "line 7: unknown node 'w9' (accepted: ps, w0..w2)",
      "line 9: the slowdown of w1 [75, 90) s overlaps ",
  };
  ASSERT_EQ(m.size(), want.size()) << ::testing::PrintToString(m);
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_TRUE(Contains(m[i], want[i])) << i;
  EXPECT_TRUE(Contains(m.back(), "t.csv line 8 [70, 80) s"));
}

TEST_F(SlowdownTrace, RowsMustBeSortedByStart) {
  const auto m = messages(
      "node,start_s,end_s,speed_factor\n"
      "w0,10,20,0.5\n"
      "w1,5,8,0.5\n");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_TRUE(Contains(m[0],
                       "line 3: rows must be sorted by start_s: start_s 5 comes after "
                       "line 2's 10"));
}

TEST_F(SlowdownTrace, OverlapsWithEventsNameBoth) {
  Diagnostics diags;
  EXPECT_FALSE(
      check("node,start_s,end_s,speed_factor\nw1,100,200,0.5\n", diags,
            R"({"events": [{"kind": "slowdown", "node": "w1", "at_s": 150, "duration_s": 100,
                          "speed_factor": 0.5}]})"));
  // Reported at the one that starts later (here the event), naming the other.
  EXPECT_EQ(error_paths(diags), Paths{"/events/0"});
  EXPECT_TRUE(Contains(only_message(diags), "the slowdown of w1 [150, 250) s overlaps " +
                                                path("t.csv") + " line 2 [100, 200) s"));
  // Combined without overlap: events first, then the trace's rows.
  const auto s =
      check("node,start_s,end_s,speed_factor\nw1,100,150,0.5\n", diags,
            R"({"events": [{"kind": "slowdown", "node": "w1", "at_s": 150, "duration_s": 100,
                            "speed_factor": 0.5}]})");
  ASSERT_TRUE(s) << diags.format();
  ASSERT_EQ(s->slowdowns.size(), 2u);
  EXPECT_EQ(s->slowdowns[0].origin, "/events/0");
}

TEST_F(SlowdownTrace, TheTraceKeyItself) {
  EXPECT_EQ(errors_after(R"({"trace": "x.csv"})"), Paths{"/trace"});
  EXPECT_EQ(errors_after(R"({"trace": {}})"), Paths{"/trace/file"});
  EXPECT_EQ(errors_after(R"({"trace": {"file": "x.csv", "format": 1}})"),
            (Paths{"/trace/format", "/trace/file"}));
}

TEST_F(SlowdownTrace, TheShippedSampleLoadsOnThePapersCluster) {
  Diagnostics diags;
  const auto s =
      check_scenario(std::string(HERMES_SOURCE_DIR) + "/scenarios/examples/slowdown.json", {},
                     HERMES_SOURCE_DIR, diags);
  ASSERT_TRUE(s) << diags.format();
  EXPECT_TRUE(s->trace);
  EXPECT_GT(s->slowdowns.size(), 2u);
}

}  // namespace
}  // namespace hermes::scenario
