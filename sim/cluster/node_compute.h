// One simulated node's compute side: the profile's compute-time model, its seeded jitter and, for
// B-series nodes, the burst-credit bank, and the node's slowdowns (speed_schedule.h; they multiply
// the burst model's speed, see burst_credits.h). Jobs on one node run one after another: a job
// started while the node is busy waits for the jobs before it. The node can be turned off (its
// worker crashed or was evicted, or the PS failed) and on again: its jobs then end as failed
// (engine/activity.h).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
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

  NodeCompute(NodeCompute&&) noexcept = default;
  NodeCompute& operator=(NodeCompute&&) noexcept = default;
  // Not copyable: a copy would share the jobs whose end events are pending.
  NodeCompute(const NodeCompute&) = delete;
  NodeCompute& operator=(const NodeCompute&) = delete;

  // Runs `job` from next_start(); its end is known at once (last_job().end), and on_end(kDone)
  // runs from the simulator event scheduled for it. One jitter draw per job. Negative or
  // non-finite flops / negative steps are std::invalid_argument. On a node that is off the job
  // runs nothing (no jitter draw, last_job() unchanged) and fails at once (on_end(kFailed) from an
  // event now).
  engine::ActivityId start(const TrainingJob& job, OnEnd on_end) override;

  // The node goes now (its worker crashed or was evicted): every job not ended fails (fail_all)
  // and jobs started until turn_on fail at their start. Turning off a node that is off is a
  // std::logic_error.
  void turn_off();
  // The node is back now: jobs start from now on. `fresh_vm`: it is a new VM (a re-acquired Spot
  // node), its burst bank back at the profile's initial credits; otherwise the bank kept what it
  // had when the node went and has banked its baseline since. Turning on a node that is on is a
  // std::logic_error.
  void turn_on(bool fresh_vm);
  // Every job not ended ends now as failed, the node staying on: the process it ran for gave its
  // work up (the PS it worked for failed). The job running stops here, its burst credits charged
  // up to now (BurstCredits::interrupt), and the next job starts from now. The callbacks run from
  // one simulator event scheduled now, in start order.
  void fail_all();
  bool on() const { return on_; }
  // Whether job `id` has started and not ended yet (it runs, or waits for the jobs before it).
  bool in_progress(engine::ActivityId id) const;

  // When a job started now would begin: now, or the end of the job still running.
  engine::SimTime next_start() const;

  // Burst credits in the bank at t ("credits left" in CSV output); nullopt if not burstable.
  std::optional<double> credits_at(engine::SimTime t) const;

  const NodeProfile& profile() const { return profile_; }
  const SpeedSchedule& speed() const { return speed_; }
  bool burstable() const { return credits_.has_value(); }
  engine::SimTime busy_until() const { return busy_until_; }
  const JobTiming& last_job() const { return last_job_; }
  // Jobs started (run or failed at their start): the latest ActivityId.
  std::int64_t jobs_run() const { return jobs_run_; }

 private:
  engine::Simulator* sim_;
  NodeProfile profile_;
  ComputeJitter jitter_model_;
  RandomStream rng_;
  std::optional<BurstCredits> credits_;
  SpeedSchedule speed_;
  engine::SimTime busy_until_{};
  // A job that has not ended: its end event and what runs when it ends.
  struct Pending {
    engine::ActivityId id = 0;
    engine::EventId end;
    OnEnd on_end;
  };
  // The jobs not ended, oldest first: jobs end in start order (one after another, and events of
  // one instant fire in scheduling order), so the end event that fires is always the front's.
  // Shared with those events rather than reached through `this`, so that a node may move (a
  // vector of nodes) while its jobs run.
  std::shared_ptr<std::deque<Pending>> pending_ = std::make_shared<std::deque<Pending>>();
  bool on_ = true;
  JobTiming last_job_;
  std::int64_t jobs_run_ = 0;
};

}  // namespace hermes::cluster
