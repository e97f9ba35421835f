// The hybrid protocol (docs/hybrid.md): one group of every worker is BSP and groups of one worker
// are ASP, bit for bit; groups by profile average their own members only, asynchronously against
// each other, each group update weighted by its staleness; churn and PS outages are taken; bad
// groups are refused before anything runs.
#include "sim/protocols/algorithms/hybrid.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim/protocols/registry.h"
#include "sim/protocols/reporting/api_counting.h"
#include "sim/protocols/reporting/result_csv.h"
#include "tests/protocols/full_output.h"

namespace hermes::protocols {
namespace {

// Six workers, two of each profile, so that groups by profile are pairs of equal machines.
std::string six(const std::string& runs, const std::string& extra = "") {
  return R"({
    "name": "hybrid", "seed": 5,
    "cluster": {"ps": {"profile": "DS3_v2"},
                "workers": [{"profile": "B1ms", "count": 2}, {"profile": "DS2_v2", "count": 2},
                            {"profile": "F4s_v2", "count": 2}]},
    "training": {"chunk_size": 100, "local_epochs": 1, "batch_size": 16, "learning_rate": 0.1,
                 "stop": {"patience": 1000, "max_iterations": 36}},
    "runs": [)" +
         runs + "]" + extra + "}";
}

struct Outcome {
  RunResult result;
  std::vector<int> groups;
  std::vector<HybridApplyRecord> applies;
};

Outcome hybrid_outcome(const scenario::Scenario& sc, std::size_t run) {
  const auto data = testing::blocks_split();
  auto r = make_hybrid(sc, sc.runs[run], data);
  Outcome out;
  record_hybrid_applies(*r, &out.applies);
  out.result = r->run();
  out.groups = hybrid_groups(*r);
  out.result.api = count_api_calls(sc.api, out.result);  // as run_protocol counts them
  return out;
}

TEST(Hybrid, OneGroupOfEveryWorkerIsBsp) {
  // BSP opens its next round after the evaluation; the hybrid does so with
  // model_after_evaluation (else at once, as ASP answers).
  const auto sc =
      testing::scenario_from_text(six(R"({"name": "bsp", "protocol": "bsp"},
             {"name": "h", "protocol": "hybrid", "grouping": "size", "sync_group_size": 6})",
                                      R"(, "transfers": {"model_after_evaluation": true})"));
  const auto data = testing::blocks_split();
  const RunResult bsp = run_protocol(sc, sc.runs[0], data);
  const Outcome h = hybrid_outcome(sc, 1);
  ASSERT_EQ(h.result.status, RunStatus::kOk);
  EXPECT_EQ(h.groups, std::vector<int>(6, 0));
  EXPECT_EQ(testing::run_outputs(sc, sc.runs[0], h.result),
            testing::run_outputs(sc, sc.runs[0], bsp));
  for (const auto& a : h.applies) {
    EXPECT_EQ(a.averaged.size(), 6u);
    EXPECT_EQ(a.tau, 0);  // nobody else moved the model
  }
}

TEST(Hybrid, GroupsOfOneWorkerAreAspWithTheSameWeighting) {
  const auto sc = testing::scenario_from_text(six(R"({"name": "asp", "protocol": "asp"},
    {"name": "h", "protocol": "hybrid", "grouping": "size", "sync_group_size": 1,
     "staleness_weight": "constant"},
    {"name": "asp-inv", "protocol": "asp", "staleness_weight": "inverse"},
    {"name": "h-inv", "protocol": "hybrid", "grouping": "size", "sync_group_size": 1,
     "staleness_weight": "inverse"})"));
  const auto data = testing::blocks_split();
  for (const std::size_t i : {0u, 2u}) {
    SCOPED_TRACE(sc.runs[i].name);
    const RunResult asp = run_protocol(sc, sc.runs[i], data);
    const Outcome h = hybrid_outcome(sc, i + 1);
    ASSERT_EQ(h.result.status, RunStatus::kOk);
    EXPECT_EQ(testing::run_outputs(sc, sc.runs[i], h.result),
              testing::run_outputs(sc, sc.runs[i], asp));
  }
}

TEST(Hybrid, GroupsByProfileAverageTheirOwnMembersAsynchronously) {
  const auto sc = testing::scenario_from_text(
      six(R"({"name": "h", "protocol": "hybrid", "staleness_weight": "inverse"})"));
  const Outcome h = hybrid_outcome(sc, 0);
  ASSERT_EQ(h.result.status, RunStatus::kOk);
  EXPECT_EQ(h.groups, (std::vector<int>{0, 0, 1, 1, 2, 2}));
  ASSERT_EQ(h.applies.size(), 18u);  // 36 updates, two per group update
  std::vector<int> per_group(3, 0);
  bool stale = false;
  for (std::size_t i = 0; i < h.applies.size(); ++i) {
    const HybridApplyRecord& a = h.applies[i];
    SCOPED_TRACE("group update " + std::to_string(i));
    // Both members of its group, and only them.
    const std::set<int> members(a.averaged.begin(), a.averaged.end());
    EXPECT_EQ(members, (std::set<int>{2 * a.group, 2 * a.group + 1}));
    EXPECT_EQ(a.version, static_cast<std::int64_t>(i));  // one global update each
    // The mean (1/2) times ASP's server step (add: 1) times 1/(1+tau).
    EXPECT_EQ(a.weight, (1.0f / static_cast<float>(1 + a.tau)) / 2.0f);
    stale = stale || a.tau > 0;
    ++per_group[static_cast<std::size_t>(a.group)];
  }
  // The groups do not wait for each other: the F4s_v2 pair updates more often than the B1ms pair
  // (whose updates are then stale).
  EXPECT_TRUE(stale);
  EXPECT_GT(per_group[2], per_group[0]);
  // Breaking the rule shows: averaging across the groups (one group of six) gives another run.
  const auto one = testing::scenario_from_text(six(
      R"({"name": "h", "protocol": "hybrid", "staleness_weight": "inverse", "grouping": "size",
          "sync_group_size": 6})"));
  EXPECT_NE(hybrid_outcome(one, 0).result.global.back().loss, h.result.global.back().loss);
}

TEST(Hybrid, GroupsByEntryAreTheClustersEntries) {
  // One entry per profile: the groups by entry are those by profile, and so is the run.
  const auto sc = testing::scenario_from_text(six(R"({"name": "p", "protocol": "hybrid"},
    {"name": "e", "protocol": "hybrid", "grouping": "entry"})"));
  const Outcome p = hybrid_outcome(sc, 0);
  const Outcome e = hybrid_outcome(sc, 1);
  EXPECT_EQ(e.groups, p.groups);
  EXPECT_EQ(testing::run_outputs(sc, sc.runs[0], e.result),
            testing::run_outputs(sc, sc.runs[0], p.result));
  // Entries that split a profile: two groups of B1ms.
  const auto split = testing::scenario_from_text(R"({
    "name": "split", "cluster": {"ps": {"profile": "DS3_v2"},
      "workers": [{"profile": "B1ms"}, {"profile": "B1ms"}, {"profile": "F4s_v2", "count": 2}]},
    "training": {"chunk_size": 100, "local_epochs": 1, "stop": {"max_iterations": 8}},
    "runs": [{"protocol": "hybrid", "grouping": "entry"}]})");
  EXPECT_EQ(hybrid_outcome(split, 0).groups, (std::vector<int>{0, 1, 2, 2}));
}

TEST(Hybrid, GroupsBySpeedAreFormedFromAMeasuringRoundOfAll) {
  const auto sc = testing::scenario_from_text(six(
      R"({"name": "s", "protocol": "hybrid", "grouping": "speed", "sync_group_size": 2},
         {"name": "s3", "protocol": "hybrid", "grouping": "speed", "sync_group_size": 3})"));
  const Outcome s = hybrid_outcome(sc, 0);
  ASSERT_EQ(s.result.status, RunStatus::kOk);
  // The first update is the measuring round's: every worker, from the initial model.
  ASSERT_FALSE(s.applies.empty());
  EXPECT_EQ(s.applies[0].averaged.size(), 6u);
  EXPECT_EQ(s.applies[0].tau, 0);
  // Equal machines take equal times: pairs of one profile each, the F4s_v2 pair (w4, w5) fastest
  // and the B1ms pair (w0, w1), whose first chunk runs on burst credits, as measured.
  ASSERT_EQ(s.groups.size(), 6u);
  EXPECT_EQ(s.groups[0], s.groups[1]);
  EXPECT_EQ(s.groups[2], s.groups[3]);
  EXPECT_EQ(s.groups[4], s.groups[5]);
  EXPECT_EQ(s.groups[4], 0);
  std::set<int> distinct(s.groups.begin(), s.groups.end());
  EXPECT_EQ(distinct, (std::set<int>{0, 1, 2}));
  // After it, each group update holds its own pair only.
  for (std::size_t i = 1; i < s.applies.size(); ++i) {
    const auto& a = s.applies[i];
    ASSERT_EQ(a.averaged.size(), 2u) << i;
    EXPECT_EQ(s.groups[static_cast<std::size_t>(a.averaged[0])], a.group) << i;
    EXPECT_EQ(s.groups[static_cast<std::size_t>(a.averaged[1])], a.group) << i;
  }
  // Groups of three by speed: the faster three workers together.
  const Outcome s3 = hybrid_outcome(sc, 1);
  EXPECT_EQ(std::set<int>(s3.groups.begin(), s3.groups.end()), (std::set<int>{0, 1}));
  EXPECT_EQ(s3.groups[4], 0);
  EXPECT_EQ(s3.groups[5], 0);
}

TEST(Hybrid, ChurnAndPsOutagesAreTaken) {
  const auto sc = testing::scenario_from_text(
      six(R"({"name": "h", "protocol": "hybrid"})",
          R"(, "availability": {"detection_s": 0.05, "checkpoint_interval_s": 0.1},
         "events": [{"kind": "crash", "node": "w4", "at_s": 0.1, "duration_s": 0.15},
                    {"kind": "crash", "node": "ps", "at_s": 0.4, "duration_s": 0.1}])"));
  const Outcome h = hybrid_outcome(sc, 0);
  ASSERT_EQ(h.result.status, RunStatus::kOk);
  EXPECT_GE(h.result.updates, 36);
  EXPECT_EQ(h.result.churn[0].outages, 1);  // the PS
  EXPECT_EQ(h.result.churn[5].outages, 1);  // w4
  // While w4 was away its group averaged w5 alone; back, both again.
  bool alone = false, both_after = false;
  for (const auto& a : h.applies) {
    if (a.group != 2) continue;
    if (a.averaged.size() == 1) alone = true;
    if (alone && a.averaged.size() == 2) both_after = true;
  }
  EXPECT_TRUE(alone);
  EXPECT_TRUE(both_after);
}

TEST(Hybrid, GroupsThatDoNotPartitionTheWorkersAreRefusedBeforeTheRun) {
  Diagnostics diags("bad");
  EXPECT_FALSE(scenario::check_scenario_text(
      six(R"({"protocol": "hybrid", "grouping": "size", "sync_group_size": 4})"), {},
      HERMES_SOURCE_DIR, diags));
  EXPECT_NE(diags.format().find("/runs/0/sync_group_size: groups of 4 do not partition the 6 "
                                "workers (accepted: a divisor of the worker count: 1, 2, 3, 6)"),
            std::string::npos)
      << diags.format();
  // A size out of its range is that error alone (not judged again as its default, 2, which does
  // not divide 3 workers).
  Diagnostics zero("bad");
  EXPECT_FALSE(
      scenario::check_scenario_text(R"({"name": "z", "cluster": {"ps": {"profile": "DS3_v2"},
      "workers": [{"profile": "B1ms", "count": 3}]},
      "runs": [{"protocol": "hybrid", "grouping": "size", "sync_group_size": 0}]})",
                                    {}, HERMES_SOURCE_DIR, zero));
  EXPECT_EQ(zero.items().size(), 1u) << zero.format();
  EXPECT_NE(zero.format().find("sync_group_size"), std::string::npos) << zero.format();
  // The size means something with grouping `size` or `speed` only.
  Diagnostics lonely("bad");
  EXPECT_FALSE(scenario::check_scenario_text(six(R"({"protocol": "hybrid", "sync_group_size": 3})"),
                                             {}, HERMES_SOURCE_DIR, lonely));
  EXPECT_NE(lonely.format().find("sync_group_size"), std::string::npos) << lonely.format();
}

TEST(Hybrid, DefaultNamesShowTheGroupingAndTheWeighting) {
  const auto sc = testing::scenario_from_text(six(R"({"protocol": "hybrid"},
    {"protocol": "hybrid", "grouping": "size", "sync_group_size": 3},
    {"protocol": "hybrid", "staleness_weight": "constant"},
    {"protocol": "hybrid", "staleness_weight": "polynomial", "staleness_exponent": 2})"));
  EXPECT_EQ(sc.runs[0].name, "hybrid");
  EXPECT_EQ(sc.runs[1].name, "hybrid-size-g3");
  EXPECT_EQ(sc.runs[2].name, "hybrid-const");
  EXPECT_EQ(sc.runs[3].name, "hybrid-poly-a2");
}

}  // namespace
}  // namespace hermes::protocols
