#include "sim/parallel/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace hermes::parallel {
namespace {

// A task that signals when it has started and then blocks until released: keeps the pool's one
// thread busy so that the test decides who runs what, without timing.
struct Blocker {
  std::promise<void> started;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::function<void()> fn() {
    return [this] {
      started.set_value();
      released.wait();
    };
  }
};

TEST(ThreadPool, RejectsFewerThanOneThread) {
  EXPECT_THROW(ThreadPool(0), std::invalid_argument);
  EXPECT_THROW(ThreadPool(-3), std::invalid_argument);
}

TEST(ThreadPool, OneThreadRunsEveryTaskInsideSubmit) {
  ThreadPool pool(1);
  EXPECT_TRUE(pool.runs_inline());
  int x = 0;
  Task t = pool.submit(5, [&] { x = 42; });
  EXPECT_EQ(x, 42);  // already ran
  EXPECT_TRUE(t.valid());
  t.wait();  // returns at once
  EXPECT_FALSE(t.valid());
  EXPECT_THROW(pool.submit(0, [] { throw std::runtime_error("boom"); }), std::runtime_error);
  EXPECT_EQ(pool.stats().tasks, 1);  // the throwing task is not counted as run
  EXPECT_EQ(pool.stats().caller_task_seconds, pool.stats().task_seconds);  // all on this thread
}

TEST(ThreadPool, EveryTaskRunsOnceAndResultsAreThere) {
  for (int threads : {2, 3, 4}) {
    ThreadPool pool(threads);
    std::vector<long> out(200, -1);
    std::vector<Task> tasks;
    for (std::size_t i = 0; i < out.size(); ++i) {
      tasks.push_back(pool.submit(static_cast<std::int64_t>(i % 7), [&out, i] {
        long s = 0;
        for (long k = 0; k <= static_cast<long>(i) * 100; ++k) s += k;
        out[i] = s;
      }));
    }
    // Wait in reverse order: the waiter runs the ones nobody has started.
    for (auto it = tasks.rbegin(); it != tasks.rend(); ++it) {
      it->wait();
      EXPECT_FALSE(it->valid());
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
      const long n = static_cast<long>(i) * 100;
      EXPECT_EQ(out[i], n * (n + 1) / 2) << i;
    }
    EXPECT_EQ(pool.stats().tasks, 200);
    EXPECT_GE(pool.stats().task_seconds, 0.0);
  }
}

TEST(ThreadPool, WaitRethrowsTheTaskException) {
  ThreadPool pool(2);
  Task t = pool.submit(0, [] { throw std::runtime_error("bad chunk"); });
  try {
    t.wait();
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "bad chunk");
  }
  EXPECT_FALSE(t.valid());
  EXPECT_THROW(t.wait(), std::logic_error);  // empty handle
}

TEST(ThreadPool, QueuedTaskCanBeCancelledAndNeverRuns) {
  ThreadPool pool(2);  // one pool thread
  Blocker block;
  Task a = pool.submit(0, block.fn());
  block.started.get_future().wait();  // the pool thread is inside a
  std::atomic<bool> ran{false};
  Task b = pool.submit(1, [&] { ran = true; });
  EXPECT_TRUE(b.cancel_or_wait());
  EXPECT_FALSE(b.valid());
  {
    Task c = pool.submit(2, [&] { ran = true; });
  }  // destroyed while queued: cancelled
  block.release.set_value();
  EXPECT_FALSE(a.cancel_or_wait());  // running: waited for
  EXPECT_FALSE(ran);
}

TEST(ThreadPool, WaiterRunsQueuedTasksByPriorityWhileItsOwnRunsElsewhere) {
  ThreadPool pool(2);
  Blocker block;
  Task a = pool.submit(0, block.fn());
  block.started.get_future().wait();
  std::vector<char> order;  // only the waiting (main) thread appends: the pool thread is in a
  std::vector<Task> queued;
  queued.push_back(pool.submit(5, [&] {
    order.push_back('B');
    block.release.set_value();  // the last one lets a finish
  }));
  queued.push_back(pool.submit(1, [&] { order.push_back('C'); }));
  queued.push_back(pool.submit(3, [&] { order.push_back('D'); }));
  queued.push_back(pool.submit(1, [&] { order.push_back('E'); }));
  a.wait();  // a runs on the pool thread: the waiter works through the queue meanwhile
  EXPECT_EQ(std::string(order.begin(), order.end()), "CEDB");
  for (auto& t : queued) t.wait();  // already done
  EXPECT_EQ(pool.stats().tasks, 5);
}

TEST(ThreadPool, WaiterRunsItsOwnTaskIfNobodyStartedIt) {
  ThreadPool pool(2);
  Blocker block;
  Task a = pool.submit(0, block.fn());
  block.started.get_future().wait();
  const auto me = std::this_thread::get_id();
  std::thread::id ran_on;
  Task b = pool.submit(9, [&] { ran_on = std::this_thread::get_id(); });
  b.wait();
  EXPECT_EQ(ran_on, me);
  block.release.set_value();
  a.wait();
}

// Each task's time goes to its kind, on the pool's threads, inline and through run_here.
TEST(ThreadPool, StatsSplitTaskTimeByKind) {
  const auto spin = [] {
    volatile double x = 0;
    for (int i = 0; i < 200000; ++i) x = x + 1e-9 * i;
  };
  for (const int threads : {1, 2}) {
    ThreadPool pool(threads);
    Task t = pool.submit(0, spin, TaskKind::kTraining);
    t.wait();
    pool.run_here(spin, TaskKind::kEvaluation);
    const PoolStats after_two = pool.stats();
    EXPECT_GT(after_two.training_seconds, 0.0);
    EXPECT_GT(after_two.evaluation_seconds, 0.0);
    EXPECT_DOUBLE_EQ(after_two.training_seconds + after_two.evaluation_seconds,
                     after_two.task_seconds);
    pool.run_here(spin);  // kOther: in task_seconds only
    const PoolStats d = pool.stats() - after_two;
    EXPECT_GT(d.task_seconds, 0.0);
    EXPECT_EQ(d.training_seconds, 0.0);
    EXPECT_EQ(d.evaluation_seconds, 0.0);
  }
}

TEST(ThreadPool, StatsSubtract) {
  const PoolStats a{3.0, 2.5, 2.0, 1.0, 7, 1.5, 1.25}, b{1.0, 1.0, 0.5, 0.5, 2, 0.5, 0.25};
  const PoolStats d = a - b;
  EXPECT_DOUBLE_EQ(d.training_seconds, 1.0);
  EXPECT_DOUBLE_EQ(d.evaluation_seconds, 1.0);
  EXPECT_DOUBLE_EQ(d.task_seconds, 2.0);
  EXPECT_DOUBLE_EQ(d.task_cpu_seconds, 1.5);
  EXPECT_DOUBLE_EQ(d.caller_task_seconds, 1.5);
  EXPECT_DOUBLE_EQ(d.wait_seconds, 0.5);
  EXPECT_EQ(d.tasks, 5);
}

}  // namespace
}  // namespace hermes::parallel
