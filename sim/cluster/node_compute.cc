#include "sim/cluster/node_compute.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace hermes::cluster {

NodeCompute::NodeCompute(const NodeProfile& profile, RandomStream jitter)
    : profile_(profile), jitter_model_(profile.compute.jitter_cv), rng_(std::move(jitter)) {
  if (profile_.burst) credits_.emplace(*profile_.burst, profile_.vcpus);
}

engine::SimTime NodeCompute::run_job(engine::SimTime start, double flops, std::int64_t steps) {
  if (start < busy_until_) {
    throw std::logic_error("NodeCompute(" + profile_.name + "): job starts at " +
                           std::to_string(start) + " ns, before the previous job ends at " +
                           std::to_string(busy_until_) + " ns");
  }
  JobTiming t;
  t.start = start;
  t.full_speed_seconds = full_speed_seconds(profile_.compute, flops, steps);
  t.jitter = jitter_model_.draw(rng_);
  t.work_ns = engine::from_seconds(t.full_speed_seconds * t.jitter);
  t.end = credits_ ? credits_->run(start, t.work_ns) : start + t.work_ns;
  t.throttled_extra_ns = (t.end - start) - t.work_ns;
  busy_until_ = t.end;
  last_job_ = t;
  ++jobs_run_;
  return t.end;
}

std::optional<double> NodeCompute::credits_at(engine::SimTime t) const {
  if (!credits_) return std::nullopt;
  return credits_->credits_at(t);
}

}  // namespace hermes::cluster
