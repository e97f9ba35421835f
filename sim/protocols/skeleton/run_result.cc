#include "sim/protocols/skeleton/run_result.h"

#include <numeric>

namespace hermes::protocols {

std::string_view update_kind_text(UpdateKind kind) {
  switch (kind) {
    case UpdateKind::kPush:
      return "push";
    case UpdateKind::kMajor:
      return "major";
    case UpdateKind::kMinor:
      return "minor";
  }
  return "?";
}

std::string_view run_status_text(RunStatus status) {
  switch (status) {
    case RunStatus::kOk:
      return "ok";
    case RunStatus::kDiverged:
      return "diverged";
  }
  return "?";
}

std::string_view stop_reason_text(StopReason reason) {
  switch (reason) {
    case StopReason::kNone:
      return "";
    case StopReason::kPatience:
      return "patience";
    case StopReason::kMaxSimTime:
      return "max_sim_time";
    case StopReason::kMaxIterations:
      return "max_iterations";
    case StopReason::kDiverged:
      return "diverged";
    case StopReason::kNoEvents:
      return "no_events";
  }
  return "?";
}

std::int64_t RunResult::total_local_iterations() const {
  return std::accumulate(local_iterations.begin(), local_iterations.end(), std::int64_t{0});
}

double RunResult::wi_avg() const {
  if (local_iterations.empty()) return 0;
  double sum = 0;
  for (std::size_t w = 0; w < local_iterations.size(); ++w) {
    // A worker that never pulled ran on its initial model only: its independence is its count.
    const auto pulls = std::max<std::int64_t>(model_requests[w], 1);
    sum += static_cast<double>(local_iterations[w]) / static_cast<double>(pulls);
  }
  return sum / static_cast<double>(local_iterations.size());
}

}  // namespace hermes::protocols
