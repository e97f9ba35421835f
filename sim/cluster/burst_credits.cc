#include "sim/cluster/burst_credits.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>

namespace hermes::cluster {
namespace {

// Percent-of-a-vCPU nanoseconds in one credit: 100% for one minute.
constexpr double kPctNsPerCredit = 100.0 * 60.0 * 1e9;

engine::SimTime round_duration(double ns) {
  if (!(ns >= 0) || ns > 9.0e18) {
    throw std::domain_error("burst credits: duration out of range: " + std::to_string(ns) + " ns");
  }
  return engine::SimTime::nanoseconds(std::llround(ns));
}

}  // namespace

BurstCredits::BurstCredits(const BurstSpec& spec, int vcpus) : spec_(spec), vcpus_(vcpus) {
  if (vcpus < 1 || !(spec.baseline_pct > 0) || spec.baseline_pct > 100.0 * vcpus ||
      !(spec.max_credits >= 0) || !(spec.initial_credits >= 0) ||
      spec.initial_credits > spec.max_credits) {
    throw std::invalid_argument(
        "BurstCredits: need vcpus >= 1, 0 < baseline_pct <= 100 x vcpus and "
        "0 <= initial_credits <= max_credits");
  }
  idle_gain_per_ns_ = spec.baseline_pct / kPctNsPerCredit;
  job_drain_per_ns_ = (100.0 * vcpus - spec.baseline_pct) / kPctNsPerCredit;
}

double BurstCredits::idle_accrual(double credits, engine::SimTime from, engine::SimTime to) const {
  return std::min(spec_.max_credits,
                  credits + idle_gain_per_ns_ * static_cast<double>((to - from).ns()));
}

double BurstCredits::depletion_ns(double credits) const {
  // Full speed until the bank would go negative: credits / drain nanoseconds. Written as
  // credits x 100 x 6e10 / (100 x vcpus - baseline) so Azure's round numbers stay exact
  // (B1ms: 30 x 6e12 / 80 = 2.25e12 ns = 37.5 min).
  const double drain_pct = 100.0 * vcpus_ - spec_.baseline_pct;
  return drain_pct > 0 ? credits * kPctNsPerCredit / drain_pct
                       : std::numeric_limits<double>::infinity();
}

BurstCredits::JobRecord BurstCredits::plan(engine::SimTime start, engine::SimTime work) const {
  JobRecord job{};
  job.start = start;
  job.credits_at_start = credits_at(start);
  const double depletion = depletion_ns(job.credits_at_start);
  if (depletion >= static_cast<double>(work.ns())) {
    job.full_until = start + work;
    job.end = job.full_until;
    job.credits_at_end =
        std::max(0.0, job.credits_at_start - job_drain_per_ns_ * static_cast<double>(work.ns()));
  } else {
    const engine::SimTime full = std::min(work, round_duration(depletion));
    // The rest of the work at baseline speed: remaining x (100 x vcpus / baseline).
    const engine::SimTime throttled = round_duration(static_cast<double>((work - full).ns()) *
                                                     (100.0 * vcpus_ / spec_.baseline_pct));
    job.full_until = start + full;
    job.end = job.full_until + throttled;
    job.credits_at_end = 0.0;
  }
  return job;
}

BurstCredits::JobRecord BurstCredits::plan_slowed(engine::SimTime start, engine::SimTime work,
                                                  const SpeedSchedule& speed) const {
  JobRecord job{};
  job.start = start;
  job.credits_at_start = credits_at(start);
  const double depletion = depletion_ns(job.credits_at_start);
  const double work_ns = static_cast<double>(work.ns());
  // As if the bank never ran out: speed factor(t) x 1. Credits drain by wall-clock busy time,
  // so the bank runs out `depletion` ns after the start whatever the slowdowns.
  const engine::SimTime unthrottled_end = speed.finish(start, work_ns, 1.0);
  if (depletion >= static_cast<double>((unthrottled_end - start).ns())) {
    job.full_until = unthrottled_end;
    job.end = unthrottled_end;
    job.credits_at_end =
        std::max(0.0, job.credits_at_start -
                          job_drain_per_ns_ * static_cast<double>((job.end - start).ns()));
    return job;
  }
  job.full_until = start + round_duration(depletion);
  const double left = std::max(0.0, work_ns - speed.work_between(start, job.full_until, 1.0));
  job.end = speed.finish(job.full_until, left, throttled_speed());
  job.credits_at_end = 0.0;
  return job;
}

engine::SimTime BurstCredits::run(engine::SimTime start, engine::SimTime work) {
  return run(start, work, SpeedSchedule{});
}

engine::SimTime BurstCredits::run(engine::SimTime start, engine::SimTime work,
                                  const SpeedSchedule& speed) {
  if (work < engine::SimTime{}) throw std::invalid_argument("BurstCredits::run: negative work");
  if (start < busy_until() || start < engine::SimTime{}) {
    throw std::logic_error("BurstCredits::run: job starts at " + std::to_string(start.ns()) +
                           " ns, before the previous job ends (" +
                           std::to_string(busy_until().ns()) + " ns)");
  }
  // The plain plan first: if no slowdown touches its span, it is the job (byte-identical to a
  // run without slowdowns); otherwise the span is recomputed across the slowdowns.
  JobRecord job = plan(start, work);
  if (speed.overlaps(job.start, job.end)) job = plan_slowed(start, work, speed);
  jobs_.push_back(job);
  return job.end;
}

double BurstCredits::credits_at(engine::SimTime t) const {
  if (t < engine::SimTime{}) throw std::invalid_argument("BurstCredits::credits_at: negative time");
  // Last job that started at or before t.
  const auto it =
      std::upper_bound(jobs_.begin(), jobs_.end(), t,
                       [](engine::SimTime x, const JobRecord& j) { return x < j.start; });
  if (it == jobs_.begin()) return idle_accrual(spec_.initial_credits, engine::SimTime{}, t);
  const JobRecord& job = *std::prev(it);
  if (t >= job.end) return idle_accrual(job.credits_at_end, job.end, t);
  if (t >= job.full_until) return 0.0;
  return std::max(
      0.0, job.credits_at_start - job_drain_per_ns_ * static_cast<double>((t - job.start).ns()));
}

void BurstCredits::interrupt(engine::SimTime at, std::optional<double> fresh_credits) {
  if (!jobs_.empty() && at < jobs_.back().start) {
    throw std::logic_error("BurstCredits::interrupt: at " + std::to_string(at.ns()) +
                           " ns, before the last job's start");
  }
  const double held = credits_at(at);  // as the job planned so far has it
  if (!jobs_.empty() && jobs_.back().end > at) {
    JobRecord& cut = jobs_.back();
    cut.end = at;
    cut.full_until = std::min(cut.full_until, at);
    cut.credits_at_end = held;
  }
  const double credits = fresh_credits.value_or(held);
  // A zero-length record carries the bank from `at` on (credits_at reads the last record).
  jobs_.push_back({at, at, at, credits, credits});
}

}  // namespace hermes::cluster
