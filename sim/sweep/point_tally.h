// What became of the points this invocation of a sweep handed out, kept on the coordinating thread
// (rank 0's main thread): it passes every event on to the SweepMonitor (progress lines, the
// summary) and remembers which points run and which timed out, for the final report and
// DIR/timed_out.json.
#pragma once

#include <cstddef>
#include <set>
#include <vector>

#include "sim/sweep/sweep_monitor.h"
#include "sim/sweep/sweep_runner.h"

namespace hermes::sweep {

class PointTally : public PointEvents {
 public:
  explicit PointTally(SweepMonitor& monitor) : monitor_(monitor) {}

  void started(std::size_t index, int rank) override;
  void finished(const PointOutcome& outcome, int rank) override;
  void tick() override { monitor_.tick(); }

  // Points started and not finished yet.
  const std::set<std::size_t>& running() const { return running_; }
  // Points started in this invocation.
  const std::set<std::size_t>& started_points() const { return started_; }
  // Points abandoned at --point-timeout, in the order they ended.
  const std::vector<PointOutcome>& timed_out() const { return timed_out_; }

 private:
  SweepMonitor& monitor_;
  std::set<std::size_t> running_, started_;
  std::vector<PointOutcome> timed_out_;
};

}  // namespace hermes::sweep
