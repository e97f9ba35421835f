#include "sim/sweep/point_pool.h"

#include <exception>

#include "sim/sweep/point_deadline.h"

namespace hermes::sweep {

PointPool::PointPool(std::size_t slots, RunPointFn run)
    : slots_(slots > 0 ? slots : 1), run_(std::move(run)) {}

PointPool::~PointPool() {
  for (auto& [index, thread] : threads_) thread.join();
}

void PointPool::start(std::size_t index) {
  threads_.emplace(
      index, std::thread([this, index] {
        const auto t0 = std::chrono::steady_clock::now();
        PointOutcome outcome;
        outcome.index = index;
        try {
          outcome.runs_reused = run_(index);
        } catch (const PointTimedOut& e) {
          outcome.error = e.what();
          outcome.timed_out = true;
        } catch (const std::exception& e) {
          outcome.error = e.what();
          if (outcome.error.empty()) outcome.error = "unknown error";
        } catch (...) {
          outcome.error = "unknown error";
        }
        outcome.wall_s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        {
          std::lock_guard lock(mutex_);
          finished_.push_back(std::move(outcome));
        }
        cv_.notify_all();
      }));
}

std::optional<PointOutcome> PointPool::next_finished(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  if (!cv_.wait_for(lock, timeout, [this] { return !finished_.empty(); })) return std::nullopt;
  PointOutcome outcome = std::move(finished_.front());
  finished_.pop_front();
  lock.unlock();
  const auto it = threads_.find(outcome.index);
  it->second.join();
  threads_.erase(it);
  return outcome;
}

}  // namespace hermes::sweep
