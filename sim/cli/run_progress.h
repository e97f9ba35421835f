// The progress of `hermes-sim run` on stderr (sim/common/progress_log.h: text, JSON Lines or
// none; the events are documented in docs/progress.md): for the protocol run under way its figures
// and its ETA range (sim/common/progress_eta.h), and for the scenario the runs done, the wall time
// so far and an estimate of the runs to go.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "sim/common/progress_eta.h"
#include "sim/common/progress_log.h"
#include "sim/protocols/skeleton/run_result.h"
#include "sim/scenario/scenario.h"

namespace hermes::cli {

class ScenarioProgress {
 public:
  // Reports "scenario_start". `sc` and `log` must outlive it.
  ScenarioProgress(const scenario::Scenario& sc, ProgressLog& log);

  // Run `index` (of sc.runs) starts: "run_start"; in text, after a finished run, a line with the
  // runs done, the wall time so far and the ETA of the runs to go.
  void run_started(std::size_t index);
  // After each aggregation of the running protocol run (protocols::ProgressFn): its live line,
  // or "run_progress" at the first call and then at most every 2 s.
  void update(const protocols::RunResult& r, engine::SimTime now);
  // The running run ended: "run_end".
  void run_finished(const protocols::RunResult& r);
  // Every run ended and `dir` holds `files`: "scenario_end".
  void finished(const std::string& dir, const std::vector<std::string>& files);

 private:
  using Clock = std::chrono::steady_clock;
  double run_wall_s() const;
  std::size_t runs_done() const;
  ProgressLog::Json scenario_eta_json(const std::optional<EtaRange>& run) const;
  std::string scenario_eta_text(const std::optional<EtaRange>& run) const;
  std::string run_eta_text(const std::optional<EtaRange>& eta, double patience_left) const;

  const scenario::Scenario& sc_;
  ProgressLog& log_;
  std::vector<PlannedRun> planned_;  // one per run of sc_, in order
  std::size_t current_ = 0;
  Clock::time_point run_start_{};
  std::optional<Clock::time_point> last_live_, last_event_;  // of the current run
};

}  // namespace hermes::cli
