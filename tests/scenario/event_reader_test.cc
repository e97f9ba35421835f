// The one events reader (sim/scenario/event_reader.h): its kinds come from the outage-kind table,
// so that a new outage kind is a word of "events" and of the trace without a line here.
#include "sim/scenario/event_reader.h"

#include <gtest/gtest.h>

#include "sim/cluster/outage_kind.h"

namespace hermes::scenario {
namespace {

TEST(EventReader, TheKindsAreSlowdownTheOutageKindsAndLink) {
  std::vector<std::string> expected{"slowdown"};
  for (const std::string& word : cluster::outage_kind_names()) expected.push_back(word);
  std::vector<std::string> in_trace = expected;
  expected.emplace_back("link");
  EXPECT_EQ(event_kind_words(false), expected);
  EXPECT_EQ(event_kind_words(true), in_trace);  // a trace row has no bandwidth or latency
  for (const cluster::OutageKindRow& row : cluster::kOutageKinds) {
    const auto kind = event_kind_named(row.name, true);
    ASSERT_TRUE(kind) << row.name;
    EXPECT_EQ(kind->shape, EventShape::kOutage);
    EXPECT_EQ(kind->outage, row.kind);
  }
  EXPECT_FALSE(event_kind_named("link", true));
  EXPECT_FALSE(event_kind_named("reboot", false));
}

TEST(EventReader, EverySourceMakesTheSameRecord) {
  // The record of an eviction, whether an "events" object or a trace row gave its values.
  EventValues v;
  v.node = "w1";
  v.start_s = 10;
  v.end_s = 12.5;
  v.notice_s = 3;
  DeclaredEvents found;
  const EventPlace place{"/events/0", "/events/0/node", "/events/0", ""};
  ASSERT_FALSE(add_event(*event_kind_named("eviction", false), v, place, found));
  ASSERT_EQ(found.outages.size(), 1u);
  EXPECT_EQ(found.outages[0].spec.kind, OutageKind::kEviction);
  EXPECT_EQ(found.outages[0].spec.end, engine::from_seconds(12.5));
  EXPECT_EQ(found.outages[0].spec.notice, engine::from_seconds(3));
  EXPECT_EQ(found.outages[0].spec.origin, "/events/0");
  // A crash takes no notice, whatever the values carry.
  ASSERT_FALSE(add_event(*event_kind_named("crash", false), v, place, found));
  EXPECT_EQ(found.outages[1].spec.notice, engine::SimTime{});
  // Below the 1 ns resolution: the problem, at duration_s, and no record.
  v.end_s = 10 + 1e-10;
  v.duration_s = 1e-10;
  const auto problem = add_event(*event_kind_named("slowdown", false), v, place, found);
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->key, "duration_s");
  EXPECT_EQ(problem->message, "shorter than the simulator's 1 ns resolution (got 1e-10)");
  EXPECT_TRUE(found.slowdowns.empty());
  // A link fault that changes nothing is a problem of the whole event.
  v.end_s = 20;
  const auto nothing = add_event(*event_kind_named("link", false), v, place, found);
  ASSERT_TRUE(nothing);
  EXPECT_EQ(nothing->key, "");
  EXPECT_TRUE(found.link_faults.empty());
}

}  // namespace
}  // namespace hermes::scenario
