#include "sim/cluster/node_compute.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

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

engine::ActivityId NodeCompute::start(const TrainingJob& job, OnEnd on_end) {
  const double full_speed = full_speed_seconds(profile_.compute, job);  // throws on a bad job
  const auto id = static_cast<engine::ActivityId>(++jobs_run_);
  if (!on_) {
    sim_->schedule_in(engine::SimTime{}, [on_end = std::move(on_end)] {
      if (on_end) on_end(engine::ActivityOutcome::kFailed);
    });
    return id;
  }
  JobTiming t;
  t.start = next_start();
  t.full_speed_seconds = full_speed;
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
  const engine::EventId end = sim_->schedule_at(t.end, [pending = pending_, id] {
    if (pending->empty() || pending->front().id != id) {
      throw std::logic_error("NodeCompute: job " + std::to_string(id) + " ended out of order");
    }
    OnEnd done = std::move(pending->front().on_end);
    pending->pop_front();
    if (done) done(engine::ActivityOutcome::kDone);
  });
  pending_->push_back({id, end, std::move(on_end)});
  return id;
}

void NodeCompute::fail_all() {
  std::vector<OnEnd> failed;
  failed.reserve(pending_->size());
  for (Pending& p : *pending_) {
    sim_->cancel(p.end);
    failed.push_back(std::move(p.on_end));
  }
  pending_->clear();
  const engine::SimTime now = sim_->now();
  busy_until_ = now;
  if (credits_) credits_->interrupt(now);
  // One event for them all, so that they fail together and in start order.
  if (!failed.empty()) {
    sim_->schedule_in(engine::SimTime{}, [failed = std::move(failed)] {
      for (const OnEnd& f : failed) {
        if (f) f(engine::ActivityOutcome::kFailed);
      }
    });
  }
}

void NodeCompute::turn_off() {
  if (!on_) throw std::logic_error("NodeCompute: " + profile_.name + " turned off twice");
  fail_all();
  on_ = false;
}

void NodeCompute::turn_on(bool fresh_vm) {
  if (on_) throw std::logic_error("NodeCompute: " + profile_.name + " turned on while on");
  on_ = true;
  const engine::SimTime now = sim_->now();
  busy_until_ = now;
  if (credits_ && fresh_vm) credits_->interrupt(now, profile_.burst->initial_credits);
}

bool NodeCompute::in_progress(engine::ActivityId id) const {
  return std::any_of(pending_->begin(), pending_->end(),
                     [id](const Pending& p) { return p.id == id; });
}

std::optional<double> NodeCompute::credits_at(engine::SimTime t) const {
  if (!credits_) return std::nullopt;
  return credits_->credits_at(t);
}

}  // namespace hermes::cluster
