// The cluster's Availability alone (sim/protocols/skeleton/availability.h), on a RunContext with no
// protocol: a schedule of outages gives its subscriber notice, down, missed and up in order at
// their times, turns each node's compute and host off and on, and adds up downtime and billing.
#include "sim/protocols/skeleton/availability.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/protocols/tiny_bsp.h"

namespace hermes::protocols {
namespace {

engine::SimTime s(double seconds) { return engine::from_seconds(seconds); }

// What the subscriber heard, and whether the node's compute and host were on when it did.
struct Heard {
  std::string what;
  std::size_t node;
  engine::SimTime at;
  bool compute_on;
  bool host_on;
  bool operator==(const Heard&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Heard& h) {
  return os << h.what << "(" << h.node << ") at " << engine::to_seconds(h.at) << " s"
            << (h.compute_on ? " on" : " off") << (h.host_on ? "/on" : "/off");
}

struct Recorder : AvailabilitySubscriber {
  RunContext* ctx = nullptr;
  std::vector<Heard> heard;
  std::vector<std::size_t> planned;
  void add(const char* what, std::size_t node) {
    heard.push_back({what, node, ctx->sim.now(), ctx->nodes[node].on(),
                     ctx->network->host_on(static_cast<network::HostIndex>(node))});
  }
  void on_planned(std::size_t node, const scenario::OutageSpec&) override {
    planned.push_back(node);
  }
  void on_notice(std::size_t node) override { add("notice", node); }
  void on_down(std::size_t node) override { add("down", node); }
  void on_missed(std::size_t node) override { add("missed", node); }
  void on_up(std::size_t node) override { add("up", node); }
};

scenario::Scenario with_events(const std::string& events) {
  return testing::scenario_from_text(R"({"name": "avail", "seed": 1,)" + testing::kTinyCluster + R"(
      "training": {"chunk_size": 60, "local_epochs": 1, "batch_size": 16},
      "availability": {"detection_s": 1, "checkpoint_interval_s": 100},
      "events": )" + events + R"(, "runs": [{"name": "bsp", "protocol": "bsp"}]})");
}

struct Fixture {
  explicit Fixture(const std::string& events)
      : sc(with_events(events)), ctx(sc, sc.runs[0]), trace(ctx.sim), avail(ctx, trace, rec) {
    rec.ctx = &ctx;
  }
  scenario::Scenario sc;
  RunContext ctx;
  RunTrace trace;
  Recorder rec;
  Availability avail;
};

TEST(Availability, GivesNoticeDownMissedAndUpInOrderAndTurnsNodesOffAndOn) {
  // w0 (node 1) crashes at 3 s for 4 s (missed 1 s later); w1 (node 2) is evicted at 10 s with a
  // 2 s notice, back at 15 s.
  Fixture f(R"([{"kind": "crash", "node": "w0", "at_s": 3, "duration_s": 4},
                {"kind": "eviction", "node": "w1", "at_s": 10, "duration_s": 5, "notice_s": 2}])");
  f.avail.schedule();
  EXPECT_EQ(f.rec.planned, (std::vector<std::size_t>{1, 2}));
  // Between the events: the node is off while down, and its state says so.
  f.ctx.sim.schedule_at(s(5), [&] {
    EXPECT_FALSE(f.ctx.nodes[1].on());
    EXPECT_FALSE(f.ctx.network->host_on(1));
    EXPECT_EQ(f.avail.state(1), Availability::State::kDown);
    EXPECT_EQ(f.avail.incarnation(1), 1u);
  });
  f.ctx.sim.schedule_at(s(9), [&] { EXPECT_EQ(f.avail.state(2), Availability::State::kLeaving); });
  f.ctx.sim.run();
  const std::vector<Heard> want{
      {"down", 1, s(3), true, true},      // before it is turned off: its work is still there
      {"missed", 1, s(4), false, false},  // detection_s after the crash
      {"up", 1, s(7), true, true},        // turned on first
      {"notice", 2, s(8), true, true},
      {"missed", 2, s(8), true, true},  // an eviction is missed at its notice
      {"down", 2, s(10), true, true},
      {"up", 2, s(15), true, true},
  };
  EXPECT_EQ(f.rec.heard, want);
  EXPECT_TRUE(f.avail.up(1));
  EXPECT_TRUE(f.avail.up(2));
  // Downtime per node; an evicted node is not billed while gone, a crashed one is.
  EXPECT_EQ(f.avail.outages(1), 1);
  EXPECT_EQ(f.avail.downtime(1), s(4));
  EXPECT_EQ(f.avail.deallocated(1), engine::SimTime{});
  EXPECT_EQ(f.avail.downtime(2), s(5));
  EXPECT_EQ(f.avail.deallocated(2), s(5));
  EXPECT_EQ(f.avail.billed(2, s(20)), s(15));
  EXPECT_EQ(f.avail.billed(1, s(20)), s(20));
  EXPECT_EQ(f.avail.outages(0), 0);
  RunResult r;
  f.avail.report(r, s(20));
  ASSERT_EQ(r.churn.size(), 4u);  // the PS and three workers
  EXPECT_EQ(r.churn[2].outages, 1);
  EXPECT_EQ(r.churn[2].deallocated, s(5));
  EXPECT_EQ(r.churn[1].downtime, s(4));
  EXPECT_EQ(r.billed_time, (std::vector<engine::SimTime>{s(20), s(20), s(15), s(20)}));
}

TEST(Availability, AWorkerBackBeforeItsDetectionIsMissedOnceAtItsReturn) {
  Fixture f(R"([{"kind": "crash", "node": "w2", "at_s": 3, "duration_s": 0.5}])");
  f.avail.schedule();
  f.ctx.sim.run();
  const std::vector<Heard> want{
      {"down", 3, s(3), true, true},
      {"missed", 3, s(3.5), true, true},  // the PS learns both at once
      {"up", 3, s(3.5), true, true},
  };
  EXPECT_EQ(f.rec.heard, want);  // the heartbeat timeout at 4 s is void
}

TEST(Availability, ThePsGoesAndComesBackWithoutBeingMissed) {
  Fixture f(R"([{"kind": "eviction", "node": "ps", "at_s": 5, "duration_s": 2, "notice_s": 1}])");
  f.avail.schedule();
  f.ctx.sim.run();
  const std::vector<Heard> want{
      {"notice", 0, s(4), true, true},
      {"down", 0, s(5), true, true},
      {"up", 0, s(7), true, true},
  };
  EXPECT_EQ(f.rec.heard, want);
  EXPECT_EQ(f.avail.deallocated(0), s(2));
}

TEST(Availability, CloseEndsTheOutagesStillOpenAndLaterEventsDoNothing) {
  Fixture f(R"([{"kind": "eviction", "node": "w0", "at_s": 2, "notice_s": 0},
                {"kind": "crash", "node": "w1", "at_s": 20, "duration_s": 1}])");
  f.avail.schedule();
  f.ctx.sim.schedule_at(s(6), [&] {
    f.avail.close();
    f.ctx.sim.stop();
  });
  f.ctx.sim.run();
  f.ctx.sim.run();                    // the events after the close: nothing is heard of them
  ASSERT_EQ(f.rec.heard.size(), 3u);  // w0's notice, missed and down at 2 s
  EXPECT_EQ(f.rec.heard.back().what, "down");
  EXPECT_EQ(f.avail.downtime(1), s(4));  // from 2 s to the close at 6 s
  EXPECT_EQ(f.avail.deallocated(1), s(4));
  EXPECT_EQ(f.avail.outages(2), 0);
}

}  // namespace
}  // namespace hermes::protocols
