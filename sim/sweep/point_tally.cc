#include "sim/sweep/point_tally.h"

namespace hermes::sweep {

void PointTally::started(std::size_t index, int rank) {
  running_.insert(index);
  started_.insert(index);
  monitor_.started(index, rank);
}

void PointTally::finished(const PointOutcome& outcome, int rank) {
  running_.erase(outcome.index);
  if (outcome.timed_out) timed_out_.push_back(outcome);
  monitor_.finished(outcome, rank);
}

}  // namespace hermes::sweep
