// summary.csv and the reference table as read (sim/metrics/summary_csv): columns, numbers, rows
// that cannot be told apart, runs that did not complete.
#include "sim/metrics/summary_csv.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "sim/config/csv_reader.h"
#include "sim/scenario/run_params.h"
#include "tests/metrics/summary_files.h"

namespace hermes::metrics {
namespace {

using namespace testing;  // summary_files.h
using SummaryCsvTest = SummaryFilesTest;

TEST_F(SummaryCsvTest, ReferenceFileHoldsThePapersSevenRows) {
  const auto ref = read_reference_csv(kReferencePath);
  ASSERT_EQ(ref.size(), 7u);
  EXPECT_EQ(ref[0].framework, "BSP");
  EXPECT_EQ(ref[0].protocol, "bsp");
  EXPECT_TRUE(ref[0].params.empty());
  EXPECT_DOUBLE_EQ(ref[0].iterations, 9600);
  EXPECT_DOUBLE_EQ(ref[0].training_time_min, 105.38);
  EXPECT_DOUBLE_EQ(ref[0].wi_avg, 1.0);
  EXPECT_DOUBLE_EQ(ref[0].accuracy_pct, 98.07);
  EXPECT_DOUBLE_EQ(ref[0].api_calls_m, 18.9);
  EXPECT_DOUBLE_EQ(ref[0].speedup_vs_bsp, 1.0);
  EXPECT_EQ(ref[0].line, 2);

  EXPECT_EQ(ref[1].protocol, "asp");
  EXPECT_DOUBLE_EQ(ref[1].accuracy_pct, 90.625);
  EXPECT_DOUBLE_EQ(ref[1].iterations, 15325);

  EXPECT_EQ(ref[2].framework, "SSP (s=125)");
  EXPECT_EQ(ref[2].params, (ParamMap{{"staleness", "125"}}));
  EXPECT_DOUBLE_EQ(ref[2].training_time_min, 221.63);
  EXPECT_DOUBLE_EQ(ref[2].speedup_vs_bsp, 0.47);

  EXPECT_EQ(ref[3].protocol, "ebsp");
  EXPECT_EQ(ref[3].params, (ParamMap{{"lookahead", "150"}}));
  EXPECT_DOUBLE_EQ(ref[3].wi_avg, 5.09);

  EXPECT_EQ(ref[4].params, (ParamMap{{"alpha", "-0.9"}}));
  EXPECT_DOUBLE_EQ(ref[4].speedup_vs_bsp, 9.4);
  EXPECT_EQ(ref[5].params, (ParamMap{{"alpha", "-1.3"}}));
  EXPECT_DOUBLE_EQ(ref[5].training_time_min, 10.55);

  // The quoted label with a comma survives, and params are canonical.
  EXPECT_EQ(ref[6].framework, "Hermes (alpha=-1.6, beta=0.15)");
  EXPECT_EQ(ref[6].protocol, "hermes");
  EXPECT_EQ(ref[6].params, (ParamMap{{"alpha", "-1.6"}, {"beta", "0.15"}}));
  EXPECT_DOUBLE_EQ(ref[6].iterations, 2250);
  EXPECT_DOUBLE_EQ(ref[6].training_time_min, 7.97);
  EXPECT_DOUBLE_EQ(ref[6].wi_avg, 8.70);
  EXPECT_DOUBLE_EQ(ref[6].accuracy_pct, 97.82);
  EXPECT_DOUBLE_EQ(ref[6].api_calls_m, 11.4);
  EXPECT_DOUBLE_EQ(ref[6].speedup_vs_bsp, 13.22);
}

TEST_F(SummaryCsvTest, ReferenceRejectsTwoRowsARunCannotTellApart) {
  const std::string path = write(
      "ref.csv",
      "framework,protocol,params,iterations,training_time_min,wi_avg,accuracy_pct,api_calls_m,"
      "speedup_vs_bsp\nA,hermes,alpha=-1.6;beta=0.15,1,1,1,1,1,1\n"
      "B,hermes,beta=0.150;alpha=-1.60,1,1,1,1,1,1\n");
  const std::string msg = error_of([&] { read_reference_csv(path); });
  EXPECT_NE(msg.find("line 3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("repeats line 2"), std::string::npos) << msg;
}

TEST_F(SummaryCsvTest, ParamColumnsAreTheDeclaredOnes) {
  const auto keys = scenario::summary_param_keys();
  ASSERT_EQ(keys, summary_param_columns());
  // Every declared column is read back: a new protocol's too.
  EXPECT_LE(keys.size(), kMaxSummaryParamColumns);
  const std::vector<std::string> columns = summary_columns();
  ASSERT_EQ(columns.size(), kSummaryRunColumns.size() + keys.size() + kSummaryResultColumns.size());
  for (std::size_t i = 0; i < keys.size(); ++i) EXPECT_EQ(columns[kSummaryParamsAt + i], keys[i]);
  EXPECT_EQ(columns[kSummaryParamsAt + keys.size()], "seed");
}

TEST_F(SummaryCsvTest, EachParameterInItsOwnColumnAndTheConfigurationFromTheDeclarations) {
  // Hermes' gup and loss_weighting name a configuration only when not the default; alpha always.
  std::string row = "h,hermes";
  for (const auto key : summary_param_columns()) {
    const std::string k(key);
    row += ",";
    if (k == "alpha") row += "-1.60";
    if (k == "beta") row += "0.15";
    if (k == "gup") row += "true";
    if (k == "loss_weighting") row += "false";
    if (k == "variant") row += "reference";
  }
  row += ",1,ok,patience,10,40,60,1,0.9,0.1,0.12,5,1,10,,\n";
  const auto rows = read_summary_csv(write("s.csv", header() + row));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].param_values, (ParamMap{{"alpha", "-1.6"},
                                            {"beta", "0.15"},
                                            {"gup", "true"},
                                            {"loss_weighting", "false"},
                                            {"variant", "reference"}}));
  EXPECT_EQ(rows[0].params, (ParamMap{{"alpha", "-1.6"},
                                      {"beta", "0.15"},
                                      {"loss_weighting", "false"},
                                      {"variant", "reference"}}));
  EXPECT_DOUBLE_EQ(rows[0].loss, 0.1);
  EXPECT_DOUBLE_EQ(rows[0].final_loss, 0.12);
}

TEST_F(SummaryCsvTest, OlderPackedParamsFormatIsNamed) {
  const std::string path = write(
      "old.csv", kHeader + "b,bsp,,1,ok,patience,9600,38400,6000,1,0.98,0.07,18900000,1,1,\n");
  const std::string msg = error_of([&] { read_summary_csv(path); });
  EXPECT_NE(msg.find("has no columns 'dynamic_allocation'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("its 'params' column is the format of an older hermes-sim"), std::string::npos)
      << msg;
}

TEST_F(SummaryCsvTest, MissingColumnIsAnErrorNamingFileAndColumn) {
  const std::string path = write(
      "no-api.csv",
      "run,protocol,dynamic_allocation,staleness,lookahead,async_update,alpha,beta,lambda,window,"
      "variant,gup,loss_weighting,seed,status,stop_reason,iterations,local_iterations,sim_time_s,"
      "wi_avg,accuracy,loss,final_loss,bytes,major_updates\n"
      "b,bsp,,,,,,,,,,,,1,ok,patience,9600,38400,6000,1,0.98,0.07,0.07,1e9,9600\n");
  const std::string msg = error_of([&] { read_summary_csv(path); });
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_NE(msg.find("has no column 'api_calls'"), std::string::npos) << msg;

  const std::string two = write("two.csv", "run,protocol\nb,bsp\n");
  const std::string msg2 = error_of([&] { read_summary_csv(two); });
  EXPECT_NE(msg2.find(two + ": summary has no columns 'dynamic_allocation', 'staleness'"),
            std::string::npos)
      << msg2;
  EXPECT_EQ(msg2.find("speedup_vs_bsp'"), std::string::npos) << msg2;  // optional, not missing
}

TEST_F(SummaryCsvTest, MalformedNumberIsAnErrorNamingLineRunAndColumn) {
  const std::string path = write_summary(
      "bad.csv", kHeader + "b,bsp,,1,ok,patience,9600,38400,6000,1,0.98,0.07,18900000,1,1,\n" +
                     "h,hermes,alpha=-1.6,1,ok,patience,12x,9000,480,8,0.97,0.1,1,1,1,\n");
  const std::string msg = error_of([&] { read_summary_csv(path); });
  EXPECT_EQ(msg,
            path + ": line 3 (run 'h'): column 'iterations': '12x' is not a whole number >= 0");

  const std::string pct = write_summary(
      "pct.csv", kHeader + "b,bsp,,1,ok,patience,9600,38400,6000,1,98.07,0.07,18900000,1,1,\n");
  EXPECT_NE(error_of([&] {
              read_summary_csv(pct);
            }).find("line 2 (run 'b'): column 'accuracy': '98.07' is not a fraction in [0, 1]"),
            std::string::npos);

  const std::string empty = write_summary(
      "empty.csv", kHeader + "b,bsp,,1,ok,patience,9600,38400,,1,0.9,0.07,18900000,1,1,\n");
  EXPECT_NE(error_of([&] {
              read_summary_csv(empty);
            }).find("line 2 (run 'b'): column 'sim_time_s': '' is not a number >= 0"),
            std::string::npos);

  const std::string loss =
      write_summary("loss.csv", kHeader + "b,bsp,,1,ok,patience,9600,38400,1,1,0.9,-1,1,1,1,\n");
  EXPECT_NE(
      error_of([&] {
        read_summary_csv(loss);
      }).find("line 2 (run 'b'): column 'loss': '-1' is not a loss >= 0 (or nan, inf, empty)"),
      std::string::npos);

  const std::string fields =
      write("fields.csv", summary(kHeader + "b,bsp,,1,ok,patience,9600,38400,1,1,0.9,0.07,1,1,1,\n")
                                  .substr(0, header().size()) +
                              "b,bsp,1,ok\n");
  const std::string fmsg = error_of([&] { read_summary_csv(fields); });
  EXPECT_NE(fmsg.find("line 2"), std::string::npos) << fmsg;

  EXPECT_NE(error_of([&] { read_summary_csv((dir_ / "absent.csv").string()); }).find("absent.csv"),
            std::string::npos);
}

// cost_usd came after the other columns: a summary without it reads, with no costs.
TEST_F(SummaryCsvTest, CostIsReadAndOptional) {
  const auto rows = read_summary_csv(write_summary(
      "s.csv", kHeader + "b,bsp,,1,ok,patience,9600,38400,6000,1,0.98,0.07,18900000,1,1,,3.25\n" +
                   "h,hermes,alpha=-1.3,1,ok,patience,10,40,600,4,0.95,0.1,200,1,10,\n"));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].cost_usd, 3.25);
  EXPECT_FALSE(rows[1].cost_usd.has_value());

  // Summaries without a SelSync, local SGD or hybrid run have no columns of theirs
  // (summary_param_keys(present)), and those without a run that uses ASP's and SSP's staleness
  // keys none of those (column_used), nor those without a run that compresses its pushes any of
  // the compression keys.
  const auto without_selsync = [] {
    std::string h = header();
    for (const std::string c :
         {",delta,smoothing,window_size", ",local_steps,participation,outer_lr,outer_momentum",
          ",grouping,sync_group_size", ",staleness_weight,staleness_exponent,buffer_size",
          ",compression,compression_fraction,error_feedback"}) {
      h.erase(h.find(c), c.size());
    }
    return h;
  };
  std::string old_header = without_selsync();
  old_header.erase(old_header.rfind(",cost_usd"), std::string(",cost_usd").size());
  const std::string old_row =
      "b,bsp,false,0,,,,,,,,,,,,,,,,1,ok,patience,9600,38400,6000,1,0.98,0.07,0.07,18900000,1,1,\n";
  const auto old = read_summary_csv(write("old.csv", old_header + old_row));
  ASSERT_EQ(old.size(), 1u);
  EXPECT_FALSE(old[0].cost_usd.has_value());
  EXPECT_EQ(old[0].iterations, 9600);

  // Before 2026-12-02 there were no update-unit, server-step and evaluation-period columns: such
  // a summary reads, its runs with those parameters at their defaults.
  std::string older_header = without_selsync();
  for (const std::string c : {",barrier_timeout_s", ",server_lr", ",update_unit",
                              ",steps_per_update", ",evaluate_every"}) {
    older_header.erase(older_header.find(c), c.size());
  }
  const auto older = read_summary_csv(write(
      "older.csv", older_header +
                       "a,asp,false,,,,add,,,,,,,,1,ok,patience,26,38,24,1,0.9,0.3,0.9,49000,1,26,,"
                       "0.01\n"));
  ASSERT_EQ(older.size(), 1u);
  EXPECT_TRUE(older[0].params.empty());
  EXPECT_EQ(older[0].iterations, 26);

  const std::string bad = write_summary(
      "bad.csv", kHeader + "b,bsp,,1,ok,patience,9600,38400,6000,1,0.98,0.07,1,1,1,,-2\n");
  EXPECT_NE(error_of([&] {
              read_summary_csv(bad);
            }).find("line 2 (run 'b'): column 'cost_usd': '-2' is not a number >= 0"),
            std::string::npos);
}

TEST_F(SummaryCsvTest, RunsThatDidNotCompleteAreShownWithTheirStatusAndMayHaveEmptyResults) {
  const std::string path = write_summary(
      "s.csv", kHeader + "b1,bsp,,1,ok,patience,9600,38400,6000,1,0.98,0.07,18900000,1,1,\n" +
                   "b2,bsp,,2,failed,,,,,,,,,,,\n");
  const auto rows = read_summary_csv(path);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_FALSE(rows[1].ok());
  const Comparison c = compare_text(path);
  const SimConfig& bsp = *row_labelled(c, "BSP").sim;
  EXPECT_EQ(bsp.runs, (std::vector<std::string>{"b1", "b2"}));
  EXPECT_EQ(bsp.status, "1 ok (patience), 1 failed");
  EXPECT_FALSE(bsp.speedup.has_value());
  EXPECT_EQ(bsp.speedup_withheld, "b2 (seed 2): status failed");
}

}  // namespace
}  // namespace hermes::metrics
