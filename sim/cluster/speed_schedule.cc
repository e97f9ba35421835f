#include "sim/cluster/speed_schedule.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace hermes::cluster {
namespace {

engine::SimTime round_duration(double ns) {
  if (!(ns >= 0) || ns > 9.0e18) {
    throw std::domain_error("speed schedule: duration out of range: " + std::to_string(ns) + " ns");
  }
  return engine::SimTime::nanoseconds(std::llround(ns));
}

}  // namespace

SpeedSchedule::SpeedSchedule(std::vector<SpeedInterval> intervals)
    : intervals_(std::move(intervals)) {
  std::sort(intervals_.begin(), intervals_.end(),
            [](const SpeedInterval& a, const SpeedInterval& b) { return a.start < b.start; });
  for (std::size_t i = 0; i < intervals_.size(); ++i) {
    const SpeedInterval& iv = intervals_[i];
    if (iv.start < engine::SimTime{} || iv.end <= iv.start || !std::isfinite(iv.factor) ||
        !(iv.factor > 0)) {
      throw std::invalid_argument("SpeedSchedule: need 0 <= start < end and a finite factor > 0");
    }
    if (i > 0 && intervals_[i - 1].end > iv.start) {
      throw std::invalid_argument("SpeedSchedule: intervals overlap");
    }
  }
}

double SpeedSchedule::factor_at(engine::SimTime t) const {
  for (const SpeedInterval& iv : intervals_) {
    if (t < iv.start) break;
    if (t < iv.end) return iv.factor;
  }
  return 1;
}

bool SpeedSchedule::overlaps(engine::SimTime from, engine::SimTime to) const {
  for (const SpeedInterval& iv : intervals_) {
    if (iv.start >= to) break;
    if (iv.end > from) return true;
  }
  return false;
}

double SpeedSchedule::work_between(engine::SimTime from, engine::SimTime to,
                                   double base_speed) const {
  double work = 0;
  engine::SimTime t = from;
  for (const SpeedInterval& iv : intervals_) {
    if (t >= to) break;
    if (iv.end <= t) continue;
    const engine::SimTime gap_end = std::min(iv.start, to);
    if (gap_end > t) {
      work += base_speed * static_cast<double>((gap_end - t).ns());
      t = gap_end;
    }
    const engine::SimTime in_end = std::min(iv.end, to);
    if (in_end > t) {
      work += base_speed * iv.factor * static_cast<double>((in_end - t).ns());
      t = in_end;
    }
  }
  if (to > t) work += base_speed * static_cast<double>((to - t).ns());
  return work;
}

engine::SimTime SpeedSchedule::finish(engine::SimTime from, double work_ns,
                                      double base_speed) const {
  if (!(base_speed > 0) || !(work_ns >= 0)) {
    throw std::invalid_argument("SpeedSchedule::finish: need base_speed > 0 and work >= 0");
  }
  // Walk the constant-speed segments from `from`: the job ends in the first one whose capacity
  // covers the work left. Only that last step is rounded.
  double left = work_ns;
  engine::SimTime t = from;
  auto step = [&](engine::SimTime seg_end, double speed) -> bool {
    const double capacity = speed * static_cast<double>((seg_end - t).ns());
    if (capacity >= left) return true;
    left -= capacity;
    t = seg_end;
    return false;
  };
  for (const SpeedInterval& iv : intervals_) {
    if (iv.end <= t) continue;
    if (iv.start > t && step(iv.start, base_speed)) return t + round_duration(left / base_speed);
    const double speed = base_speed * iv.factor;
    if (step(iv.end, speed)) return t + round_duration(left / speed);
  }
  return t + round_duration(left / base_speed);
}

}  // namespace hermes::cluster
