#include "sim/parallel/thread_pool.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <stdexcept>
#include <string>
#include <utility>

namespace hermes::parallel {

namespace detail {

enum class TaskStatus { kQueued, kRunning, kDone, kCancelled };

struct TaskState {
  std::function<void()> fn;
  std::int64_t priority = 0;
  std::uint64_t seq = 0;
  TaskKind kind = TaskKind::kOther;
  TaskStatus status = TaskStatus::kQueued;  // guarded by the pool's mutex
  std::exception_ptr error;                 // set before status becomes kDone
};

}  // namespace detail

namespace {

using detail::TaskState;
using detail::TaskStatus;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// CPU time of the calling thread: what a task got of the machine, whoever else runs on it.
double thread_cpu_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Times one call of a task function: {wall, CPU} seconds.
template <typename F>
std::pair<double, double> timed(F&& f) {
  const auto t0 = Clock::now();
  const double c0 = thread_cpu_seconds();
  f();
  return {seconds_since(t0), thread_cpu_seconds() - c0};
}

// std::push_heap builds a max-heap: "less" here means "starts later".
bool starts_later(const std::shared_ptr<TaskState>& a, const std::shared_ptr<TaskState>& b) {
  return a->priority != b->priority ? a->priority > b->priority : a->seq > b->seq;
}

}  // namespace

PoolStats PoolStats::operator-(const PoolStats& earlier) const {
  return {task_seconds - earlier.task_seconds,
          task_cpu_seconds - earlier.task_cpu_seconds,
          caller_task_seconds - earlier.caller_task_seconds,
          wait_seconds - earlier.wait_seconds,
          tasks - earlier.tasks,
          training_seconds - earlier.training_seconds,
          evaluation_seconds - earlier.evaluation_seconds};
}

// ---- Task ----

Task::Task(Task&& other) noexcept
    : pool_(std::exchange(other.pool_, nullptr)), state_(std::move(other.state_)) {}

Task& Task::operator=(Task&& other) noexcept {
  if (this != &other) {
    release();
    pool_ = std::exchange(other.pool_, nullptr);
    state_ = std::move(other.state_);
  }
  return *this;
}

Task::~Task() { release(); }

void Task::release() noexcept {
  if (state_ == nullptr) return;
  // Cannot throw: cancel_or_wait_for swallows the task's exception; a failure to lock the mutex
  // would terminate, which is the right outcome for a pool in that state.
  pool_->cancel_or_wait_for(*state_);
  state_.reset();
  pool_ = nullptr;
}

void Task::wait() {
  if (state_ == nullptr) throw std::logic_error("Task::wait on an empty task");
  const auto state = std::move(state_);
  std::exchange(pool_, nullptr)->wait_for(*state);
  if (state->error) std::rethrow_exception(state->error);
}

bool Task::cancel_or_wait() {
  if (state_ == nullptr) return false;
  const bool cancelled = pool_->cancel_or_wait_for(*state_);
  state_.reset();
  pool_ = nullptr;
  return cancelled;
}

// ---- ThreadPool ----

ThreadPool::ThreadPool(int threads) : threads_(threads) {
  if (threads < 1) {
    throw std::invalid_argument("thread pool: threads must be >= 1, got " +
                                std::to_string(threads));
  }
  workers_.reserve(static_cast<std::size_t>(threads - 1));
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
  {
    const std::lock_guard lock(mu_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (auto& t : workers_) t.join();
}

Task ThreadPool::submit(std::int64_t priority, std::function<void()> fn, TaskKind kind) {
  auto state = std::make_shared<TaskState>();
  if (runs_inline()) {
    run_here(fn, kind);
    state->status = TaskStatus::kDone;
    return Task(this, std::move(state));
  }
  state->fn = std::move(fn);
  state->priority = priority;
  state->kind = kind;
  {
    const std::lock_guard lock(mu_);
    state->seq = next_seq_++;
    queue_.push_back(state);
    std::push_heap(queue_.begin(), queue_.end(), starts_later);
  }
  work_cv_.notify_one();
  return Task(this, std::move(state));
}

void ThreadPool::run_here(const std::function<void()>& fn, TaskKind kind) {
  const auto [wall, cpu] = timed(fn);
  const std::lock_guard lock(mu_);
  count_task(wall, cpu, false, kind);
}

void ThreadPool::count_task(double wall, double cpu, bool on_pool_thread, TaskKind kind) {
  stats_.task_seconds += wall;
  if (kind == TaskKind::kTraining) stats_.training_seconds += wall;
  if (kind == TaskKind::kEvaluation) stats_.evaluation_seconds += wall;
  stats_.task_cpu_seconds += cpu;
  if (!on_pool_thread) stats_.caller_task_seconds += wall;
  ++stats_.tasks;
}

PoolStats ThreadPool::stats() const {
  const std::lock_guard lock(mu_);
  return stats_;
}

std::shared_ptr<TaskState> ThreadPool::claim_next() {
  while (!queue_.empty()) {
    std::pop_heap(queue_.begin(), queue_.end(), starts_later);
    auto task = std::move(queue_.back());
    queue_.pop_back();
    if (task->status == TaskStatus::kQueued) {
      task->status = TaskStatus::kRunning;
      return task;
    }
  }
  return nullptr;
}

void ThreadPool::run_claimed(TaskState& task, bool on_pool_thread) {
  const auto [wall, cpu] = timed([&] {
    try {
      task.fn();
    } catch (...) {
      task.error = std::current_exception();
    }
  });
  task.fn = nullptr;  // frees what the closure held, on the thread that ran it
  {
    const std::lock_guard lock(mu_);
    task.status = TaskStatus::kDone;
    count_task(wall, cpu, on_pool_thread, task.kind);
  }
  done_cv_.notify_all();
}

void ThreadPool::worker_loop() {
  for (;;) {
    std::shared_ptr<TaskState> task;
    {
      std::unique_lock lock(mu_);
      work_cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (stop_) return;
      task = claim_next();
      if (task == nullptr) continue;  // only cancelled entries were left
    }
    run_claimed(*task, true);
  }
}

void ThreadPool::wait_for(TaskState& task) {
  std::unique_lock lock(mu_);
  for (;;) {
    if (task.status == TaskStatus::kDone) return;
    if (task.status == TaskStatus::kQueued) {
      task.status = TaskStatus::kRunning;  // nobody started it: run it here
      lock.unlock();
      run_claimed(task, false);
      return;
    }
    // Running on another thread: help with the queue meanwhile, else sleep until a task ends.
    if (auto other = claim_next()) {
      lock.unlock();
      run_claimed(*other, false);
      lock.lock();
      continue;
    }
    const auto t0 = Clock::now();
    done_cv_.wait(lock);
    stats_.wait_seconds += seconds_since(t0);
  }
}

bool ThreadPool::cancel_or_wait_for(TaskState& task) {
  std::unique_lock lock(mu_);
  if (task.status == TaskStatus::kQueued) {
    task.status = TaskStatus::kCancelled;  // its queue entry is skipped when it surfaces
    task.fn = nullptr;
    return true;
  }
  const auto t0 = Clock::now();
  done_cv_.wait(lock, [&] { return task.status == TaskStatus::kDone; });
  stats_.wait_seconds += seconds_since(t0);
  return false;
}

}  // namespace hermes::parallel
