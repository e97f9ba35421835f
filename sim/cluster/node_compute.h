// One simulated node's compute side: the profile's compute-time model, its seeded jitter and, for
// B-series nodes, the burst-credit bank, and the node's slowdowns (speed_schedule.h; they multiply
// the burst model's speed, see burst_credits.h). Jobs on one node run one after another: a job
// started while the node is busy waits for the jobs before it.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>

#include "base/random.h"
#include "sim/cluster/burst_credits.h"
#include "sim/cluster/compute_model.h"
#include "sim/cluster/profile.h"
#include "sim/cluster/speed_schedule.h"
#include "sim/engine/activity.h"
#include "sim/engine/simulator.h"

namespace hermes::cluster {

// What happened to the most recent job (for logs and metrics).
struct JobTiming {
  engine::SimTime start{};
  engine::SimTime end{};
  double full_speed_seconds = 0;  // model time before jitter
  double jitter = 1;              // multiplicative factor drawn for this job
  engine::SimTime work_ns{};      // full_speed_seconds x jitter, rounded to ns
  // (end - start) - work_ns: time lost to the baseline cap and to slowdowns (negative if a
  // speed-up interval made the job faster than its work)
  engine::SimTime throttled_extra_ns{};
};

class NodeCompute final : public engine::ActivityResource<TrainingJob> {
 public:
  // Give each node its own stream, e.g. RandomStream::named(seed, "compute-jitter", node_index).
  // `speed`: the node's slowdown intervals (none: the profile's speed at all times).
  NodeCompute(engine::Simulator& sim, const NodeProfile& profile, RandomStream jitter,
              SpeedSchedule speed = {});

  // Runs `job` from next_start(); its end is known at once (last_job().end), and on_done runs
  // from the simulator event scheduled for it. One jitter draw per job. Negative or non-finite
  // flops / negative steps are std::invalid_argument.
  engine::ActivityId start(const TrainingJob& job, OnDone on_done) override;
  // The node stops now (its worker crashed or was evicted): jobs not ended are dropped (their
  // on_done never runs) and the next job starts from now. `fresh_vm`: the node is a new VM (a
  // re-acquired Spot node), its burst bank back at the profile's initial credits.
  void interrupt(bool fresh_vm);
  // When a job started now would begin: now, or the end of the job still running.
  engine::SimTime next_start() const;

  // Burst credits in the bank at t ("credits left" in CSV output); nullopt if not burstable.
  std::optional<double> credits_at(engine::SimTime t) const;

  const NodeProfile& profile() const { return profile_; }
  const SpeedSchedule& speed() const { return speed_; }
  bool burstable() const { return credits_.has_value(); }
  engine::SimTime busy_until() const { return busy_until_; }
  const JobTiming& last_job() const { return last_job_; }
  std::int64_t jobs_run() const { return jobs_run_; }

 private:
  engine::Simulator* sim_;
  NodeProfile profile_;
  ComputeJitter jitter_model_;
  RandomStream rng_;
  std::optional<BurstCredits> credits_;
  SpeedSchedule speed_;
  engine::SimTime busy_until_{};
  std::deque<engine::EventId> ends_;  // end events of the jobs started, oldest first
  JobTiming last_job_;
  std::int64_t jobs_run_ = 0;
};

}  // namespace hermes::cluster
