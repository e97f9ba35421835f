#include "sim/cluster/node_compute.h"

#include <algorithm>
#include <utility>

namespace hermes::cluster {

NodeCompute::NodeCompute(engine::Simulator& sim, const NodeProfile& profile, RandomStream jitter,
                         SpeedSchedule speed)
    : sim_(&sim),
      profile_(profile),
      jitter_model_(profile.compute.jitter_cv),
      rng_(std::move(jitter)),
      speed_(std::move(speed)) {
  if (profile_.burst) credits_.emplace(*profile_.burst, profile_.vcpus);
}

engine::SimTime NodeCompute::next_start() const { return std::max(sim_->now(), busy_until_); }

engine::ActivityId NodeCompute::start(const TrainingJob& job, OnDone on_done) {
  JobTiming t;
  t.start = next_start();
  t.full_speed_seconds = full_speed_seconds(profile_.compute, job);
  t.jitter = jitter_model_.draw(rng_);
  t.work_ns = engine::from_seconds(t.full_speed_seconds * t.jitter);
  if (credits_) {
    t.end = credits_->run(t.start, t.work_ns, speed_);
  } else {
    t.end = t.start + t.work_ns;
    // Only a job that a slowdown touches is recomputed: without one, the end is the exact sum.
    if (speed_.overlaps(t.start, t.end)) {
      t.end = speed_.finish(t.start, static_cast<double>(t.work_ns.ns()), 1.0);
    }
  }
  t.throttled_extra_ns = (t.end - t.start) - t.work_ns;
  busy_until_ = t.end;
  last_job_ = t;
  while (!ends_.empty() && !sim_->is_pending(ends_.front())) ends_.pop_front();
  ends_.push_back(sim_->schedule_at(t.end, std::move(on_done)));
  return static_cast<engine::ActivityId>(++jobs_run_);
}

void NodeCompute::interrupt(bool fresh_vm) {
  for (const engine::EventId id : ends_) sim_->cancel(id);
  ends_.clear();
  const engine::SimTime now = sim_->now();
  busy_until_ = now;
  if (credits_) {
    credits_->interrupt(
        now, fresh_vm ? std::optional<double>(profile_.burst->initial_credits) : std::nullopt);
  }
}

std::optional<double> NodeCompute::credits_at(engine::SimTime t) const {
  if (!credits_) return std::nullopt;
  return credits_->credits_at(t);
}

}  // namespace hermes::cluster
