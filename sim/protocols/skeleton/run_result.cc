#include "sim/protocols/skeleton/run_result.h"

#include <array>
#include <numeric>

#include "base/enum_text.h"

namespace hermes::protocols {

namespace {
constexpr std::array<std::string_view, 3> kUpdateKindText{"push", "major", "minor"};
static_assert(kUpdateKindText.size() == enum_count(UpdateKind::kMinor));
}  // namespace

std::string_view update_kind_text(UpdateKind kind) { return enum_text(kind, kUpdateKindText); }

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

NodeChurn RunResult::churn_total() const {
  NodeChurn t;
  for (const NodeChurn& c : churn) {
    t.outages += c.outages;
    t.downtime += c.downtime;
    t.deallocated += c.deallocated;
    t.lost_iterations += c.lost_iterations;
    t.wasted_compute += c.wasted_compute;
    t.dropped_updates += c.dropped_updates;
  }
  return t;
}

}  // namespace hermes::protocols
