#include "sim/engine/simulator.h"

#include "base/random.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace hermes::engine {
namespace {

using namespace time_literals;

TEST(Simulator, FiresInTimeOrder) {
  Simulator sim;
  std::vector<int> order;
  sim.schedule_at(30_ns, [&] { order.push_back(3); });
  sim.schedule_at(10_ns, [&] { order.push_back(1); });
  sim.schedule_at(20_ns, [&] { order.push_back(2); });
  sim.run();
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(sim.now(), 30_ns);
  EXPECT_EQ(sim.events_processed(), 3u);
}

TEST(Simulator, EqualTimesFireInInsertionOrder) {
  Simulator sim;
  std::string order;
  // Many ties so a heap that is not stable would be caught.
  for (int i = 0; i < 200; ++i) {
    sim.schedule_at(5_ns, [&order, i] { order += std::to_string(i) + ","; });
  }
  std::string expected;
  for (int i = 0; i < 200; ++i) expected += std::to_string(i) + ",";
  sim.run();
  EXPECT_EQ(order, expected);
}

TEST(Simulator, EventsScheduledDuringAnEventAtTheSameTimeRunAfterIt) {
  Simulator sim;
  std::vector<std::string> log;
  sim.schedule_at(10_ns, [&] {
    log.push_back("a");
    sim.schedule_in(0_ns, [&] { log.push_back("c"); });
  });
  sim.schedule_at(10_ns, [&] { log.push_back("b"); });
  sim.run();
  EXPECT_EQ(log, (std::vector<std::string>{"a", "b", "c"}));
}

TEST(Simulator, CancelPreventsFiringAndReportsState) {
  Simulator sim;
  int fired = 0;
  EventId a = sim.schedule_at(10_ns, [&] { fired += 1; });
  EventId b = sim.schedule_at(20_ns, [&] { fired += 10; });
  EXPECT_TRUE(sim.is_pending(a));
  EXPECT_EQ(sim.pending(), 2u);
  EXPECT_TRUE(sim.cancel(a));
  EXPECT_FALSE(sim.cancel(a));  // twice
  EXPECT_FALSE(sim.is_pending(a));
  EXPECT_EQ(sim.pending(), 1u);
  sim.run();
  EXPECT_EQ(fired, 10);
  EXPECT_FALSE(sim.cancel(b));  // already fired
  EXPECT_FALSE(sim.cancel(EventId{}));
  EXPECT_EQ(sim.events_processed(), 1u);
}

TEST(Simulator, RecycledSlotDoesNotResurrectCancelledHandle) {
  Simulator sim;
  int fired = 0;
  EventId a = sim.schedule_at(10_ns, [&] { fired += 1; });
  sim.cancel(a);
  sim.run();  // pops the dead entry and frees its slot
  EventId b = sim.schedule_at(20_ns, [&] { fired += 2; });
  EXPECT_EQ(a.slot, b.slot);    // the slot is reused...
  EXPECT_FALSE(sim.cancel(a));  // ...but the old handle no longer refers to anything
  sim.run();
  EXPECT_EQ(fired, 2);
}

TEST(Simulator, RejectsEventsInThePast) {
  Simulator sim;
  sim.schedule_at(100_ns, [] {});
  sim.run();
  EXPECT_THROW(sim.schedule_at(99_ns, [] {}), std::logic_error);
  EXPECT_NO_THROW(sim.schedule_at(100_ns, [] {}));
}

TEST(Simulator, RunUntilStopsAtTheHorizonAndAdvancesTheClock) {
  Simulator sim;
  std::vector<SimTime> seen;
  for (SimTime t : {5_ns, 10_ns, 15_ns, 20_ns}) sim.schedule_at(t, [&, t] { seen.push_back(t); });
  sim.run_until(15_ns);
  EXPECT_EQ(seen, (std::vector<SimTime>{5_ns, 10_ns, 15_ns}));
  EXPECT_EQ(sim.now(), 15_ns);
  sim.run_until(18_ns);
  EXPECT_EQ(sim.now(), 18_ns);
  EXPECT_EQ(sim.next_event_time(), 20_ns);
  sim.run();
  EXPECT_EQ(seen.back(), 20_ns);
  EXPECT_EQ(sim.next_event_time(), kTimeInfinity);
}

TEST(Simulator, StopEndsRunAfterTheCurrentEvent) {
  Simulator sim;
  int count = 0;
  for (int i = 1; i <= 5; ++i) {
    sim.schedule_at(i * kNanosecond, [&] {
      if (++count == 2) sim.stop();
    });
  }
  sim.run();
  EXPECT_EQ(count, 2);
  EXPECT_EQ(sim.now(), 2_ns);
  sim.run();  // resumes
  EXPECT_EQ(count, 5);
}

TEST(SimTime, SecondsConversionIsExactAndRejectsBadDurations) {
  EXPECT_EQ(from_seconds(7.3), 7'300'000'000_ns);
  EXPECT_EQ(from_seconds(1e-9), 1_ns);
  EXPECT_DOUBLE_EQ(to_seconds(1'500'000'000_ns), 1.5);
  EXPECT_THROW(from_seconds(-1.0), std::domain_error);
  EXPECT_THROW(from_seconds(std::nan("")), std::domain_error);
  // A million 1 ms steps land exactly on 1000 s: integer time does not drift.
  SimTime t{};
  for (int i = 0; i < 1'000'000; ++i) t += from_seconds(0.001);
  EXPECT_EQ(t, 1000 * kSecond);
}

}  // namespace
}  // namespace hermes::engine

namespace hermes::engine {
namespace {

// Property check of the 4-ary heap: random times with many ties, random cancellations and events
// scheduled from inside callbacks fire exactly in (time, insertion) order.
TEST(Simulator, RandomScheduleMatchesAStableSortReference) {
  Simulator sim;
  RandomStream rng(123, 0);
  struct Planned {
    SimTime time;
    std::uint64_t order;
  };
  std::vector<Planned> expected;
  std::vector<std::uint64_t> fired;
  std::uint64_t next_order = 0;
  std::vector<std::pair<EventId, std::size_t>> ids;
  std::function<void(SimTime)> plan = [&](SimTime t) {
    const std::uint64_t order = next_order++;
    expected.push_back({t, order});
    ids.push_back({sim.schedule_at(t,
                                   [&, order] {
                                     fired.push_back(order);
                                     // Sometimes schedule more work from inside a callback.
                                     if (rng.uniform_int(4) == 0)
                                       plan(sim.now() +
                                            SimTime::nanoseconds(
                                                static_cast<std::int64_t>(rng.uniform_int(50))));
                                   }),
                   expected.size() - 1});
  };
  for (int i = 0; i < 5000; ++i)
    plan(SimTime::nanoseconds(static_cast<std::int64_t>(rng.uniform_int(1000))));
  std::vector<bool> cancelled(expected.size(), false);
  for (int i = 0; i < 1000; ++i) {
    const auto& [id, index] = ids[rng.uniform_int(ids.size())];
    if (sim.cancel(id)) cancelled[index] = true;
  }
  sim.run();
  std::vector<Planned> live;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (i >= cancelled.size() || !cancelled[i]) live.push_back(expected[i]);
  }
  std::stable_sort(live.begin(), live.end(),
                   [](const Planned& a, const Planned& b) { return a.time < b.time; });
  ASSERT_EQ(fired.size(), live.size());
  for (std::size_t i = 0; i < live.size(); ++i) ASSERT_EQ(fired[i], live[i].order) << i;
  EXPECT_GT(fired.size(), 5000u);  // callbacks added events
}

}  // namespace
}  // namespace hermes::engine
