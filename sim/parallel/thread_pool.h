// A small fixed-size thread pool for the simulator's math (worker iterations, PS evaluations).
//
// The simulation itself stays on one thread; it hands independent pieces of math to the pool when
// their simulated activity starts and waits for each when the activity's completion event fires.
// `threads` counts every thread that runs tasks, the caller's included: the pool starts
// threads - 1 threads of its own, and a caller blocked in Task::wait() runs queued tasks itself
// (first the one it waits for, if nobody has started it). threads == 1 starts no thread at all:
// submit() runs the task at once on the caller's thread, exactly like a plain function call.
//
// Tasks start in order of a priority the caller gives (lower first; the simulator passes the
// simulated time at which the result is needed), ties in submission order. Scheduling only changes
// when a task runs, never what it computes: tasks must not share mutable state.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace hermes::parallel {

class ThreadPool;

// What a task computes, for PoolStats: a worker's training steps, an evaluation of a model on
// the test set, or anything else.
enum class TaskKind : std::uint8_t { kTraining, kEvaluation, kOther };

namespace detail {
struct TaskState;
}

// Handle of one submitted task. Move-only. A handle that is destroyed or reassigned while its task
// is still pending cancels it if it has not started, else waits for it: a task never outlives the
// handle that guards the data it uses.
class Task {
 public:
  Task() = default;
  Task(Task&& other) noexcept;
  Task& operator=(Task&& other) noexcept;
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;
  ~Task();

  // True from submit() until wait() or cancel_or_wait() returns.
  bool valid() const { return state_ != nullptr; }
  // Blocks until the task has run (running it here if no thread has started it yet, and other
  // queued tasks while it runs elsewhere), then rethrows the task's exception, if any. Afterwards
  // the handle is empty.
  void wait();
  // Drops the task if it has not started (returns true); otherwise waits for it, swallowing its
  // exception (returns false). Afterwards the handle is empty.
  bool cancel_or_wait();

 private:
  friend class ThreadPool;
  Task(ThreadPool* pool, std::shared_ptr<detail::TaskState> state)
      : pool_(pool), state_(std::move(state)) {}
  void release() noexcept;

  ThreadPool* pool_ = nullptr;
  std::shared_ptr<detail::TaskState> state_;
};

// Where the time went since the pool was made (seconds).
struct PoolStats {
  double task_seconds = 0;         // wall time inside task functions, summed over all threads
  double task_cpu_seconds = 0;     // CPU time of the threads inside task functions
  double caller_task_seconds = 0;  // part of task_seconds on callers' threads (not the pool's)
  double wait_seconds = 0;  // callers of Task::wait() blocked while no task was theirs to run
  std::int64_t tasks = 0;   // tasks run (cancelled ones are not)
  // Parts of task_seconds by TaskKind (the rest is kOther).
  double training_seconds = 0;
  double evaluation_seconds = 0;
  PoolStats operator-(const PoolStats& earlier) const;
};

class ThreadPool {
 public:
  // threads >= 1 (std::invalid_argument otherwise).
  explicit ThreadPool(int threads);
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;
  // Joins the pool's threads once they finish the task each is running; queued tasks are dropped.
  // Every handle of the pool's tasks must be gone or empty by then.
  ~ThreadPool();

  int threads() const { return threads_; }
  // threads == 1: every task runs inside submit().
  bool runs_inline() const { return threads_ == 1; }

  // Queues fn (lower priority starts first). When the pool runs inline, fn runs here and now, its
  // exception propagates from submit(), and the task returned is already done.
  Task submit(std::int64_t priority, std::function<void()> fn, TaskKind kind = TaskKind::kOther);
  // Runs fn on the calling thread now, counted as task time (math the simulation thread must do
  // itself).
  void run_here(const std::function<void()>& fn, TaskKind kind = TaskKind::kOther);

  PoolStats stats() const;

 private:
  friend class Task;
  void worker_loop();
  // Runs a task claimed (state kRunning) by a pool thread or a caller and marks it done. Called
  // without mu_.
  void run_claimed(detail::TaskState& task, bool on_pool_thread);
  // Adds one task's times to stats_. Needs mu_ held.
  void count_task(double wall, double cpu, bool on_pool_thread, TaskKind kind);
  // The next queued task by priority, claimed (kRunning), or null. Needs mu_ held.
  std::shared_ptr<detail::TaskState> claim_next();
  void wait_for(detail::TaskState& task);
  bool cancel_or_wait_for(detail::TaskState& task);

  const int threads_;
  mutable std::mutex mu_;
  std::condition_variable work_cv_;  // pool threads: a task was queued, or stop
  std::condition_variable done_cv_;  // waiters: a task finished
  // Min-heap by (priority, sequence); entries whose task was claimed or cancelled are skipped.
  std::vector<std::shared_ptr<detail::TaskState>> queue_;
  std::uint64_t next_seq_ = 0;
  bool stop_ = false;
  PoolStats stats_;
  std::vector<std::thread> workers_;
};

}  // namespace hermes::parallel
