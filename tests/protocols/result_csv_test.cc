#include "sim/protocols/reporting/result_csv.h"

#include <gtest/gtest.h>

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
}

// summary.csv's params column is what `hermes-sim compare` groups runs by, so every setting that
// changes a baseline's behaviour must appear in it.
TEST(RunParams, BaselinesNameWhatDiffersFromTheirDefaults) {
  using scenario::Protocol;
  EXPECT_EQ(run_params(spec(Protocol::kBsp)), "");
  EXPECT_EQ(run_params(spec(Protocol::kAsp)), "");
  EXPECT_EQ(run_params(spec(Protocol::kSsp)), "staleness=125");
  EXPECT_EQ(run_params(spec(Protocol::kEbsp)), "lookahead=150");

  auto ssp = spec(Protocol::kSsp);
  ssp.dynamic_allocation = true;
  ssp.async_update = scenario::AsyncUpdate::kAverage;
  EXPECT_EQ(run_params(ssp), "async_update=average;dynamic_allocation=true;staleness=125");
  auto ebsp = spec(Protocol::kEbsp);
  ebsp.lookahead = 20;
  ebsp.dynamic_allocation = true;
  EXPECT_EQ(run_params(ebsp), "dynamic_allocation=true;lookahead=20");
  auto asp = spec(Protocol::kAsp);
  asp.async_update = scenario::AsyncUpdate::kAverage;
  EXPECT_EQ(run_params(asp), "async_update=average");
}

TEST(RunParams, HermesNamesItsWholeRule) {
  auto h = spec(scenario::Protocol::kHermes);
  h.dynamic_allocation = true;
  h.hermes.alpha = -1.6;
  h.hermes.beta = 0.15;
  EXPECT_EQ(run_params(h), "alpha=-1.6;beta=0.15;lambda=5;variant=reference;window=10");
  h.dynamic_allocation = false;
  h.hermes.gup = false;
  EXPECT_EQ(run_params(h),
            "alpha=-1.6;beta=0.15;dynamic_allocation=false;gup=false;lambda=5;variant=reference;"
            "window=10");
}

}  // namespace
}  // namespace hermes::protocols
