// No protocol deadlocks under churn (docs/churn.md): for many random failure schedules (crashes
// and evictions of random workers at random times, for random lengths, some for good), every
// protocol's run ends by its own rule (patience or its update cap) while a worker is left, and as
// soon as the last worker is gone for good (no_workers), without error, when none is; also when
// the PS fails and comes back
// from its checkpoints, between the workers' outages. The schedules come from this test's own
// random stream, so a failure names a schedule that reproduces.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/number_text.h"
#include "base/random.h"
#include "tests/protocols/tiny_bsp.h"

namespace hermes::protocols {
namespace {

constexpr int kWorkers = 3;

struct Schedule {
  std::string events;  // the "events" list, JSON
  bool someone_stays = true;
};

// Per worker, 0 to 3 outages one after the other within the first 1.2 s (a tiny run lasts about a
// simulated second), each a crash or an eviction of 10 to 400 ms; with `last_for_good`, worker 0's
// last one never ends; with `all_for_good`, every worker goes for good. With `ps_fails`, the PS
// has 1 or 2 outages of 10 to 300 ms within the first second too (always with an end).
Schedule draw_schedule(std::uint64_t index, bool last_for_good, bool all_for_good,
                       bool ps_fails = false) {
  RandomStream rng = RandomStream::named(index, "churn-property");
  Schedule s;
  std::string list;
  if (ps_fails) {
    double t = 0;
    for (int k = 0, count = 1 + static_cast<int>(rng.uniform_int(2)); k < count; ++k) {
      const bool eviction = rng.uniform01() < 0.5;
      const double notice = eviction ? rng.uniform(0, 0.1) : 0;
      t += notice + rng.uniform(0.01, 0.5);
      const double length = rng.uniform(0.01, 0.3);
      if (!list.empty()) list += ", ";
      list += R"({"kind": ")" + std::string(eviction ? "eviction" : "crash") +
              R"(", "node": "ps", "at_s": )" + format_number(t) + R"(, "duration_s": )" +
              format_number(length);
      if (eviction) list += R"(, "notice_s": )" + format_number(notice);
      list += "}";
      t += length;
    }
  }
  for (int w = 0; w < kWorkers; ++w) {
    const int count = all_for_good ? 1 : static_cast<int>(rng.uniform_int(4));
    double t = 0;
    for (int k = 0; k < count; ++k) {
      const bool eviction = rng.uniform01() < 0.5;
      const double notice = eviction ? rng.uniform(0, 0.1) : 0;
      t += notice + rng.uniform(0, 0.4);
      const double length = rng.uniform(0.01, 0.4);
      const bool forever = all_for_good || (last_for_good && w == 0 && k == count - 1);
      if (!list.empty()) list += ", ";
      list += R"({"kind": ")" + std::string(eviction ? "eviction" : "crash") + R"(", "node": "w)" +
              std::to_string(w) + R"(", "at_s": )" + format_number(t);
      if (eviction) list += R"(, "notice_s": )" + format_number(notice);
      if (!forever) list += R"(, "duration_s": )" + format_number(length);
      list += "}";
      t += length;
    }
  }
  s.events = "[" + list + "]";
  s.someone_stays = !all_for_good;
  return s;
}

scenario::Scenario churn_scenario(const Schedule& s, const std::vector<std::string>& sets = {}) {
  return testing::scenario_from_text(R"({
  "name": "tiny", "seed": 11,)" + testing::kTinyCluster +
                                         R"(
  "training": {"chunk_size": 60, "local_epochs": 1, "batch_size": 16,
               "stop": {"patience": 6, "max_iterations": 20, "max_sim_time_s": 200}},
  "availability": {"detection_s": 0.05, "checkpoint_interval_s": 0.1},
  "runs": [{"name": "bsp", "protocol": "bsp"},
           {"name": "bsp-timeout", "protocol": "bsp", "barrier_timeout_s": 0.05},
           {"name": "asp", "protocol": "asp"}, {"name": "ssp", "protocol": "ssp", "staleness": 1},
           {"name": "asp-fedbuff", "protocol": "asp", "staleness_weight": "polynomial",
            "buffer_size": 2},
           {"name": "ssp-inv", "protocol": "ssp", "staleness": 1, "staleness_weight": "inverse",
            "buffer_size": 2},
           {"name": "ebsp", "protocol": "ebsp", "lookahead": 5},
           {"name": "ebsp-pull", "protocol": "ebsp", "lookahead": 5,
            "pull_between_barriers": true},
           {"name": "hermes", "protocol": "hermes", "alpha": -0.5, "lambda": 5},
           {"name": "selsync", "protocol": "selsync", "delta": 0.05, "window_size": 2},
           {"name": "local-sgd", "protocol": "local_sgd", "local_steps": 2},
           {"name": "diloco", "protocol": "local_sgd", "local_steps": 2, "participation": 0.7,
            "outer_lr": 0.7, "outer_momentum": 0.9},
           {"name": "hybrid", "protocol": "hybrid"},
           {"name": "hybrid-1group", "protocol": "hybrid", "grouping": "size",
            "sync_group_size": 3},
           {"name": "hybrid-speed", "protocol": "hybrid", "grouping": "speed",
            "sync_group_size": 1}],
  "events": )" + s.events + "}",
                                     sets);
}

void expect_every_run_ends(const Schedule& s, std::uint64_t index,
                           const std::vector<std::string>& sets = {}) {
  const auto sc = churn_scenario(s, sets);
  const auto data = testing::blocks_split();
  for (const auto& run : sc.runs) {
    SCOPED_TRACE("schedule " + std::to_string(index) + ", run " + run.name + ": " + s.events);
    RunResult r;
    ASSERT_NO_THROW(r = run_protocol(sc, run, data));
    if (s.someone_stays) {
      EXPECT_TRUE(r.stop_reason == StopReason::kPatience ||
                  r.stop_reason == StopReason::kMaxIterations ||
                  r.stop_reason == StopReason::kDiverged)
          << stop_reason_text(r.stop_reason);
    } else {
      // Ended by its own rule before the last worker went, or then: never by the 200 s cap.
      EXPECT_TRUE(
          r.stop_reason == StopReason::kNoWorkers || r.stop_reason == StopReason::kPatience ||
          r.stop_reason == StopReason::kMaxIterations || r.stop_reason == StopReason::kDiverged)
          << stop_reason_text(r.stop_reason);
      EXPECT_LT(r.sim_time, engine::from_seconds(5));
    }
    // The books balance: a node's downtime is never longer than the run.
    for (const NodeChurn& c : r.churn) EXPECT_LE(c.downtime, r.sim_time);
  }
}

TEST(ChurnProperty, EveryProtocolEndsUnderRandomSchedulesWhereWorkersReturn) {
  for (std::uint64_t i = 1; i <= 10; ++i) expect_every_run_ends(draw_schedule(i, false, false), i);
}

TEST(ChurnProperty, EveryProtocolEndsWhenAWorkerGoesForGood) {
  for (std::uint64_t i = 101; i <= 105; ++i) {
    expect_every_run_ends(draw_schedule(i, true, false), i);
  }
}

// docs/sharding.md: a worker that goes fails its flows to and from every shard.
TEST(ChurnProperty, EveryProtocolEndsWithAShardedPs) {
  for (std::uint64_t i = 201; i <= 204; ++i) {
    expect_every_run_ends(draw_schedule(i, i % 2 == 0, false), i, {"cluster.ps.shards=2"});
  }
}

TEST(ChurnProperty, EveryProtocolEndsWhenThePsFailsToo) {
  for (std::uint64_t i = 301; i <= 306; ++i) {
    expect_every_run_ends(draw_schedule(i, i % 2 == 0, false, true), i);
  }
}

TEST(ChurnProperty, WithEveryWorkerGoneForGoodTheRunEndsWhenTheLastOneGoes) {
  for (std::uint64_t i = 401; i <= 404; ++i) {
    expect_every_run_ends(draw_schedule(i, false, true, i % 2 == 0), i);
  }
}

}  // namespace
}  // namespace hermes::protocols
