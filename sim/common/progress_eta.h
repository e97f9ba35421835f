// How long is left: the ETAs `hermes-sim run` and `hermes-sim sweep` print, as pure functions of
// what has been measured so far (no clock, no I/O), so that every bound can be tested.
//
// A protocol run's length is not known in advance: it ends when the global loss has not improved
// for `patience` evaluations, or at a cap (training.stop.max_iterations updates, max_sim_time_s
// simulated seconds), whichever comes first. So a run's ETA is a range, both ends extrapolated at
// the run's mean wall time so far:
//   lower end: what patience still allows (in its unit: evaluations, rounds or simulated
//              seconds), if nothing in it improves the loss (an improvement restarts the count,
//              so the run can only take longer), unless a cap comes first;
//   upper end: the nearest cap: updates left to max_iterations at the wall time per update, or
//              simulated seconds left to max_sim_time_s at the wall time per simulated second.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hermes {

// What ends a run first, as the ETA sees it.
enum class EtaBound { kPatience, kMaxIterations, kMaxSimTime };

// "patience", "max_iterations", "max_sim_time": the words of summary.csv's stop_reason, from
// sim/common/run_ending.h.
std::string_view eta_bound_name(EtaBound bound);

// A protocol run as measured at one of its progress reports.
struct RunMeasure {
  double wall_s = 0;             // since the run started
  std::int64_t evaluations = 0;  // global-model evaluations so far
  // In training.stop.patience_unit: the run's progress so far, the part of it since the best
  // loss, and the patience.
  double progress = 0;
  double since_best = 0;
  double patience = 0;
  std::int64_t updates = 0;  // updates applied by the PS
  std::int64_t max_iterations = 0;
  double sim_time_s = 0;
  double max_sim_time_s = 0;
};

struct EtaRange {
  double min_s = 0;
  EtaBound min_by = EtaBound::kPatience;
  // Unset while no cap can be extrapolated yet (no update and no simulated time so far).
  std::optional<double> max_s;
  EtaBound max_by = EtaBound::kMaxIterations;
};

// The remaining wall time of a run (see the top of this file); nullopt before its first evaluation,
// when there is no rate to extrapolate.
std::optional<EtaRange> run_eta(const RunMeasure& m);

// One run of a scenario, for the scenario's ETA.
struct PlannedRun {
  // A time estimate made before the run (sim/protocols/skeleton/resources.h), in the same unit for
  // every run of one kind; only its ratio to the measured wall time is used.
  double estimate_s = 0;
  int kind = 0;                  // runs of one kind are alike (protocol runs, demo runs)
  std::optional<double> wall_s;  // measured, once finished
};

// The wall time the runs from `first` on (none started) will take: each run's estimate times the
// ratio of measured wall time to estimate over the finished runs of its kind. Nullopt when a run
// to go has a kind no finished run measured.
std::optional<double> runs_to_go_eta(const std::vector<PlannedRun>& runs, std::size_t first);

// A sweep's remaining wall time: each queued point and what each running point (by its elapsed
// wall time) still needs of the mean wall time of the points finished so far, spread over `slots`
// (points that run at once). Nullopt before a point has finished.
std::optional<double> sweep_eta(std::optional<double> mean_point_s,
                                const std::vector<double>& running_elapsed_s, std::size_t queued,
                                std::size_t slots);

// "45 s", "3 min 10 s", "2 h 05 min": a duration for progress lines.
std::string duration_text(double seconds);

}  // namespace hermes
