// BarrierRound: whom a round waits for under churn, shared by BSP and local SGD.
#include "sim/protocols/skeleton/barrier_round.h"

#include <gtest/gtest.h>

namespace hermes::protocols {
namespace {

BarrierRound three_members() {
  BarrierRound r;
  r.start(3, [](std::size_t) { return true; });
  return r;
}

TEST(BarrierRound, ARoundClosesWithTheLastUpdateItWaitsFor) {
  BarrierRound r = three_members();
  r.open_next(r.members());
  ASSERT_TRUE(r.is_open());
  for (std::size_t w = 0; w < 3; ++w) r.assign(w);
  EXPECT_TRUE(r.counts(0, r.id()));
  EXPECT_FALSE(r.arrive(0));
  EXPECT_FALSE(r.counts(0, r.id()));  // one update per worker and round
  EXPECT_FALSE(r.arrive(1));
  EXPECT_TRUE(r.arrive(2));
  EXPECT_EQ(r.in(), 3u);
}

TEST(BarrierRound, ADepartureEndsTheWaitForItAndItsLateUpdateDoesNotCount) {
  BarrierRound r = three_members();
  r.open_next(r.members());
  const std::int64_t id = r.id();
  EXPECT_FALSE(r.arrive(0));
  EXPECT_FALSE(r.depart(2));
  EXPECT_FALSE(r.member(2));
  EXPECT_TRUE(r.free(2));
  EXPECT_FALSE(r.counts(2, id));
  EXPECT_TRUE(r.arrive(1));  // the last one still awaited
  // A departure after its update was in changes nothing of the round.
  BarrierRound s = three_members();
  s.open_next(s.members());
  EXPECT_FALSE(s.arrive(0));
  EXPECT_FALSE(s.depart(0));
  EXPECT_FALSE(s.depart(1));
  EXPECT_TRUE(s.depart(2));
  EXPECT_EQ(s.in(), 1u);
}

TEST(BarrierRound, AnUpdateForAnEarlierRoundIsLate) {
  BarrierRound r = three_members();
  r.open_next(r.members());
  const std::int64_t first = r.id();
  r.close();
  r.open_next(r.members());
  EXPECT_FALSE(r.counts(0, first));
  EXPECT_TRUE(r.counts(0, r.id()));
}

TEST(BarrierRound, ARoundOfNobodyLeavesThePsIdleUntilAWorkerComesBack) {
  BarrierRound r;
  r.start(2, [](std::size_t w) { return w == 1; });
  EXPECT_FALSE(r.member(0));
  r.open_next({false, false});
  EXPECT_FALSE(r.is_open());
  EXPECT_TRUE(r.idle());
  EXPECT_TRUE(r.rejoin(0));
  r.open_next(r.members());
  EXPECT_TRUE(r.is_open());
  EXPECT_FALSE(r.idle());
  EXPECT_FALSE(r.rejoin(0));  // a round is open: the worker waits for the next one
}

TEST(BarrierRound, AStartAfterThePsRestartsForgetsTheOpenRoundAndWhoWorksOnWhat) {
  BarrierRound r = three_members();
  r.open_next(r.members());
  r.assign(0);
  EXPECT_FALSE(r.free(0));
  r.start(3, [](std::size_t w) { return w != 1; });
  EXPECT_FALSE(r.is_open());
  EXPECT_TRUE(r.free(0));
  EXPECT_FALSE(r.member(1));
}

}  // namespace
}  // namespace hermes::protocols
