// What the coordinating thread (rank 0 under MPI) does as points start and finish: it rewrites
// DIR/summary.csv after every finished point, prints a line per finished point, and keeps a
// progress line on stderr: on a terminal rewritten in place (points done/total, running, ETA from
// the mean wall time of the points finished so far), otherwise a plain line every 10 s.
#pragma once

#include <chrono>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "sim/sweep/point_pool.h"
#include "sim/sweep/points.h"
#include "sim/sweep/sweep_dir.h"

namespace hermes::sweep {

class SweepMonitor {
 public:
  // `already_done`: points finished before this invocation; `slots`: points that can run at once
  // (threads x ranks), for the ETA. `tty`: rewrite the progress line in place.
  SweepMonitor(const SweepDir& dir, const std::vector<GridAxis>& grid,
               const std::vector<SweepPoint>& points, std::size_t already_done, std::size_t slots,
               std::ostream& log, bool tty);

  void started(std::size_t index, int rank);
  // Rank -1: this process without MPI.
  void finished(const PointOutcome& outcome, int rank);
  // Call often (every ~100 ms): redraws or prints the progress line when due.
  void tick();
  // Ends the progress line (a terminal's last redraw).
  void close();

  std::size_t done() const { return done_; }
  std::size_t finished_now() const { return finished_now_; }
  std::size_t summary_rows() const { return summary_rows_; }
  // "0003: <error>" for each point that failed.
  const std::vector<std::string>& failures() const { return failures_; }

 private:
  std::string status() const;
  std::string result_text(std::size_t index) const;
  void print(const std::string& line);
  void draw();

  using Clock = std::chrono::steady_clock;
  const SweepDir& dir_;
  const std::vector<GridAxis>& grid_;
  const std::vector<SweepPoint>& points_;
  std::size_t slots_;
  std::ostream& log_;
  bool tty_;
  std::size_t done_;
  std::map<std::size_t, Clock::time_point> running_;  // point -> when it started
  std::size_t finished_now_ = 0;
  double wall_sum_ = 0;  // of the points finished now, successfully
  std::size_t summary_rows_ = 0;
  std::vector<std::string> failures_;
  Clock::time_point last_line_{};
  bool line_shown_ = false;
};

}  // namespace hermes::sweep
