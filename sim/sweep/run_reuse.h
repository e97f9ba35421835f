// A sweep computes each distinct run once (issue 29): the points of a sweep repeat runs that no
// grid key changes (run_variation.h), and a run's results depend only on its part of the scenario,
// so the points running in this process share the results of equal runs. The point that claims a
// run first computes it; the others take a copy of its results (the files they then write are the
// bytes computing it would give); one that finds the run being computed on another thread goes on
// with its other runs and waits for it last.
//
// Results are kept only while a point still to run in this process needs them. Each process (MPI
// rank) has its own: under MPI a run is computed at most once per rank that meets it, and a
// resumed sweep computes once more the runs of the points it still has to run.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <vector>

#include "sim/sweep/run_variation.h"

namespace hermes::sweep {

enum class RunClaim {
  kReady,    // the results of an equal run were computed: here is a copy
  kCompute,  // this caller computes the run, then calls fulfil (or abandon on failure)
  kBusy,     // another thread is computing it: wait() for it
};

template <class Result>
class RunReuse {
 public:
  // `points`: the points this process may run (each of their runs counts as one use).
  RunReuse(DistinctRuns runs, const std::vector<std::size_t>& points) : runs_(std::move(runs)) {
    for (const std::size_t i : points) {
      for (const std::size_t id : runs_.ids.at(i)) ++uses_[id];
    }
  }

  RunClaim claim(std::size_t point, std::size_t run, std::optional<Result>& out) {
    const std::lock_guard lock(mutex_);
    return claim_locked(id_of(point, run), out);
  }

  // The results of a run claimed with kCompute, for the other points that have it.
  void fulfil(std::size_t point, std::size_t run, const Result& result) {
    const std::lock_guard lock(mutex_);
    const std::size_t id = id_of(point, run);
    Entry& e = entry(id);
    e.computing = false;
    if (--e.uses_left > 0) e.result = result;
    if (e.uses_left == 0) entries_.erase(id);
    cv_.notify_all();
  }

  // A run claimed with kCompute whose computing failed or was abandoned: the next claimant
  // computes it.
  void abandon(std::size_t point, std::size_t run) {
    const std::lock_guard lock(mutex_);
    const std::size_t id = id_of(point, run);
    if (const auto it = entries_.find(id); it != entries_.end()) {
      // The abandoned point's use is gone (a later sweep runs it); the others' remain.
      if (it->second.uses_left > 1) uses_[id] = it->second.uses_left - 1;
      entries_.erase(it);
    }
    cv_.notify_all();
  }

  // After kBusy: waits until the run is computed (kReady) or abandoned by its computer (kCompute:
  // now this caller's), calling `tick` about every 100 ms; `tick` may throw to stop waiting.
  RunClaim wait(std::size_t point, std::size_t run, std::optional<Result>& out,
                const std::function<void()>& tick) {
    const std::size_t id = id_of(point, run);
    std::unique_lock lock(mutex_);
    for (;;) {
      const RunClaim c = claim_locked(id, out);
      if (c != RunClaim::kBusy) return c;
      cv_.wait_for(lock, std::chrono::milliseconds(100));
      if (tick) {
        lock.unlock();
        tick();
        lock.lock();
      }
    }
  }

  // Results handed out so far (kReady), and results held now.
  std::size_t reused() const {
    const std::lock_guard lock(mutex_);
    return reused_;
  }
  std::size_t held() const {
    const std::lock_guard lock(mutex_);
    std::size_t n = 0;
    for (const auto& [id, e] : entries_) n += e.result ? 1 : 0;
    return n;
  }

 private:
  struct Entry {
    bool computing = true;
    std::size_t uses_left = 0;
    std::optional<Result> result;
  };

  std::size_t id_of(std::size_t point, std::size_t run) const {
    return runs_.ids.at(point).at(run);
  }
  Entry& entry(std::size_t id) {
    const auto it = entries_.find(id);
    if (it == entries_.end()) throw std::logic_error("RunReuse: a run fulfilled without a claim");
    return it->second;
  }

  RunClaim claim_locked(std::size_t id, std::optional<Result>& out) {
    const auto it = entries_.find(id);
    if (it == entries_.end()) {
      // Each use left is one claim still to come, this one included. A run that is claimed more
      // often than its points predicted (a point run twice) is simply computed again.
      const auto uses = uses_.find(id);
      const std::size_t left = uses == uses_.end() ? 1 : uses->second;
      if (uses != uses_.end()) uses_.erase(uses);
      entries_.emplace(id, Entry{true, left, std::nullopt});
      return RunClaim::kCompute;
    }
    Entry& e = it->second;
    if (e.computing) return RunClaim::kBusy;
    out = *e.result;
    ++reused_;
    if (--e.uses_left == 0) entries_.erase(it);
    return RunClaim::kReady;
  }

  DistinctRuns runs_;
  std::map<std::size_t, std::size_t> uses_;  // run id -> claims to come, until first claimed
  std::map<std::size_t, Entry> entries_;     // run id -> being computed or computed
  std::size_t reused_ = 0;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
};

}  // namespace hermes::sweep
