// Azure B-series CPU credits, exactly in simulated time.
//
// Azure's definition: a credit is one vCPU at 100% for one minute. The bank changes at
// (baseline_pct - usage_pct) / 100 credits per minute, both in % of one vCPU summed over the VM,
// is capped at max_credits and starts at initial_credits. A training job uses every vCPU at 100%
// while credits last; with none left the VM is held at its baseline, so the job progresses at
// baseline_pct / (100 x vcpus) of full speed and the bank stays at 0. Between jobs the VM idles
// and banks its baseline.
//
// Times are integer nanoseconds (SimTime). Each job's end is computed from its own start with at
// most two roundings (depletion instant, throttled remainder), never by summing doubles, so long
// runs do not drift. Credits are a function of time, piecewise linear, recomputed from the last
// job record.
//
// Slowdowns (speed_schedule.h) compose multiplicatively: a job progresses at factor(t) x the speed
// this model gives at t (1 while credits last, the baseline fraction after). Credits are charged
// by busy wall-clock time, as Azure meters them: the guest keeps its vCPUs at 100% however slowly
// the host serves them, so a slowed job drains credits for longer and may run out mid-job.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/cluster/profile.h"
#include "sim/cluster/speed_schedule.h"
#include "sim/engine/sim_time.h"

namespace hermes::cluster {

class BurstCredits {
 public:
  // Throws std::invalid_argument unless 0 < baseline_pct <= 100 x vcpus, vcpus >= 1 and
  // 0 <= initial_credits <= max_credits.
  BurstCredits(const BurstSpec& spec, int vcpus);

  // Runs a job needing `work` nanoseconds at full speed from `start`; returns when it ends.
  // Jobs are sequential: start before the previous job's end is a std::logic_error.
  engine::SimTime run(engine::SimTime start, engine::SimTime work);
  // Same, at factor(t) x the burst speed. A job that no slowdown interval touches ends exactly
  // where run(start, work) would end it.
  engine::SimTime run(engine::SimTime start, engine::SimTime work, const SpeedSchedule& speed);

  // The node stops at `at` (>= the start of the last job): a job running then ends there, unpaid
  // work and all, and the bank holds what it had at `at`, or `fresh_credits` (a new VM's
  // initial credits) if given. Later jobs start from `at` on.
  void interrupt(engine::SimTime at, std::optional<double> fresh_credits = std::nullopt);

  // Credits in the bank at time t >= 0 (any time: during or between past jobs, or later).
  double credits_at(engine::SimTime t) const;

  // End of the last job (0 before any job).
  engine::SimTime busy_until() const {
    return jobs_.empty() ? engine::SimTime{} : jobs_.back().end;
  }

  // Fraction of full speed once the bank is empty: baseline_pct / (100 x vcpus).
  double throttled_speed() const { return spec_.baseline_pct / (100.0 * vcpus_); }

  const BurstSpec& spec() const { return spec_; }

 private:
  struct JobRecord {
    engine::SimTime start;
    engine::SimTime full_until;  // credits ran out here (== end if they never did)
    engine::SimTime end;
    double credits_at_start;
    double credits_at_end;
  };
  // The job as run() without slowdowns would record it (no side effect).
  JobRecord plan(engine::SimTime start, engine::SimTime work) const;
  // The job across the slowdowns of `speed` (called only when one intersects the plain plan).
  JobRecord plan_slowed(engine::SimTime start, engine::SimTime work,
                        const SpeedSchedule& speed) const;
  // Nanoseconds of full-speed running the bank `credits` pays for: +inf if it never drains.
  double depletion_ns(double credits) const;
  // Credits after idling from `from` (holding `credits`) to `to`, capped.
  double idle_accrual(double credits, engine::SimTime from, engine::SimTime to) const;

  BurstSpec spec_;
  int vcpus_;
  // Rates in credits per nanosecond: 1 credit/min = 100 %-of-a-vCPU for 6e10 ns.
  double idle_gain_per_ns_;      // baseline / (100 x 6e10)
  double job_drain_per_ns_;      // (100 x vcpus - baseline) / (100 x 6e10), >= 0
  std::vector<JobRecord> jobs_;  // one per job, for credits_at at any past time
};

}  // namespace hermes::cluster
