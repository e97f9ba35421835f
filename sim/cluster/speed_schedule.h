// A node's CPU speed over simulated time: factor 1 except in slowdown intervals [start, end), where
// it runs at `factor` times its normal speed (a noisy neighbour, host contention; factor > 1 would
// be a speed-up). Scenarios declare the intervals ("events" and "trace": scenarios/README.md);
// this file only holds the arithmetic that turns work into time across them.
//
// Exact and deterministic: interval bounds are integer nanoseconds, work is integrated segment by
// segment (the speed is constant on each), and only the instant a job ends is rounded to the
// nanosecond, once.
#pragma once

#include <vector>

#include "sim/engine/sim_time.h"

namespace hermes::cluster {

struct SpeedInterval {
  engine::SimTime start;  // inclusive
  engine::SimTime end;    // exclusive, > start
  double factor = 1;      // finite, > 0
};

class SpeedSchedule {
 public:
  SpeedSchedule() = default;  // factor 1 at all times
  // Sorts the intervals by start. Throws std::invalid_argument if one is empty, starts before 0,
  // has a factor that is not finite and > 0, or if two overlap (the scenario loader reports these
  // as input errors first; here they are programming errors).
  explicit SpeedSchedule(std::vector<SpeedInterval> intervals);

  bool empty() const { return intervals_.empty(); }
  const std::vector<SpeedInterval>& intervals() const { return intervals_; }

  // The factor in force at t.
  double factor_at(engine::SimTime t) const;
  // Whether an interval intersects [from, to).
  bool overlaps(engine::SimTime from, engine::SimTime to) const;
  // Work done in [from, to) at `base_speed` x factor(t), in nanoseconds of full-speed work.
  double work_between(engine::SimTime from, engine::SimTime to, double base_speed) const;
  // When `work_ns` nanoseconds of full-speed work started at `from` end at `base_speed` x
  // factor(t) (base_speed > 0: the speed the node has outside slowdowns, e.g. a B-series node's
  // baseline once its credits are gone).
  engine::SimTime finish(engine::SimTime from, double work_ns, double base_speed) const;

 private:
  std::vector<SpeedInterval> intervals_;  // sorted by start, disjoint
};

}  // namespace hermes::cluster
