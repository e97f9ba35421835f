// What the coordinating thread (rank 0 under MPI) does as points start and finish: it rewrites
// DIR/summary.csv after every finished point and reports the progress on a ProgressLog
// (sim/common/progress_log.h). In text, a line per finished point and a status line (points
// done/total, running, ETA from the mean wall time of the points finished so far), rewritten in
// place on a terminal, else a plain line every 10 s; in JSON Lines, the events sweep_start,
// point_start, point_end, sweep_progress (every 2 s) and sweep_end (docs/progress.md).
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/common/progress_log.h"
#include "sim/sweep/point_pool.h"
#include "sim/sweep/points.h"
#include "sim/sweep/sweep_dir.h"

namespace hermes::sweep {

class SweepMonitor {
 public:
  // `already_done`: points finished before this invocation; `slots`: points that can run at once
  // (threads x ranks), for the ETA. Reports "sweep_start".
  SweepMonitor(const SweepDir& dir, const std::vector<GridAxis>& grid,
               const std::vector<SweepPoint>& points, std::size_t already_done, std::size_t slots,
               ProgressLog& log);

  void started(std::size_t index, int rank);
  // Rank -1: this process without MPI.
  void finished(const PointOutcome& outcome, int rank);
  // Call often (every ~100 ms): redraws or prints the status line, or reports "sweep_progress",
  // when due.
  void tick();
  // Ends the status line (a terminal's last redraw); reports "sweep_end".
  void close();

  std::size_t done() const { return done_; }
  std::size_t finished_now() const { return finished_now_; }
  std::size_t summary_rows() const { return summary_rows_; }
  // Runs of the points finished now that were taken from other points' (run_reuse.h).
  std::size_t runs_reused() const { return runs_reused_; }
  // "0003: <error>" for each point that failed.
  const std::vector<std::string>& failures() const { return failures_; }

 private:
  std::optional<double> eta_s() const;
  std::string status() const;
  void draw();

  using Clock = std::chrono::steady_clock;
  const SweepDir& dir_;
  const std::vector<GridAxis>& grid_;
  const std::vector<SweepPoint>& points_;
  std::size_t slots_;
  ProgressLog& log_;
  std::size_t done_;
  std::map<std::size_t, Clock::time_point> running_;  // point -> when it started
  std::size_t finished_now_ = 0;
  double wall_sum_ = 0;  // of the points finished now, successfully
  std::size_t summary_rows_ = 0;
  std::size_t runs_reused_ = 0;
  std::vector<std::string> failures_;
  Clock::time_point last_line_{};
  Clock::time_point last_event_{};
};

}  // namespace hermes::sweep
