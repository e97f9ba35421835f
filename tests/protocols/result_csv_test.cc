#include "sim/protocols/reporting/result_csv.h"

#include <gtest/gtest.h>

#include <sstream>

#include "sim/metrics/params_text.h"
#include "sim/metrics/summary_csv.h"
#include "tests/support/scratch_dir.h"

namespace hermes::protocols {
namespace {

scenario::RunSpec spec(scenario::Protocol p) {
  scenario::RunSpec r;
  r.protocol = p;
  return r;
}

// The typed kinds are written as these exact words (workers.csv, summary.csv, run lines, traces).
TEST(ResultText, KindsStatusesAndStopReasonsKeepTheirWords) {
  EXPECT_EQ(update_kind_text(UpdateKind::kPush), "push");
  EXPECT_EQ(update_kind_text(UpdateKind::kMajor), "major");
  EXPECT_EQ(update_kind_text(UpdateKind::kMinor), "minor");
  EXPECT_EQ(run_status_text(RunStatus::kOk), "ok");
  EXPECT_EQ(run_status_text(RunStatus::kDiverged), "diverged");
  EXPECT_EQ(stop_reason_text(StopReason::kNone), "");
  EXPECT_EQ(stop_reason_text(StopReason::kPatience), "patience");
  EXPECT_EQ(stop_reason_text(StopReason::kMaxSimTime), "max_sim_time");
  EXPECT_EQ(stop_reason_text(StopReason::kMaxIterations), "max_iterations");
  EXPECT_EQ(stop_reason_text(StopReason::kDiverged), "diverged");
  EXPECT_EQ(stop_reason_text(StopReason::kNoEvents), "no_events");
  EXPECT_EQ(stop_reason_text(StopReason::kNoWorkers), "no_workers");
}

// The configuration `hermes-sim compare` groups a run by, as summary.csv's parameter columns give
// it back (written here, read by sim/metrics): every setting that changes a protocol's behaviour
// must be in it.
class SummaryColumns : public hermes::testing::ScratchDirTest {
 protected:
  std::string configuration_of(scenario::RunSpec run) const {
    run.name = "r";
    scenario::Scenario sc;
    std::ostringstream out;
    RunResult result;
    result.sim_time = engine::from_seconds(1);  // a completed run takes time
    write_summary_csv(out, sc, {FinishedRun{&run, result}});
    put("summary.csv", out.str());
    const auto rows = metrics::read_summary_csv(path("summary.csv"));
    return metrics::params_text(rows.at(0).params);
  }
};

TEST_F(SummaryColumns, BaselinesNameWhatDiffersFromTheirDefaults) {
  using scenario::Protocol;
  EXPECT_EQ(configuration_of(spec(Protocol::kBsp)), "");
  EXPECT_EQ(configuration_of(spec(Protocol::kAsp)), "");
  EXPECT_EQ(configuration_of(spec(Protocol::kSsp)), "staleness=125");
  EXPECT_EQ(configuration_of(spec(Protocol::kEbsp)), "lookahead=150");

  auto ssp = spec(Protocol::kSsp);
  ssp.dynamic_allocation = true;
  ssp.async_update = scenario::AsyncUpdate::kAverage;
  EXPECT_EQ(configuration_of(ssp), "async_update=average;dynamic_allocation=true;staleness=125");
  auto ebsp = spec(Protocol::kEbsp);
  ebsp.lookahead = 20;
  ebsp.dynamic_allocation = true;
  EXPECT_EQ(configuration_of(ebsp), "dynamic_allocation=true;lookahead=20");
  auto asp = spec(Protocol::kAsp);
  asp.async_update = scenario::AsyncUpdate::kAverage;
  EXPECT_EQ(configuration_of(asp), "async_update=average");
}

TEST_F(SummaryColumns, HermesNamesItsWholeRule) {
  auto h = spec(scenario::Protocol::kHermes);
  h.dynamic_allocation = true;
  h.hermes.alpha = -1.6;
  h.hermes.beta = 0.15;
  EXPECT_EQ(configuration_of(h), "alpha=-1.6;beta=0.15;lambda=5;variant=reference;window=10");
  h.dynamic_allocation = false;
  h.hermes.gup = false;
  EXPECT_EQ(configuration_of(h),
            "alpha=-1.6;beta=0.15;dynamic_allocation=false;gup=false;lambda=5;variant=reference;"
            "window=10");
}

// Each parameter in its own column: the run's value where its protocol takes it, else empty.
TEST_F(SummaryColumns, EveryParameterHasItsColumnEmptyWhereNotTaken) {
  auto ssp = spec(scenario::Protocol::kSsp);
  scenario::Scenario sc;
  std::ostringstream out;
  write_summary_csv(out, sc, {FinishedRun{&ssp, RunResult{}}});
  const std::string text = out.str();
  const std::string header = text.substr(0, text.find('\n'));
  EXPECT_EQ(
      header.substr(0, header.find(",seed,")),
      "run,protocol,dynamic_allocation,barrier_timeout_s,staleness,lookahead,pull_between_barriers,"
      "async_update,server_lr,update_unit,steps_per_update,evaluate_every,alpha,beta,lambda,"
      "window,variant,gup,loss_weighting");
  const std::string row = text.substr(text.find('\n') + 1);
  // Run name (empty here), protocol, the seventeen parameter cells, then the seed. server_lr and
  // steps_per_update are empty too: they apply only under server-lr and steps (RunParam::applies).
  EXPECT_EQ(row.rfind(",ssp,false,,125,,,add,,chunk,,1,,,,,,,,", 0), 0u) << row;
  ssp.async_update = scenario::AsyncUpdate::kServerLr;
  ssp.server_lr = 0.05;
  ssp.update_unit = scenario::UpdateUnit::kSteps;
  ssp.steps_per_update = 4;
  std::ostringstream applied;
  write_summary_csv(applied, sc, {FinishedRun{&ssp, RunResult{}}});
  const std::string row2 = applied.str().substr(applied.str().find('\n') + 1);
  EXPECT_EQ(row2.rfind(",ssp,false,,125,,,server-lr,0.05,steps,4,1,,,,,,,,", 0), 0u) << row2;
}

}  // namespace
}  // namespace hermes::protocols
