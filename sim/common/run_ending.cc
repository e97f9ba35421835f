#include "sim/common/run_ending.h"

#include <array>

#include "base/enum_text.h"

namespace hermes {

namespace {
constexpr std::array<std::string_view, 2> kRunStatusText{"ok", "diverged"};
static_assert(kRunStatusText.size() == enum_count(RunStatus::kDiverged));
constexpr std::array<std::string_view, 7> kStopReasonText{
    "", "patience", "max_sim_time", "max_iterations", "diverged", "no_events", "no_workers"};
static_assert(kStopReasonText.size() == enum_count(StopReason::kNoWorkers));
}  // namespace

std::string_view run_status_text(RunStatus status) { return enum_text(status, kRunStatusText); }
std::string_view stop_reason_text(StopReason reason) { return enum_text(reason, kStopReasonText); }

std::optional<RunStatus> parse_run_status(std::string_view text) {
  return enum_parse<RunStatus>(text, kRunStatusText);
}
std::optional<StopReason> parse_stop_reason(std::string_view text) {
  return enum_parse<StopReason>(text, kStopReasonText);
}

std::string_view stop_reason_cap_key(StopReason reason) {
  switch (reason) {
    case StopReason::kMaxSimTime:
      return "training.stop.max_sim_time_s";
    case StopReason::kMaxIterations:
      return "training.stop.max_iterations";
    case StopReason::kNone:
    case StopReason::kPatience:
    case StopReason::kDiverged:
    case StopReason::kNoEvents:
    case StopReason::kNoWorkers:
      return "";
  }
  return "";
}

bool speedup_comparable(RunStatus status, StopReason reason) {
  if (status != RunStatus::kOk) return false;
  switch (reason) {
    case StopReason::kNone:
    case StopReason::kPatience:
      return true;
    case StopReason::kMaxSimTime:
    case StopReason::kMaxIterations:
    case StopReason::kDiverged:
    case StopReason::kNoEvents:
    case StopReason::kNoWorkers:
      return false;
  }
  return false;
}

}  // namespace hermes
