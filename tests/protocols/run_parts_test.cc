// The parts of ProtocolRun that stand alone (sim/protocols/skeleton/): the global evaluations'
// record and stop verdict (GlobalEvaluation), where a worker's chunks come from (ChunkSource) and
// the PS's checkpoint (PsCheckpoint) and timers (PsTimers).
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <stdexcept>
#include <vector>

#include "models/data/chunks.h"
#include "models/nn/zoo.h"
#include "sim/protocols/skeleton/chunk_source.h"
#include "sim/protocols/skeleton/global_evaluation.h"
#include "sim/protocols/skeleton/ps_checkpoint.h"
#include "sim/protocols/skeleton/ps_timers.h"

namespace hermes::protocols {
namespace {

engine::SimTime s(double seconds) { return engine::from_seconds(seconds); }

scenario::StopSpec stop_after(int patience, scenario::PatienceUnit unit) {
  scenario::StopSpec stop;
  stop.patience = patience;
  stop.patience_unit = unit;
  stop.max_iterations = 1000;
  return stop;
}

TEST(GlobalEvaluation, StopsOncePatienceEvaluationsBringNoBetterLoss) {
  const auto stop = stop_after(2, scenario::PatienceUnit::kEvaluations);
  GlobalEvaluation eval(stop, 0.9, 1, 4);
  RunResult r;
  EXPECT_EQ(eval.record(s(1), 0, {.loss = 1.0, .accuracy = 0.5}, r), std::nullopt);
  EXPECT_EQ(eval.record(s(2), 1, {.loss = 0.5, .accuracy = 0.95}, r), std::nullopt);
  EXPECT_EQ(eval.record(s(3), 2, {.loss = 0.7, .accuracy = 0.93}, r), std::nullopt);
  EXPECT_EQ(eval.record(s(4), 3, {.loss = 0.6, .accuracy = 0.94}, r), StopReason::kPatience);
  ASSERT_EQ(r.global.size(), 4u);
  EXPECT_EQ(r.aggregations, 4);
  EXPECT_EQ(r.global[1].worker, 1);
  EXPECT_EQ(r.best_loss, 0.5);
  EXPECT_EQ(r.accuracy_at_best, 0.95);
  EXPECT_EQ(r.best_time, s(2));
  EXPECT_EQ(r.time_to_target, s(2));  // the first evaluation at 0.9 or more
  EXPECT_EQ(r.evaluations_since_best, 2);
}

TEST(GlobalEvaluation, ANonFiniteLossDivergesAndTheUpdateCapStops) {
  const auto stop = stop_after(100, scenario::PatienceUnit::kEvaluations);
  GlobalEvaluation eval(stop, std::nullopt, 1, 2);
  RunResult r;
  EXPECT_EQ(eval.record(s(1), -1, {.loss = std::nan(""), .accuracy = 0}, r), StopReason::kDiverged);
  r.updates = 1000;
  EXPECT_EQ(eval.record(s(2), -1, {.loss = 1, .accuracy = 0}, r), StopReason::kMaxIterations);
  EXPECT_FALSE(r.time_to_target);
}

TEST(GlobalEvaluation, PatienceInRoundsCountsAppliedUpdatesOfEveryWorker) {
  const auto stop = stop_after(2, scenario::PatienceUnit::kRounds);
  EXPECT_EQ(GlobalEvaluation::patience_threshold(stop, 4), 8);  // 1/4 rounds
  GlobalEvaluation eval(stop, std::nullopt, 1, 4);
  RunResult r;
  EXPECT_EQ(eval.record(s(1), 0, {.loss = 1, .accuracy = 0}, r), std::nullopt);
  eval.count_round_parts(7);  // 1.75 rounds without a better loss: goes on
  EXPECT_EQ(eval.record(s(2), 0, {.loss = 2, .accuracy = 0}, r), std::nullopt);
  EXPECT_DOUBLE_EQ(r.patience_since_best, 1.75);
  eval.count_round_parts(1);
  EXPECT_EQ(eval.record(s(3), 0, {.loss = 2, .accuracy = 0}, r), StopReason::kPatience);
  EXPECT_EQ(
      GlobalEvaluation::patience_threshold(stop_after(3, scenario::PatienceUnit::kSeconds), 4),
      3'000'000'000);
}

TEST(GlobalEvaluation, IsDueEveryEvaluateEveryUpdatesAndStartsOverWhenAsked) {
  GlobalEvaluation eval(stop_after(1, scenario::PatienceUnit::kEvaluations), std::nullopt, 3, 2);
  EXPECT_FALSE(eval.due(1));
  EXPECT_FALSE(eval.due(1));
  EXPECT_TRUE(eval.due(1));
  EXPECT_TRUE(eval.due(4));
  EXPECT_FALSE(eval.due(2));
  eval.restart_due();
  EXPECT_FALSE(eval.due(2));
  EXPECT_TRUE(eval.due(1));
}

TEST(ChunkSource, FixedChunkingWalksTheWorkersSliceCyclically) {
  ChunkSource src(scenario::Chunking::kFixed, 100, 4, 1, RandomStream::named(1, "chunk", 1));
  const auto part = data::fixed_partition(100, 4, 1);  // 25 samples: 25..49
  std::vector<std::uint32_t> chunk;
  src.draw(10, chunk);
  EXPECT_EQ(chunk, std::vector<std::uint32_t>(part.begin(), part.begin() + 10));
  src.draw(10, chunk);
  src.draw(10, chunk);  // samples 20..29 of the slice: wraps after its 25th
  std::vector<std::uint32_t> want(part.begin() + 20, part.end());
  want.insert(want.end(), part.begin(), part.begin() + 5);
  EXPECT_EQ(chunk, want);
  EXPECT_EQ(src.drawn(), 3);
}

TEST(ChunkSource, RandomChunkingDrawsDistinctSamplesFromItsOwnStream) {
  ChunkSource a(scenario::Chunking::kRandom, 50, 2, 0, RandomStream::named(7, "chunk", 0));
  ChunkSource b(scenario::Chunking::kRandom, 50, 2, 0, RandomStream::named(7, "chunk", 0));
  std::vector<std::uint32_t> x, y;
  a.draw(20, x);
  b.draw(20, y);
  EXPECT_EQ(x, y);  // the same stream, the same chunk
  EXPECT_EQ(std::set<std::uint32_t>(x.begin(), x.end()).size(), 20u);
  for (auto i : x) EXPECT_LT(i, 50u);
}

TEST(PsCheckpoint, RestoresTheModelAndTheUpdatesItWasSavedWith) {
  nn::Model global = nn::make_model(nn::mlp_spec({1, 2, 2, nn::Layout::kCHW}, 3), 1);
  PsCheckpoint cp;
  EXPECT_FALSE(cp.taken());
  EXPECT_THROW(cp.restore(global), std::logic_error);
  const std::vector<float> saved(global.params().begin(), global.params().end());
  cp.save(global, 17);
  for (float& p : global.params()) p += 1.0f;
  EXPECT_EQ(cp.restore(global), 17);
  EXPECT_EQ(std::vector<float>(global.params().begin(), global.params().end()), saved);
}

TEST(PsTimers, TheFailureCancelsEveryPendingTimerAndNoneThatFired) {
  engine::Simulator sim;
  PsTimers timers(sim);
  std::vector<int> fired;
  timers.schedule_in(s(1), [&] { fired.push_back(1); });
  timers.schedule_in(s(3), [&] { fired.push_back(3); });
  sim.schedule_at(s(2), [&] {
    timers.schedule_in(s(2), [&] { fired.push_back(4); });  // due at 4 s
    timers.cancel_all();                                    // the PS fails at 2 s
  });
  sim.schedule_at(s(5), [&] { timers.schedule_in(s(1), [&] { fired.push_back(6); }); });
  sim.run();
  EXPECT_EQ(fired, (std::vector<int>{1, 6}));
}

}  // namespace
}  // namespace hermes::protocols
