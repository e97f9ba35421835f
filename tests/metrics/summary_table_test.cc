#include "base/number_text.h"
#include "sim/metrics/comparison.h"
#include "sim/metrics/comparison_render.h"
#include "sim/metrics/run_params.h"
#include "sim/metrics/summary_csv.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "base/diagnostics.h"
#include "sim/metrics/csv_reader.h"

namespace hermes::metrics {
namespace {

namespace fs = std::filesystem;

const std::string kReferencePath =
    std::string(HERMES_SOURCE_DIR) + "/results/reference/paper-mnist.csv";
const std::string kHeader =
    "run,protocol,params,seed,status,stop_reason,iterations,local_iterations,sim_time_s,wi_avg,"
    "accuracy,loss,api_calls,bytes,major_updates,speedup_vs_bsp\n";

class SummaryTableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("hermes-summary-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) const {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }

  // The message of the InputError `fn` throws ("" if it does not throw one).
  template <class Fn>
  static std::string error_of(Fn fn) {
    try {
      fn();
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir_;
};

Comparison compare_text(const std::string& summary_path) {
  return compare_with_reference(read_summary_csv(summary_path), read_reference_csv(kReferencePath));
}

const ComparisonRow& row_labelled(const Comparison& c, const std::string& label) {
  for (const auto& r : c.rows) {
    if (r.label == label) return r;
  }
  throw std::runtime_error("no row " + label);
}

// ---- the reference file ----

TEST_F(SummaryTableTest, ReferenceFileHoldsThePapersSevenRows) {
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

TEST_F(SummaryTableTest, ReferenceRejectsTwoRowsARunCannotTellApart) {
  const std::string path = write(
      "ref.csv",
      "framework,protocol,params,iterations,training_time_min,wi_avg,accuracy_pct,api_calls_m,"
      "speedup_vs_bsp\nA,hermes,alpha=-1.6;beta=0.15,1,1,1,1,1,1\n"
      "B,hermes,beta=0.150;alpha=-1.60,1,1,1,1,1,1\n");
  const std::string msg = error_of([&] { read_reference_csv(path); });
  EXPECT_NE(msg.find("line 3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("repeats line 2"), std::string::npos) << msg;
}

// ---- params ----

TEST_F(SummaryTableTest, CanonicalParamsSortsKeysAndNormalisesNumbers) {
  EXPECT_EQ(canonical_params("beta=0.15;alpha=-1.6"), "alpha=-1.6;beta=0.15");
  EXPECT_EQ(canonical_params(" alpha = -1.60 ; beta=.15;"), "alpha=-1.6;beta=0.15");
  EXPECT_EQ(canonical_params("staleness=125.0"), "staleness=125");
  EXPECT_EQ(canonical_params("lr=1e-1;window=+10"), "lr=0.1;window=10");
  EXPECT_EQ(canonical_params("x=-0"), "x=0");
  EXPECT_EQ(canonical_params("variant=reference;gup=true"), "gup=true;variant=reference");
  EXPECT_EQ(canonical_params("name=1.5x"), "name=1.5x");  // not a number: kept as written
  EXPECT_EQ(canonical_params(""), "");
  EXPECT_EQ(canonical_params(" ; "), "");
}

TEST_F(SummaryTableTest, MalformedParamsNameTheProblem) {
  EXPECT_NE(error_of([] { parse_params("alpha"); }).find("'alpha' has no '='"), std::string::npos);
  EXPECT_NE(error_of([] { parse_params("alpha=1;alpha=1.0"); }).find("key 'alpha' repeated"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_params("=3"); }).find("key '' is not"), std::string::npos);
  EXPECT_NE(error_of([] { parse_params("a b=3"); }).find("key 'a b' is not"), std::string::npos);
  EXPECT_NE(error_of([] { parse_params("alpha="); }).find("'alpha' has no value"),
            std::string::npos);
}

TEST_F(SummaryTableTest, ReferenceParamsMatchASupersetWithEqualValues) {
  const ParamMap ref = parse_params("alpha=-1.6;beta=0.15");
  EXPECT_TRUE(params_match(ref, parse_params("window=10;beta=0.150;lambda=5;alpha=-1.6")));
  EXPECT_TRUE(params_match(ref, ref));
  EXPECT_FALSE(params_match(ref, parse_params("alpha=-1.6;beta=0.1")));
  EXPECT_FALSE(params_match(ref, parse_params("alpha=-1.6")));  // beta missing
  EXPECT_TRUE(params_match({}, parse_params("staleness=3")));   // BSP names none
}

TEST_F(SummaryTableTest, RunsJoinTheMostSpecificReferenceRowOfTheirProtocol) {
  const std::string path =
      write("s.csv", kHeader +
                         "h16,hermes,alpha=-1.6;beta=0.15;lambda=5;window=10,1,ok,patience,"
                         "2000,9000,480,8,0.97,0.1,11000000,1,2000,\n"
                         "h13,hermes,beta=0.1;alpha=-1.3;lambda=5;window=10,1,ok,patience,"
                         "2000,9000,600,8,0.97,0.1,12000000,1,2000,\n"
                         "h16b,hermes,alpha=-1.6;beta=0.1,1,ok,patience,"
                         "2000,9000,600,8,0.97,0.1,12000000,1,2000,\n"
                         "s,ssp,staleness=125,1,ok,patience,"
                         "2000,2000,600,1,0.97,0.1,12000000,1,2000,\n");
  // A reference with a less specific alpha=-1.6 row before the paper's one.
  const std::string ref_path = write(
      "ref.csv",
      "framework,protocol,params,iterations,training_time_min,wi_avg,accuracy_pct,api_calls_m,"
      "speedup_vs_bsp\nH16,hermes,alpha=-1.6,1,1,1,1,1,1\n"
      "H16B15,hermes,alpha=-1.6;beta=0.15,1,1,1,1,1,1\nSSP5,ssp,staleness=5,1,1,1,1,1,1\n");
  const Comparison c = compare_with_reference(read_summary_csv(path), read_reference_csv(ref_path));
  // H16 <- h16b only; H16B15 <- h16 (two params beat one); SSP5 not simulated; then unmatched.
  ASSERT_EQ(c.rows.size(), 5u);
  EXPECT_EQ(c.rows[0].label, "H16");
  EXPECT_EQ(c.rows[0].sim->runs, std::vector<std::string>{"h16b"});
  EXPECT_EQ(c.rows[1].label, "H16B15");
  EXPECT_EQ(c.rows[1].sim->runs, std::vector<std::string>{"h16"});
  EXPECT_EQ(c.rows[2].label, "SSP5");
  EXPECT_FALSE(c.rows[2].sim.has_value());
  EXPECT_EQ(c.rows[3].label, "hermes alpha=-1.3;beta=0.1;lambda=5;window=10");
  EXPECT_FALSE(c.rows[3].ref.has_value());
  EXPECT_EQ(c.rows[4].label, "ssp staleness=125");
  EXPECT_EQ(c.not_simulated, std::vector<std::string>{"SSP5"});
  EXPECT_EQ(c.not_in_reference,
            (std::vector<std::string>{"hermes alpha=-1.3;beta=0.1;lambda=5;window=10 (1 run)",
                                      "ssp staleness=125 (1 run)"}));
}

TEST_F(SummaryTableTest, PaperTableMatchesSimulatedParamsThatNameMore) {
  const std::string path =
      write("s.csv", kHeader +
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

TEST_F(SummaryTableTest, ConfigurationsSharingAReferenceRowAreLabelledByTheirExtraParams) {
  const std::string path = write("s.csv", kHeader +
                                              "a,hermes,alpha=-1.3;window=10,1,ok,patience,"
                                              "2000,9000,600,8,0.97,0.1,12000000,1,2000,\n"
                                              "b,hermes,alpha=-1.3;window=20,1,ok,patience,"
                                              "2000,9000,600,8,0.97,0.1,12000000,1,2000,\n");
  const Comparison c = compare_text(path);
  EXPECT_EQ(row_labelled(c, "Hermes (alpha=-1.3) [window=10]").sim->runs,
            std::vector<std::string>{"a"});
  EXPECT_EQ(row_labelled(c, "Hermes (alpha=-1.3) [window=20]").sim->runs,
            std::vector<std::string>{"b"});
}

// ---- summary.csv ----

TEST_F(SummaryTableTest, SeedsOfOneConfigurationAreAveragedWithTheirRange) {
  const std::string path = write(
      "s.csv",
      // Column order differs from the writer's and an extra column is present: both tolerated.
      "extra,protocol,run,params,seed,status,stop_reason,iterations,local_iterations,sim_time_s,"
      "wi_avg,accuracy,loss,api_calls,bytes,major_updates\n"
      "x,bsp,bsp-s1,,1,ok,patience,9000,36000,6000,1,0.98,0.07,18000000,1e9,9000\n"
      "y,bsp,bsp-s2,,18446744073709551615,ok,patience,9600,38400,6600,1,0.97,0.08,19000000,1e9,"
      "9600\n"
      "z,bsp,bsp-s3,,3,ok,patience,10200,40800,5400,1,0.99,0.06,20000000,1e9,10200\n");
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

TEST_F(SummaryTableTest, MissingColumnIsAnErrorNamingFileAndColumn) {
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

TEST_F(SummaryTableTest, MalformedNumberIsAnErrorNamingLineRunAndColumn) {
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

TEST_F(SummaryTableTest, RunsThatDidNotCompleteAreExcludedAndMayHaveEmptyResults) {
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

// ---- speedups and headlines ----

// Hand-made: BSP 100 min, SSP 200 min, Hermes (the paper's alpha=-1.6, beta=0.15 plus the
// defaults the simulator records) 10 min, no speedup column values.
std::string hand_made_summary() {
  return kHeader +
         "bsp,bsp,,1,ok,patience,9600,38400,6000,1,0.98,0.07,20000000,1e9,9600,\n"
         "ssp,ssp,staleness=125,1,ok,patience,20000,80000,12000,1,0.91,0.3,30000000,1e9,20000,\n"
         "h,hermes,alpha=-1.6;beta=0.15;lambda=5;window=10,1,ok,patience,2250,18000,600,8,0.975,"
         "0.08,12000000,1e9,2250,\n"
         "h13,hermes,alpha=-1.3;beta=0.1;lambda=5;window=10,1,ok,patience,2830,18000,750,7.9,0.98,"
         "0.07,13500000,1e9,2830,\n";
}

TEST_F(SummaryTableTest, HeadlineRatiosFromBothSides) {
  const Comparison c = compare_text(write("s.csv", hand_made_summary()));
  const SimConfig& h = *row_labelled(c, "Hermes (alpha=-1.6, beta=0.15)").sim;
  ASSERT_TRUE(h.speedup.has_value());
  EXPECT_TRUE(h.speedup_computed);
  EXPECT_DOUBLE_EQ(h.speedup->mean, 10.0);  // 6000 s / 600 s
  EXPECT_DOUBLE_EQ(row_labelled(c, "Hermes (alpha=-1.3)").sim->speedup->mean, 8.0);
  EXPECT_DOUBLE_EQ(row_labelled(c, "SSP (s=125)").sim->speedup->mean, 0.5);
  EXPECT_EQ(c.baseline, "bsp (1 run, mean 100.00 min)");

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

TEST_F(SummaryTableTest, SpeedupWrittenBySimulatorIsUsedAsIs) {
  const Comparison c = compare_text(write(
      "s.csv", kHeader + "b,bsp,,1,ok,patience,9600,38400,6000,1,0.98,0.07,20000000,1,1,1.0\n"
                         "h,hermes,alpha=-0.9,1,ok,patience,2200,1,600,7,0.97,0.1,1,1,1,9.5\n"));
  const SimConfig& h = *row_labelled(c, "Hermes (alpha=-0.9)").sim;
  EXPECT_FALSE(h.speedup_computed);
  EXPECT_DOUBLE_EQ(h.speedup->mean, 9.5);  // not 6000 / 600
  EXPECT_DOUBLE_EQ(*c.headlines[0].sim, 9.5);
  // The paper's chosen Hermes row was not simulated: no simulated side for its ratios.
  EXPECT_FALSE(c.headlines[1].sim.has_value());
  EXPECT_EQ(c.headlines[1].note, "Hermes (alpha=-1.6, beta=0.15) vs SSP; no simulated Hermes row");
}

TEST_F(SummaryTableTest, NoSimulatedBspLeavesSpeedupsEmpty) {
  const Comparison c = compare_text(
      write("s.csv", kHeader + "h,hermes,alpha=-0.9,1,ok,patience,2200,1,600,7,0.97,0.1,1,1,1,\n"));
  EXPECT_FALSE(row_labelled(c, "Hermes (alpha=-0.9)").sim->speedup.has_value());
  EXPECT_FALSE(c.headlines[0].sim.has_value());
  EXPECT_TRUE(c.baseline.empty());
}

// ---- output ----

TEST_F(SummaryTableTest, SeveralSeedsAreListedRunByRunInSeedOrder) {
  // Seeds in the file: 3, 1, 2; the per-run table lists them 1, 2, 3 with each run's own values.
  const Comparison c = compare_text(write(
      "s.csv", kHeader + "b3,bsp,,3,ok,patience,90,90,5400,1,0.99,0.1,3000000,1,90,1\n"
                         "b1,bsp,,1,ok,patience,100,100,6000,1,0.98,0.1,1000000,1,100,1\n"
                         "b2,bsp,,2,ok,patience,110,110,6600,1,0.97,0.1,2000000,1,110,1\n"
                         "h3,hermes,alpha=-1.3,3,ok,patience,9,30,540,3,0.96,0.1,100,1,9,10\n"
                         "h1,hermes,alpha=-1.3,1,ok,patience,10,40,600,4,0.95,0.1,200,1,10,10\n"
                         "h2,hermes,alpha=-1.3,2,ok,patience,11,50,1320,5,0.94,0.1,300,1,11,5\n"));
  std::ostringstream os;
  write_comparison(os, c, TableFormat::kMarkdown);
  const std::string md = os.str();
  EXPECT_NE(md.find("Every run, in seed order"), std::string::npos) << md;
  EXPECT_NE(md.find("| BSP | 1,2,3 | 100 / 110 / 90 | 100.00 / 110.00 / 90.00 | 1.00 / 1.00 / "
                    "1.00 | 98.00 / 97.00 / 99.00 | 1.00 / 2.00 / 3.00 | 1.00 / 1.00 / 1.00x |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| Hermes (alpha=-1.3) | 1,2,3 | 10 / 11 / 9 | 10.00 / 22.00 / 9.00 | 4.00 / "
                    "5.00 / 3.00 | 95.00 / 94.00 / 96.00 | 0.00 / 0.00 / 0.00 | 10.00 / 5.00 / "
                    "10.00x |"),
            std::string::npos)
      << md;
}

TEST_F(SummaryTableTest, TextTableAlignsSimBesidePaper) {
  const Comparison c = compare_text(write("s.csv", hand_made_summary()));
  std::ostringstream os;
  write_comparison(os, c, TableFormat::kText);
  // Hand-checked: BSP 6000 s = 100 min, accuracy 98.00 - 98.07 = -0.07; SSP 12000 s, speedup
  // 6000/12000 = 0.5, 91 - 90.79 = +0.21; alpha=-1.3: 750 s = 12.5 min, 8x; alpha=-1.6: 600 s,
  // 10x, 97.5 - 97.82 = -0.32. Paper cells keep the paper's digits (90.625, 18.9).
  const std::string table =
      "                               |      | iterations   | time (min)     | WI          | "
      "accuracy (%)         | API calls (M) | speedup vs BSP\n"
      "framework                      | runs |   sim  paper |    sim   paper |  sim  paper |   "
      "sim   paper   diff |   sim   paper |     sim   paper\n"
      "-------------------------------+------+--------------+----------------+-------------+-----"
      "-----------------+---------------+----------------\n"
      "BSP                            |    1 |  9600   9600 | 100.00  105.38 | 1.00   1.00 | "
      "98.00   98.07  -0.07 | 20.00    18.9 |  1.00x*   1.00x\n"
      "ASP                            |    0 |     -  15325 |      -   55.72 |    -   1.00 |     "
      "-  90.625      - |     -    24.6 |       -   1.89x\n"
      "SSP (s=125)                    |    1 | 20000  20955 | 200.00  221.63 | 1.00   1.00 | "
      "91.00   90.79  +0.21 | 30.00    29.6 |  0.50x*   0.47x\n"
      "E-BSP (R=150)                  |    0 |     -   3840 |      -  124.28 |    -   5.09 |     "
      "-   85.34      - |     -    15.5 |       -   0.84x\n"
      "Hermes (alpha=-0.9)            |    0 |     -   2200 |      -   11.20 |    -   7.41 |     "
      "-   97.71      - |     -    11.2 |       -   9.40x\n"
      "Hermes (alpha=-1.3)            |    1 |  2830   2830 |  12.50   10.55 | 7.90   7.90 | "
      "98.00   98.02  -0.02 | 13.50    13.5 |  8.00x*   9.90x\n"
      "Hermes (alpha=-1.6, beta=0.15) |    1 |  2250   2250 |  10.00    7.97 | 8.00   8.70 | "
      "97.50   97.82  -0.32 | 12.00    11.4 | 10.00x*  13.22x\n";
  const std::string text = os.str();
  EXPECT_EQ(text.substr(0, table.size()), table) << text;
  EXPECT_NE(text.find("not simulated: ASP, E-BSP (R=150), Hermes (alpha=-0.9)\n"),
            std::string::npos);
  EXPECT_NE(text.find("against bsp (1 run, mean 100.00 min)"), std::string::npos);
  EXPECT_EQ(text.find("range over runs"), std::string::npos);  // one run each: no ranges
  EXPECT_NE(text.find("Hermes' best speedup vs BSP     | 10.00x | 13.22x | sim: Hermes "
                      "(alpha=-1.6, beta=0.15); paper: Hermes (alpha=-1.6, beta=0.15)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("API calls: 1 - Hermes/SSP       |  60.0% |  61.5% | Hermes (alpha=-1.6, "
                      "beta=0.15) vs SSP\n"),
            std::string::npos);
  EXPECT_NE(text.find("API calls: 1 - Hermes/BSP       |  40.0% |  39.7% |"), std::string::npos);
  EXPECT_NE(text.find("accuracy: Hermes - BSP (points) |  -0.50 |  -0.25 |"), std::string::npos);
}

TEST_F(SummaryTableTest, MarkdownAndCsvOutputs) {
  const std::string summary =
      hand_made_summary() + "bsp2,bsp,,2,ok,patience,9600,38400,6600,1,0.97,0.07,20000000,1,1,\n";
  const Comparison c = compare_text(write("s.csv", summary));
  std::ostringstream md;
  write_comparison(md, c, TableFormat::kMarkdown);
  EXPECT_EQ(
      md.str().substr(0, md.str().find('\n')),
      "| framework | runs | iterations sim | iterations paper | time (min) sim | time (min) "
      "paper | WI sim | WI paper | accuracy (%) sim | accuracy (%) paper | accuracy (%) diff "
      "| API calls (M) sim | API calls (M) paper | speedup vs BSP sim | speedup vs BSP paper |");
  EXPECT_NE(md.str().find("| BSP | 2 | 9600 | 9600 | 105.00 | 105.38 |"), std::string::npos)
      << md.str();
  EXPECT_NE(md.str().find("| BSP | 2 | 9600-9600 | 100.00-110.00 |"), std::string::npos)
      << md.str();

  const std::string csv_path = (dir_ / "out.csv").string();
  {
    std::ofstream f(csv_path);
    write_comparison(f, c, TableFormat::kCsv);
  }
  io::CSVReader<6, io::trim_chars<>, io::double_quote_escape<',', '"'>> in(csv_path);
  in.read_header(io::ignore_extra_column, "label", "match", "runs", "time_min_sim",
                 "time_min_sim_max", "time_min_paper");
  std::string label, match, runs, t, tmax, tpaper;
  std::vector<std::string> labels;
  while (in.read_row(label, match, runs, t, tmax, tpaper)) {
    labels.push_back(label);
    if (label == "BSP") {
      EXPECT_EQ(match, "matched");
      EXPECT_EQ(runs, "2");
      EXPECT_EQ(t, "105.0000");
      EXPECT_EQ(tmax, "110.0000");
      EXPECT_EQ(tpaper, "105.38");
    }
    if (label == "ASP") {
      EXPECT_EQ(match, "not_simulated");
      EXPECT_EQ(t, "");
    }
  }
  EXPECT_EQ(labels, (std::vector<std::string>{"BSP", "ASP", "SSP (s=125)", "E-BSP (R=150)",
                                              "Hermes (alpha=-0.9)", "Hermes (alpha=-1.3)",
                                              "Hermes (alpha=-1.6, beta=0.15)"}));
}

TEST_F(SummaryTableTest, FormatNames) {
  EXPECT_EQ(parse_table_format("text"), TableFormat::kText);
  EXPECT_EQ(parse_table_format("csv"), TableFormat::kCsv);
  EXPECT_EQ(parse_table_format("markdown"), TableFormat::kMarkdown);
  EXPECT_FALSE(parse_table_format("md").has_value());
  EXPECT_EQ(format_min_decimals(98.07, 2), "98.07");
  EXPECT_EQ(format_min_decimals(90.625, 2), "90.625");
  EXPECT_EQ(format_min_decimals(1.0, 2), "1.00");
  EXPECT_EQ(format_min_decimals(9600, 0), "9600");
  EXPECT_EQ(format_min_decimals(18.9, 1), "18.9");
}

}  // namespace
}  // namespace hermes::metrics
