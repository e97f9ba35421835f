#include "sim/sweep/point_tally.h"

namespace hermes::sweep {

void PointTally::started(std::size_t index, int rank) {
  running_.insert(index);
  started_.insert(index);
  monitor_.started(index, rank);
  if (on_change_) on_change_();
}

void PointTally::finished(const PointOutcome& outcome, int rank) {
  running_.erase(outcome.index);
  if (outcome.timed_out) timed_out_.push_back(outcome);
  monitor_.finished(outcome, rank);
  if (on_change_) on_change_();
}

void PointTally::tick() {
  if (on_tick_) on_tick_();
  monitor_.tick();
}

}  // namespace hermes::sweep
