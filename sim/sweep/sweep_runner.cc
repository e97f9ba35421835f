#include "sim/sweep/sweep_runner.h"

namespace hermes::sweep {

namespace {
// How long the coordinating thread waits for a finished point before it looks at the progress
// line and the stop request (and, under MPI, at messages) again: short enough for a live line and
// a prompt answer to Ctrl-C, long enough to be idle.
constexpr std::chrono::milliseconds kPoll(100);
}  // namespace

void run_points_locally(const std::vector<std::size_t>& todo, std::size_t jobs,
                        const RunPointFn& run, PointEvents& events, const StopFn& stop) {
  PointPool pool(jobs, run);
  std::size_t next = 0;
  const auto handing_out = [&] { return next < todo.size() && !stop(); };
  while (handing_out() || pool.running() > 0) {
    while (handing_out() && pool.has_free_slot()) {
      events.started(todo[next], -1);
      pool.start(todo[next++]);
    }
    if (const auto outcome = pool.next_finished(kPoll)) events.finished(*outcome, -1);
    events.tick();
  }
}

}  // namespace hermes::sweep
