// The words of a run's status and stop reason (sim/common/run_ending.h): summary.csv and
// `compare --format json` carry them, so each must read back as the value that wrote it, and a
// word this version does not write must read as unknown, not as some value.
#include "sim/common/run_ending.h"

#include <gtest/gtest.h>

namespace hermes {
namespace {

TEST(RunEnding, EveryStatusReadsBackAsItself) {
  for (const RunStatus s : {RunStatus::kOk, RunStatus::kDiverged}) {
    EXPECT_EQ(parse_run_status(run_status_text(s)), s) << run_status_text(s);
  }
  EXPECT_EQ(run_status_text(RunStatus::kOk), "ok");
  EXPECT_EQ(parse_run_status("diverged"), RunStatus::kDiverged);
}

TEST(RunEnding, EveryStopReasonReadsBackAsItself) {
  for (const StopReason r : {StopReason::kNone, StopReason::kPatience, StopReason::kMaxSimTime,
                             StopReason::kMaxIterations, StopReason::kDiverged,
                             StopReason::kNoEvents, StopReason::kNoWorkers}) {
    EXPECT_EQ(parse_stop_reason(stop_reason_text(r)), r) << stop_reason_text(r);
  }
  EXPECT_EQ(parse_stop_reason("max_sim_time"), StopReason::kMaxSimTime);
  EXPECT_EQ(parse_stop_reason(""), StopReason::kNone);  // a run not ended (summary.csv: empty)
}

TEST(RunEnding, AWordOfAnotherVersionIsUnknown) {
  EXPECT_EQ(parse_run_status("failed"), std::nullopt);
  EXPECT_EQ(parse_run_status("OK"), std::nullopt);  // words are exact
  EXPECT_EQ(parse_stop_reason("timeout"), std::nullopt);
  EXPECT_EQ(parse_stop_reason("patience "), std::nullopt);
}

// summary.csv's speedup and `compare` take a run's time by this one rule: only a run that
// converged by its stop rule.
TEST(SpeedupComparable, OnlyARunThatConvergedByItsStopRule) {
  EXPECT_TRUE(speedup_comparable(RunStatus::kOk, StopReason::kPatience));
  EXPECT_TRUE(speedup_comparable(RunStatus::kOk, StopReason::kNone));
  EXPECT_FALSE(speedup_comparable(RunStatus::kOk, StopReason::kMaxIterations));
  EXPECT_FALSE(speedup_comparable(RunStatus::kOk, StopReason::kMaxSimTime));
  // Nothing left to simulate: the run stalled; summary.csv took its time before this rule.
  EXPECT_FALSE(speedup_comparable(RunStatus::kOk, StopReason::kNoEvents));
  // Every worker gone for good: the run did not converge by its rule.
  EXPECT_FALSE(speedup_comparable(RunStatus::kOk, StopReason::kNoWorkers));
  EXPECT_FALSE(speedup_comparable(RunStatus::kDiverged, StopReason::kPatience));
  EXPECT_FALSE(speedup_comparable(RunStatus::kDiverged, StopReason::kDiverged));
}

}  // namespace
}  // namespace hermes
