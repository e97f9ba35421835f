// Points running on threads of this process. One thread per running point; the thread that owns
// the pool starts points and collects their outcomes (it alone talks to MPI and writes the
// summary, so the points themselves share nothing but the read-only dataset).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace hermes::sweep {

// Runs point `index` and commits its directory; throws on failure (PointTimedOut: past its
// --point-timeout). Returns how many of its runs were taken from other points' (run_reuse.h).
using RunPointFn = std::function<std::size_t(std::size_t index)>;

struct PointOutcome {
  std::size_t index = 0;
  double wall_s = 0;
  std::string error;            // empty: the point's directory is in place
  bool timed_out = false;       // abandoned at --point-timeout (PointTimedOut); `error` says so
  std::size_t runs_reused = 0;  // runs not computed: equal to runs of other points
  bool ok() const { return error.empty(); }
};

class PointPool {
 public:
  PointPool(std::size_t slots, RunPointFn run);
  ~PointPool();  // waits for the points still running
  PointPool(const PointPool&) = delete;
  PointPool& operator=(const PointPool&) = delete;

  std::size_t running() const { return threads_.size(); }  // started, outcome not collected
  bool has_free_slot() const { return running() < slots_; }
  void start(std::size_t index);
  // The outcome of a finished point, waiting up to `timeout` for one; nullopt if none came.
  std::optional<PointOutcome> next_finished(std::chrono::milliseconds timeout);

 private:
  std::size_t slots_;
  RunPointFn run_;
  std::map<std::size_t, std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<PointOutcome> finished_;  // guarded by mutex_
};

}  // namespace hermes::sweep
