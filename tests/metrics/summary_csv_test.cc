// summary.csv and the reference table as read (sim/metrics/summary_csv): columns, numbers, rows
// that cannot be told apart, runs that did not complete.
#include "sim/metrics/summary_csv.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "sim/metrics/csv_reader.h"
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

TEST_F(SummaryCsvTest, MissingColumnIsAnErrorNamingFileAndColumn) {
  const std::string path = write(
      "no-api.csv",
      "run,protocol,params,seed,status,stop_reason,iterations,local_iterations,sim_time_s,wi_avg,"
      "accuracy,loss,bytes,major_updates\n"
      "b,bsp,,1,ok,patience,9600,38400,6000,1,0.98,0.07,1e9,9600\n");
  const std::string msg = error_of([&] { read_summary_csv(path); });
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_NE(msg.find("has no column 'api_calls'"), std::string::npos) << msg;

  const std::string two = write("two.csv", "run,protocol\nb,bsp\n");
  const std::string msg2 = error_of([&] { read_summary_csv(two); });
  EXPECT_NE(msg2.find(two + ": summary has no columns 'params', 'seed', 'status'"),
            std::string::npos)
      << msg2;
  EXPECT_EQ(msg2.find("speedup_vs_bsp'"), std::string::npos) << msg2;  // optional, not missing
}

TEST_F(SummaryCsvTest, MalformedNumberIsAnErrorNamingLineRunAndColumn) {
  const std::string path = write(
      "bad.csv", kHeader + "b,bsp,,1,ok,patience,9600,38400,6000,1,0.98,0.07,18900000,1,1,\n" +
                     "h,hermes,alpha=-1.6,1,ok,patience,12x,9000,480,8,0.97,0.1,1,1,1,\n");
  const std::string msg = error_of([&] { read_summary_csv(path); });
  EXPECT_EQ(msg,
            path + ": line 3 (run 'h'): column 'iterations': '12x' is not a whole number >= 0");

  const std::string pct = write(
      "pct.csv", kHeader + "b,bsp,,1,ok,patience,9600,38400,6000,1,98.07,0.07,18900000,1,1,\n");
  EXPECT_NE(error_of([&] {
              read_summary_csv(pct);
            }).find("line 2 (run 'b'): column 'accuracy': '98.07' is not a fraction in [0, 1]"),
            std::string::npos);

  const std::string empty =
      write("empty.csv", kHeader + "b,bsp,,1,ok,patience,9600,38400,,1,0.9,0.07,18900000,1,1,\n");
  EXPECT_NE(error_of([&] {
              read_summary_csv(empty);
            }).find("line 2 (run 'b'): column 'sim_time_s': '' is not a number >= 0"),
            std::string::npos);

  const std::string params =
      write("params.csv", kHeader + "b,bsp,x,1,ok,patience,9600,38400,1,1,0.9,0.07,1,1,1,\n");
  EXPECT_NE(error_of([&] {
              read_summary_csv(params);
            }).find("line 2 (run 'b'): column 'params': params 'x': 'x' has no '='"),
            std::string::npos);

  const std::string fields =
      write("fields.csv", kHeader + "b,bsp,,1,ok,patience,9600,38400,1,1,0.9,0.07,1,1,1\n");
  const std::string fmsg = error_of([&] { read_summary_csv(fields); });
  EXPECT_NE(fmsg.find("line 2"), std::string::npos) << fmsg;

  EXPECT_NE(error_of([&] { read_summary_csv((dir_ / "absent.csv").string()); }).find("absent.csv"),
            std::string::npos);
}

TEST_F(SummaryCsvTest, RunsThatDidNotCompleteAreExcludedAndMayHaveEmptyResults) {
  const std::string path =
      write("s.csv", kHeader + "b1,bsp,,1,ok,patience,9600,38400,6000,1,0.98,0.07,18900000,1,1,\n" +
                         "b2,bsp,,2,failed,,,,,,,,,,,\n");
  const auto rows = read_summary_csv(path);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_FALSE(rows[1].ok());
  const Comparison c = compare_text(path);
  EXPECT_EQ(row_labelled(c, "BSP").sim->runs, std::vector<std::string>{"b1"});
  EXPECT_EQ(c.excluded, std::vector<std::string>{"b2 (failed)"});
}

}  // namespace
}  // namespace hermes::metrics
