// What became of the points this invocation of a sweep handed out, kept on the coordinating thread
// (rank 0's main thread): it passes every event on to the SweepMonitor (progress lines, the
// summary) and remembers which points run and which timed out, for the final report and
// DIR/timed_out.json; `on_change` (after each start and end) and `on_tick` let the sweep keep
// its interruption texts current (sweep_stop.h).
#pragma once

#include <cstddef>
#include <functional>
#include <set>
#include <vector>

#include "sim/sweep/sweep_monitor.h"
#include "sim/sweep/sweep_runner.h"

namespace hermes::sweep {

class PointTally : public PointEvents {
 public:
  explicit PointTally(SweepMonitor& monitor, std::function<void()> on_change = {},
                      std::function<void()> on_tick = {})
      : monitor_(monitor), on_change_(std::move(on_change)), on_tick_(std::move(on_tick)) {}

  void started(std::size_t index, int rank) override;
  void finished(const PointOutcome& outcome, int rank) override;
  void tick() override;

  // Points started and not finished yet.
  const std::set<std::size_t>& running() const { return running_; }
  // Points started in this invocation.
  const std::set<std::size_t>& started_points() const { return started_; }
  // Points abandoned at --point-timeout, in the order they ended.
  const std::vector<PointOutcome>& timed_out() const { return timed_out_; }

 private:
  SweepMonitor& monitor_;
  std::function<void()> on_change_, on_tick_;
  std::set<std::size_t> running_, started_;
  std::vector<PointOutcome> timed_out_;
};

}  // namespace hermes::sweep
