// Simulated runs beside the paper (sim/metrics/comparison): which reference row a run joins, seeds
// averaged, speedups and the headline ratios.
#include "sim/metrics/comparison.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "sim/config/csv_reader.h"
#include "tests/metrics/summary_files.h"

namespace hermes::metrics {
namespace {

using namespace testing;  // summary_files.h
using ComparisonTest = SummaryFilesTest;

TEST_F(ComparisonTest, RunsJoinTheReferenceRowOfTheirExactConfiguration) {
  const std::string path = write_summary(
      "s.csv",
      kHeader +
          "h16,hermes,alpha=-1.6;beta=0.15,1,ok,patience,2000,9000,480,8,0.97,0.1,11000000,1,"
          "2000,\n"
          "h13,hermes,beta=0.1;alpha=-1.3,1,ok,patience,2000,9000,600,8,0.97,0.1,12000000,1,"
          "2000,\n"
          "h16b,hermes,alpha=-1.6;beta=0.1,1,ok,patience,2000,9000,600,8,0.97,0.1,12000000,1,"
          "2000,\n"
          "s,ssp,staleness=125,1,ok,patience,2000,2000,600,1,0.97,0.1,12000000,1,2000,\n");
  // A reference with an alpha=-1.6 row (beta at its default, 0.1) before an alpha=-1.6, beta=0.15
  // one: each takes the run of exactly its configuration.
  const std::string ref_path = write(
      "ref.csv",
      "framework,protocol,params,iterations,training_time_min,wi_avg,accuracy_pct,api_calls_m,"
      "speedup_vs_bsp\nH16,hermes,alpha=-1.6,1,1,1,1,1,1\n"
      "H16B15,hermes,alpha=-1.6;beta=0.15,1,1,1,1,1,1\nSSP5,ssp,staleness=5,1,1,1,1,1,1\n");
  const Comparison c = compare_with_reference(read_summary_csv(path), read_reference_csv(ref_path));
  ASSERT_EQ(c.rows.size(), 5u);
  EXPECT_EQ(c.rows[0].label, "H16");
  EXPECT_EQ(c.rows[0].sim->runs, std::vector<std::string>{"h16b"});
  EXPECT_EQ(c.rows[1].label, "H16B15");
  EXPECT_EQ(c.rows[1].sim->runs, std::vector<std::string>{"h16"});
  EXPECT_EQ(c.rows[2].label, "SSP5");
  EXPECT_FALSE(c.rows[2].sim.has_value());
  // Unmatched: the protocol and what the reference's rows of it name (beta) or is not the default.
  EXPECT_EQ(c.rows[3].label, "Hermes (alpha=-1.3, beta=0.1)");
  EXPECT_FALSE(c.rows[3].ref.has_value());
  EXPECT_EQ(c.rows[4].label, "SSP (staleness=125)");
  EXPECT_EQ(c.not_simulated, std::vector<std::string>{"SSP5"});
  EXPECT_EQ(c.not_in_reference, (std::vector<std::string>{"Hermes (alpha=-1.3, beta=0.1) (1 run)",
                                                          "SSP (staleness=125) (1 run)"}));
}

TEST_F(ComparisonTest, PaperTableMatchesSimulatedParamsThatNameMore) {
  const std::string path =
      write_summary("s.csv", kHeader +
                                 "h,hermes,alpha=-1.6;beta=0.15;lambda=5;window=10,1,ok,patience,"
                                 "2000,9000,480,8,0.97,0.1,11000000,1,2000,\n"
                                 "h13,hermes,alpha=-1.3;beta=0.1;lambda=5;window=10,1,ok,patience,"
                                 "2000,9000,600,8,0.97,0.1,12000000,1,2000,\n");
  const Comparison c = compare_text(path);
  EXPECT_EQ(row_labelled(c, "Hermes (alpha=-1.6, beta=0.15)").sim->runs,
            std::vector<std::string>{"h"});
  EXPECT_EQ(row_labelled(c, "Hermes (alpha=-1.3)").sim->runs, std::vector<std::string>{"h13"});
  EXPECT_EQ(c.not_simulated, (std::vector<std::string>{"BSP", "ASP", "SSP (s=125)", "E-BSP (R=150)",
                                                       "Hermes (alpha=-0.9)"}));
  EXPECT_TRUE(c.not_in_reference.empty());
}

// Issue 26: a Hermes run with beta 0.05 or 0.15 is not the paper's "Hermes (alpha=-1.3)" (beta
// 0.1), nor is one with another window; only the exact configuration stands beside the row.
TEST_F(ComparisonTest, ARunDifferingInAnyParameterIsNotThePapersRow) {
  const std::string row = ",1,ok,patience,2000,9000,600,8,0.97,0.1,12000000,1,2000,\n";
  const Comparison c = compare_text(write_summary(
      "s.csv", kHeader + "a,hermes,alpha=-1.3" + row + "b,hermes,alpha=-1.3;window=20" + row +
                   "c,hermes,alpha=-1.3;beta=0.05" + row + "d,hermes,alpha=-1.3;beta=0.15" + row));
  const ComparisonRow& paper = row_labelled(c, "Hermes (alpha=-1.3)");
  EXPECT_EQ(paper.sim->runs, std::vector<std::string>{"a"});
  // What sets the paper's row apart from the other Hermes rows beyond its label.
  EXPECT_EQ(paper.differs, (ParamMap{{"beta", "0.1"}, {"window", "10"}}));
  EXPECT_EQ(row_labelled(c, "Hermes (alpha=-1.3, beta=0.1, window=20)").sim->runs,
            std::vector<std::string>{"b"});
  EXPECT_EQ(row_labelled(c, "Hermes (alpha=-1.3, beta=0.05)").sim->runs,
            std::vector<std::string>{"c"});
  EXPECT_EQ(row_labelled(c, "Hermes (alpha=-1.3, beta=0.15)").differs,
            (ParamMap{{"window", "10"}}));
  EXPECT_EQ(c.not_in_reference.size(), 3u);
}

// Issue 26: `compare` on scenarios/examples/churn.json averaged bsp and bsp-timeout (barrier
// timeout 1 s) as if they were two seeds of one configuration.
TEST_F(ComparisonTest, EveryRunParameterSeparatesConfigurations) {
  const std::string row = ",1,ok,patience,9600,38400,6000,1,0.98,0.07,20000000,1,1,\n";
  const Comparison c = compare_text(write_summary(
      "s.csv", kHeader + "bsp,bsp," + row + "bsp-timeout,bsp,barrier_timeout_s=1" + row));
  EXPECT_EQ(row_labelled(c, "BSP").sim->runs, std::vector<std::string>{"bsp"});
  const ComparisonRow& timeout = row_labelled(c, "BSP (barrier_timeout_s=1)");
  EXPECT_EQ(timeout.sim->runs, std::vector<std::string>{"bsp-timeout"});
  EXPECT_FALSE(timeout.ref.has_value());
  EXPECT_EQ(row_labelled(c, "BSP").differs, (ParamMap{{"barrier_timeout_s", "0"}}));
}

// A parameter that does not apply to a configuration (hybrid's sync_group_size under grouping
// profile) is not shown as its default in the row's differences.
TEST_F(ComparisonTest, AParameterThatDoesNotApplyIsNoDifference) {
  const std::string row = ",1,ok,patience,100,100,60,1,0.9,0.3,1000,1,100,\n";
  const Comparison c = compare_text(write_summary(
      "s.csv", kHeader + "p,hybrid," + row + "g6,hybrid,grouping=size;sync_group_size=6" + row +
                   "g2,hybrid,grouping=size" + row));
  EXPECT_EQ(row_labelled(c, "hybrid").differs, (ParamMap{{"grouping", "profile"}}));
  EXPECT_EQ(row_labelled(c, "hybrid (grouping=size)").differs,
            (ParamMap{{"sync_group_size", "2"}}));
}

// The paper scenario's reading of a row (ReferenceRow::configuration): its ASP pushes per step,
// so an ASP pushing per chunk (every default) is not the paper's ASP, and its label says how.
TEST_F(ComparisonTest, APaperConfigurationGivenByTheCallerIsTheOneMatched) {
  const std::string row = ",1,ok,patience,100,100,60,1,0.9,0.3,1000,1,100,\n";
  const Comparison none = compare_text(write_summary("s.csv", kHeader + "asp,asp," + row));
  EXPECT_EQ(row_labelled(none, "ASP").sim->runs, std::vector<std::string>{"asp"});

  auto reference = read_reference_csv(kReferencePath);
  const ParamMap per_step = {{"async_update", "average"}, {"update_unit", "steps"}};
  for (auto& r : reference) {
    if (r.protocol == "asp") r.configuration = per_step;
  }
  const Comparison c = compare_with_reference(
      read_summary_csv(
          write_summary("t.csv", kHeader + "asp,asp," + row +
                                     "asp-steps,asp,async_update=average;update_unit=steps" + row)),
      reference);
  EXPECT_EQ(row_labelled(c, "ASP").sim->runs, std::vector<std::string>{"asp-steps"});
  const ComparisonRow& chunk = row_labelled(c, "ASP [async_update=add, update_unit=chunk]");
  EXPECT_EQ(chunk.sim->runs, std::vector<std::string>{"asp"});
  EXPECT_FALSE(chunk.ref.has_value());
}

// A sweep over a setting that is no run parameter (cluster.workers.0.count) makes a
// configuration per value, labelled by it; a run the grid does not touch, repeated at every
// point with one seed, is counted once.
TEST_F(ComparisonTest, SweepSettingsSeparateConfigurationsAndRepeatsCountOnce) {
  const std::string row = ",1,ok,patience,9600,38400,6000,1,0.98,0.07,20000000,1,1,\n";
  auto rows = read_summary_csv(
      write_summary("s.csv", kHeader + "bsp,bsp," + row + "bsp,bsp," + row + "bsp,bsp," + row));
  rows[0].setting = {{"cluster.workers.0.count", "2"}};
  rows[1].setting = {{"cluster.workers.0.count", "4"}};
  rows[2].setting = {{"cluster.workers.0.count", "4"}};
  const Comparison c = compare_with_reference(rows, read_reference_csv(kReferencePath));
  EXPECT_EQ(row_labelled(c, "BSP [cluster.workers.0.count=2]").sim->runs.size(), 1u);
  const SimConfig& four = *row_labelled(c, "BSP [cluster.workers.0.count=4]").sim;
  EXPECT_EQ(four.runs.size(), 1u);
  EXPECT_EQ(four.repeats, 1);
}

// Without a reference table (CIFAR-10), the headlines take the simulated configurations
// themselves, instead of saying no Hermes run exists.
TEST_F(ComparisonTest, WithoutAReferenceTheHeadlinesUseTheSimulatedRuns) {
  const Comparison c = compare_with_reference(
      read_summary_csv(write_summary(
          "s.csv", kHeader + "bsp,bsp,,1,ok,patience,100,100,6000,1,0.70,0.9,2000000,1,100,\n" +
                       "h,hermes,alpha=-1.3,1,ok,patience,10,40,600,4,0.69,0.9,200000,1,10,\n")),
      {});
  ASSERT_EQ(c.headlines.size(), 4u);
  EXPECT_DOUBLE_EQ(*c.headlines[0].sim, 10.0);
  EXPECT_EQ(c.headlines[0].note, "sim: Hermes (alpha=-1.3)");
  EXPECT_DOUBLE_EQ(*c.headlines[2].sim, 1.0 - 0.2 / 2.0);
  EXPECT_NEAR(*c.headlines[3].sim, -1.0, 1e-9);
  EXPECT_FALSE(c.headlines[3].paper.has_value());
}

TEST_F(ComparisonTest, SeedsOfOneConfigurationAreAveragedWithTheirRange) {
  std::string params_header, no_params;
  for (const auto key : summary_param_columns()) {
    params_header += std::string(key) + ",";
    no_params += ",";
  }
  const std::string path = write(
      "s.csv",
      // Column order differs from the writer's and an extra column is present: both tolerated.
      "extra,protocol,run," + params_header +
          "seed,status,stop_reason,iterations,local_iterations,sim_time_s,wi_avg,accuracy,loss,"
          "final_loss,api_calls,bytes,major_updates\n"
          "x,bsp,bsp-s1," +
          no_params +
          "1,ok,patience,9000,36000,6000,1,0.98,0.07,0.07,18000000,1e9,9000\n"
          "y,bsp,bsp-s2," +
          no_params +
          "18446744073709551615,ok,patience,9600,38400,6600,1,0.97,0.08,0.08,19000000,1e9,9600\n"
          "z,bsp,bsp-s3," +
          no_params + "3,ok,patience,10200,40800,5400,1,0.99,0.06,0.06,20000000,1e9,10200\n");
  const auto rows = read_summary_csv(path);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1].run, "bsp-s2");
  EXPECT_EQ(rows[1].seed, 18446744073709551615u);  // seeds are 64-bit
  EXPECT_EQ(rows[1].local_iterations, 38400);
  EXPECT_DOUBLE_EQ(rows[1].loss, 0.08);
  EXPECT_DOUBLE_EQ(rows[1].bytes, 1e9);
  EXPECT_FALSE(rows[1].speedup_vs_bsp.has_value());  // column absent
  EXPECT_EQ(rows[2].line, 4);

  const Comparison c = compare_text(path);
  const ComparisonRow& bsp = row_labelled(c, "BSP");
  ASSERT_TRUE(bsp.sim.has_value());
  EXPECT_EQ(bsp.sim->runs, (std::vector<std::string>{"bsp-s1", "bsp-s2", "bsp-s3"}));
  EXPECT_EQ(bsp.sim->time_min.n, 3);
  EXPECT_DOUBLE_EQ(bsp.sim->time_min.mean, 100.0);  // (6000 + 6600 + 5400) / 3 / 60
  EXPECT_DOUBLE_EQ(bsp.sim->time_min.min, 90.0);
  EXPECT_DOUBLE_EQ(bsp.sim->time_min.max, 110.0);
  EXPECT_DOUBLE_EQ(bsp.sim->iterations.mean, 9600.0);
  EXPECT_DOUBLE_EQ(bsp.sim->accuracy_pct.mean, 98.0);
  EXPECT_DOUBLE_EQ(bsp.sim->accuracy_pct.min, 97.0);
  EXPECT_DOUBLE_EQ(bsp.sim->api_calls_m.mean, 19.0);
  // Its own speedup, computed against itself: 1 on the mean, 6000/6600 .. 6000/5400 over seeds.
  ASSERT_TRUE(bsp.sim->speedup.has_value());
  EXPECT_TRUE(bsp.sim->speedup_computed);
  EXPECT_DOUBLE_EQ(bsp.sim->speedup->mean, 1.0);
  EXPECT_DOUBLE_EQ(bsp.sim->speedup->min, 6000.0 / 6600.0);
  EXPECT_DOUBLE_EQ(bsp.sim->speedup->max, 6000.0 / 5400.0);
}

TEST_F(ComparisonTest, HeadlineRatiosFromBothSides) {
  const Comparison c = compare_text(write("s.csv", hand_made_summary()));
  const SimConfig& h = *row_labelled(c, "Hermes (alpha=-1.6, beta=0.15)").sim;
  ASSERT_TRUE(h.speedup.has_value());
  EXPECT_TRUE(h.speedup_computed);
  EXPECT_DOUBLE_EQ(h.speedup->mean, 10.0);  // 6000 s / 600 s
  EXPECT_DOUBLE_EQ(row_labelled(c, "Hermes (alpha=-1.3)").sim->speedup->mean, 8.0);
  EXPECT_DOUBLE_EQ(row_labelled(c, "SSP (s=125)").sim->speedup->mean, 0.5);
  EXPECT_EQ(c.baseline, "BSP (1 run, mean 100.00 min)");

  ASSERT_EQ(c.headlines.size(), 4u);
  EXPECT_EQ(c.headlines[0].name, "Hermes' best speedup vs BSP");
  EXPECT_DOUBLE_EQ(*c.headlines[0].sim, 10.0);
  EXPECT_DOUBLE_EQ(*c.headlines[0].paper, 13.22);
  EXPECT_EQ(c.headlines[0].note,
            "sim: Hermes (alpha=-1.6, beta=0.15); paper: Hermes (alpha=-1.6, beta=0.15)");
  EXPECT_EQ(c.headlines[1].name, "API calls: 1 - Hermes/SSP");
  EXPECT_DOUBLE_EQ(*c.headlines[1].sim, 1.0 - 12.0 / 30.0);    // 60 %
  EXPECT_DOUBLE_EQ(*c.headlines[1].paper, 1.0 - 11.4 / 29.6);  // 61.5 % (the text says 62.1 %)
  EXPECT_EQ(c.headlines[2].name, "API calls: 1 - Hermes/BSP");
  EXPECT_DOUBLE_EQ(*c.headlines[2].sim, 1.0 - 12.0 / 20.0);
  EXPECT_DOUBLE_EQ(*c.headlines[2].paper, 1.0 - 11.4 / 18.9);
  EXPECT_EQ(c.headlines[3].name, "accuracy: Hermes - BSP (points)");
  EXPECT_NEAR(*c.headlines[3].sim, -0.5, 1e-9);  // 97.5 - 98.0
  EXPECT_NEAR(*c.headlines[3].paper, -0.25, 1e-9);
}

TEST_F(ComparisonTest, SpeedupWrittenBySimulatorIsUsedAsIs) {
  const Comparison c = compare_text(write_summary(
      "s.csv", kHeader + "b,bsp,,1,ok,patience,9600,38400,6000,1,0.98,0.07,20000000,1,1,1.0\n"
                         "h,hermes,alpha=-0.9,1,ok,patience,2200,1,600,7,0.97,0.1,1,1,1,9.5\n"));
  const SimConfig& h = *row_labelled(c, "Hermes (alpha=-0.9)").sim;
  EXPECT_FALSE(h.speedup_computed);
  EXPECT_DOUBLE_EQ(h.speedup->mean, 9.5);  // not 6000 / 600
  EXPECT_DOUBLE_EQ(*c.headlines[0].sim, 9.5);
  // The paper's chosen Hermes row was not simulated: no simulated side for its ratios.
  EXPECT_FALSE(c.headlines[1].sim.has_value());
  EXPECT_EQ(c.headlines[1].note,
            "Hermes (alpha=-1.6, beta=0.15) vs SSP; no simulated run of the paper's Hermes "
            "(alpha=-1.6, beta=0.15) configuration");
}

TEST_F(ComparisonTest, NoSimulatedBspLeavesSpeedupsEmpty) {
  const Comparison c = compare_text(write_summary(
      "s.csv", kHeader + "h,hermes,alpha=-0.9,1,ok,patience,2200,1,600,7,0.97,0.1,1,1,1,\n"));
  EXPECT_FALSE(row_labelled(c, "Hermes (alpha=-0.9)").sim->speedup.has_value());
  EXPECT_FALSE(c.headlines[0].sim.has_value());
  EXPECT_TRUE(c.baseline.empty());
}

// The example: ASP stopped after 26 updates with its loss rising, and a capped Hermes.
TEST_F(ComparisonTest, DivergedAndCappedRunsGetNoSpeedupButTheirReason) {
  std::string text = summary(
      kHeader +
      "b,bsp,,1,ok,patience,984,984,842,1,0.982,0.0685,2593134,1,984,1.0\n"
      "a,asp,,1,diverged,patience,26,38,24.2,1,0.899,0.357,49051,1,28,\n"
      "s,ssp,staleness=125,1,ok,patience,26,38,24.2,1,0.899,0.357,49051,1,28,\n"
      "h,hermes,alpha=-1.6;beta=0.15,1,ok,max_iterations,40,160,100,4,0.95,0.2,1000,1,40,\n");
  // a's last loss: 0.93 (the compact form copies the best loss; set it by hand).
  const std::size_t at = text.find("0.357,0.357,49051,1,28,");
  text.replace(at, 11, "0.357,0.93");
  const Comparison c = compare_text(write("s.csv", text));
  const SimConfig& asp = *row_labelled(c, "ASP").sim;
  EXPECT_FALSE(asp.speedup.has_value());
  EXPECT_EQ(asp.status, "diverged (patience)");
  EXPECT_EQ(asp.speedup_withheld,
            "a: diverged: loss 0.93 at its last evaluation, 2.6x its best (0.357)");
  const SimConfig& h = *row_labelled(c, "Hermes (alpha=-1.6, beta=0.15)").sim;
  EXPECT_EQ(h.status, "ok (max_iterations)");
  EXPECT_EQ(h.speedup_withheld, "h: capped at 40 updates (training.stop.max_iterations)");
  // The one SSP run converged by the stop rule: its speedup (computed) stays.
  const SimConfig& ssp = *row_labelled(c, "SSP (s=125)").sim;
  EXPECT_TRUE(ssp.speedup_withheld.empty());
  EXPECT_NEAR(ssp.speedup->mean, 842 / 24.2, 1e-9);
  // Headlines that need Hermes are withheld, with the reason, not printed as ratios.
  EXPECT_FALSE(c.headlines[0].sim.has_value());
  EXPECT_EQ(c.headlines[0].withheld, "h: capped at 40 updates (training.stop.max_iterations)");
  EXPECT_FALSE(c.headlines[1].sim.has_value());
  EXPECT_EQ(c.headlines[1].withheld,
            "Hermes (alpha=-1.6, beta=0.15) capped at 40 updates (training.stop.max_iterations)");
  EXPECT_DOUBLE_EQ(*c.headlines[1].paper, 1.0 - 11.4 / 29.6);  // the paper's side stays
}

// What a figure says of each run (`compare --format json`'s "ending"): nothing for a run that
// converged by its patience, else its status, else its stop reason in short.
TEST(RunEndingTag, StatusFirstThenTheStopReasonInShort) {
  const auto tag = [](std::string status, std::string stop_reason) {
    SummaryRow r;
    r.status = std::move(status);
    r.stop_reason = std::move(stop_reason);
    return run_ending_tag(r);
  };
  EXPECT_EQ(tag("ok", "patience"), "");
  EXPECT_EQ(tag("diverged", "patience"), "diverged");
  EXPECT_EQ(tag("diverged", "diverged"), "diverged");
  EXPECT_EQ(tag("failed", "patience"), "failed");  // a status of another tool, as written
  EXPECT_EQ(tag("ok", "max_iterations"), "capped (iterations)");
  EXPECT_EQ(tag("ok", "max_sim_time"), "capped (sim time)");
  EXPECT_EQ(tag("ok", "no_events"), "no events");
  EXPECT_EQ(tag("ok", "no_workers"), "no workers");
  EXPECT_EQ(tag("ok", ""), "stop: ");
  EXPECT_EQ(tag("ok", "timeout"), "stop: timeout");
}

// The scenario key of the cap that stopped a run, for the figures' notes (`compare --format
// json`'s "cap_key"): only for the cap reasons.
TEST(RunCapKey, OnlyTheCapsHaveAKey) {
  const auto key = [](std::string stop_reason) {
    SummaryRow r;
    r.status = "ok";
    r.stop_reason = std::move(stop_reason);
    return run_cap_key(r);
  };
  EXPECT_EQ(key("max_iterations"), "training.stop.max_iterations");
  EXPECT_EQ(key("max_sim_time"), "training.stop.max_sim_time_s");
  for (const char* other : {"patience", "diverged", "no_events", "", "timeout"}) {
    EXPECT_EQ(key(other), "") << other;
  }
}

// The paper gives no cost: the simulated one is averaged over seeds like every metric, and is
// absent when a run has none (a summary from before costs).
TEST_F(ComparisonTest, CostIsMeanOverSeedsAndAbsentWithoutOne) {
  const Comparison c = compare_text(write_summary(
      "s.csv", kHeader + "b1,bsp,,1,ok,patience,100,100,6000,1,0.98,0.1,1,1,100,1,2.5\n"
                         "b2,bsp,,2,ok,patience,110,110,6600,1,0.97,0.1,2,1,110,1,3.5\n"
                         "h1,hermes,alpha=-1.3,1,ok,patience,10,40,600,4,0.95,0.1,2,1,10,10,0.4\n"
                         "h2,hermes,alpha=-1.3,2,ok,patience,11,50,600,5,0.94,0.1,3,1,11,10,\n"));
  const SimConfig& bsp = *row_labelled(c, "BSP").sim;
  ASSERT_TRUE(bsp.cost_usd.has_value());
  EXPECT_DOUBLE_EQ(bsp.cost_usd->mean, 3.0);
  EXPECT_DOUBLE_EQ(bsp.cost_usd->min, 2.5);
  EXPECT_DOUBLE_EQ(bsp.cost_usd->max, 3.5);
  EXPECT_FALSE(row_labelled(c, "Hermes (alpha=-1.3)").sim->cost_usd.has_value());
}

TEST_F(ComparisonTest, ADivergedBspIsNoBaseline) {
  const Comparison c = compare_text(write_summary(
      "s.csv", kHeader + "b,bsp,,1,diverged,diverged,9,9,60,1,0.1,nan,1,1,9,\n"
                         "h,hermes,alpha=-0.9,1,ok,patience,2200,1,600,7,0.97,0.1,1,1,1,\n"));
  const SimConfig& h = *row_labelled(c, "Hermes (alpha=-0.9)").sim;
  EXPECT_FALSE(h.speedup.has_value());
  EXPECT_EQ(h.speedup_withheld, "no BSP run converged to compare with");
  EXPECT_EQ(row_labelled(c, "BSP").sim->speedup_withheld,
            "b: diverged: its loss became non-finite");
  EXPECT_TRUE(c.baseline.empty());
}

}  // namespace
}  // namespace hermes::metrics
