#include "sim/common/progress_eta.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "sim/common/run_ending.h"

namespace hermes {

std::string_view eta_bound_name(EtaBound bound) {
  switch (bound) {
    case EtaBound::kPatience:
      return stop_reason_text(StopReason::kPatience);
    case EtaBound::kMaxIterations:
      return stop_reason_text(StopReason::kMaxIterations);
    case EtaBound::kMaxSimTime:
      return stop_reason_text(StopReason::kMaxSimTime);
  }
  return "?";
}

std::optional<EtaRange> run_eta(const RunMeasure& m) {
  if (m.evaluations <= 0 || !(m.wall_s >= 0)) return std::nullopt;
  EtaRange eta;
  const double patience_left = std::max(0.0, m.patience - m.since_best);
  eta.min_s = m.progress > 0 ? m.wall_s / m.progress * patience_left : 0.0;
  // What is left to a cap at the wall time per unit done so far.
  const auto cap = [&](double done, double limit, EtaBound bound) {
    if (!(done > 0)) return;  // nothing to extrapolate from yet
    const double s = m.wall_s / done * std::max(0.0, limit - done);
    if (!eta.max_s || s < *eta.max_s) {
      eta.max_s = s;
      eta.max_by = bound;
    }
  };
  cap(static_cast<double>(m.updates), static_cast<double>(m.max_iterations),
      EtaBound::kMaxIterations);
  cap(m.sim_time_s, m.max_sim_time_s, EtaBound::kMaxSimTime);
  // The run ends at whichever comes first, so a cap nearer than patience's end is both bounds.
  if (eta.max_s && *eta.max_s < eta.min_s) {
    eta.min_s = *eta.max_s;
    eta.min_by = eta.max_by;
  }
  return eta;
}

std::optional<double> runs_to_go_eta(const std::vector<PlannedRun>& runs, std::size_t first) {
  struct Measured {
    double wall = 0, estimate = 0;
    int count = 0;
  };
  std::map<int, Measured> kinds;
  for (const auto& r : runs) {
    if (!r.wall_s) continue;
    auto& k = kinds[r.kind];
    k.wall += *r.wall_s;
    k.estimate += r.estimate_s;
    ++k.count;
  }
  double total = 0;
  for (std::size_t i = first; i < runs.size(); ++i) {
    const auto it = kinds.find(runs[i].kind);
    if (it == kinds.end()) return std::nullopt;
    const Measured& k = it->second;
    // Estimates of 0 (nothing to estimate from) leave the mean measured run.
    total += k.estimate > 0 ? runs[i].estimate_s * k.wall / k.estimate : k.wall / k.count;
  }
  return total;
}

std::optional<double> sweep_eta(std::optional<double> mean_point_s,
                                const std::vector<double>& running_elapsed_s, std::size_t queued,
                                std::size_t slots) {
  if (!mean_point_s) return std::nullopt;
  double work = *mean_point_s * static_cast<double>(queued);
  for (const double elapsed : running_elapsed_s) work += std::max(0.0, *mean_point_s - elapsed);
  return work / static_cast<double>(std::max<std::size_t>(slots, 1));
}

std::string duration_text(double seconds) {
  // At most 1e12 s (32,000 years), so that rounding to a whole number cannot overflow; NaN is 0.
  const auto total =
      static_cast<long long>(std::llround(seconds > 0 ? std::min(seconds, 1e12) : 0.0));
  std::ostringstream os;
  if (total < 60) {
    os << total << " s";
  } else if (total < 3600) {
    os << total / 60 << " min " << total % 60 << " s";
  } else {
    os << total / 3600 << " h " << (total % 3600) / 600 << (total % 600) / 60 << " min";
  }
  return os.str();
}

}  // namespace hermes
