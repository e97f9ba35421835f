// run_points_on_ranks: rank 0 coordinates (and runs points on its own threads), the other ranks
// ask it for work. Messages are tiny and point-to-point; only each rank's main thread calls MPI,
// and it polls (MPI_Iprobe, then waits on its own threads for up to 20 ms) instead of blocking in
// MPI, whose blocking calls spin and would take a core from the points.
//
// Worker -> rank 0 (tag kToCoordinator, 4 doubles {kind, index, wall_s, runs_reused}):
//   kRequest   one free thread: send me a point index
//   kDone      point `index` is written (its directory renamed into place)
//   kFailed    point `index` failed; its error text follows (tag kErrorText, chars)
//   kTimedOut  point `index` was abandoned at --point-timeout; its text follows, as for kFailed
//   kBye       no more work was given (or a stop was asked) and all my points ended
// Rank 0 -> worker (tag kToWorker, 1 long long): a point index, or -1 for "no more points" (also
// the answer once a stop was asked on rank 0). A worker asked to stop sends no more requests; a
// point rank 0 handed out before it heard of the stop still runs.
#include "sim/sweep/sweep_runner.h"

#ifdef HERMES_HAVE_MPI
#include <mpi.h>
#endif

namespace hermes::sweep {

#ifdef HERMES_HAVE_MPI

namespace {

enum Tag { kToCoordinator = 1, kToWorker = 2, kErrorText = 3 };
enum Kind { kRequest = 0, kDone = 1, kFailed = 2, kBye = 3, kTimedOut = 4 };
constexpr std::chrono::milliseconds kLocalWait(20);

void send_to_coordinator(Kind kind, std::size_t index, double wall_s, std::size_t runs_reused = 0) {
  double msg[4] = {static_cast<double>(kind), static_cast<double>(index), wall_s,
                   static_cast<double>(runs_reused)};
  MPI_Send(msg, 4, MPI_DOUBLE, 0, kToCoordinator, MPI_COMM_WORLD);
}

void report(const PointOutcome& o) {
  send_to_coordinator(o.ok()        ? kDone
                      : o.timed_out ? kTimedOut
                                    : kFailed,
                      o.index, o.wall_s, o.runs_reused);
  if (!o.ok()) {
    MPI_Send(o.error.data(), static_cast<int>(o.error.size()), MPI_CHAR, 0, kErrorText,
             MPI_COMM_WORLD);
  }
}

bool message_waiting(int source, int tag, MPI_Status& status) {
  int flag = 0;
  MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, &status);
  return flag != 0;
}

void coordinate(const MpiSession& mpi, const std::vector<std::size_t>& todo, std::size_t jobs,
                const RunPointFn& run, PointEvents& events, const StopFn& stop) {
  PointPool pool(jobs, run);
  std::size_t next = 0;
  int workers = mpi.size() - 1;
  const auto handing_out = [&] { return next < todo.size() && !stop(); };
  while (handing_out() || pool.running() > 0 || workers > 0) {
    while (handing_out() && pool.has_free_slot()) {
      events.started(todo[next], 0);
      pool.start(todo[next++]);
    }
    MPI_Status status;
    while (message_waiting(MPI_ANY_SOURCE, kToCoordinator, status)) {
      const int source = status.MPI_SOURCE;
      double msg[4];
      MPI_Recv(msg, 4, MPI_DOUBLE, source, kToCoordinator, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      const auto kind = static_cast<Kind>(msg[0]);
      PointOutcome outcome{static_cast<std::size_t>(msg[1]), msg[2], {}};
      outcome.runs_reused = static_cast<std::size_t>(msg[3]);
      if (kind == kRequest) {
        long long index = -1;
        if (handing_out()) {
          index = static_cast<long long>(todo[next++]);
          events.started(static_cast<std::size_t>(index), source);
        }
        MPI_Send(&index, 1, MPI_LONG_LONG, source, kToWorker, MPI_COMM_WORLD);
      } else if (kind == kDone) {
        events.finished(outcome, source);
      } else if (kind == kFailed || kind == kTimedOut) {
        outcome.timed_out = kind == kTimedOut;
        MPI_Status text_status;
        MPI_Probe(source, kErrorText, MPI_COMM_WORLD, &text_status);
        int length = 0;
        MPI_Get_count(&text_status, MPI_CHAR, &length);
        outcome.error.assign(static_cast<std::size_t>(length), '\0');
        MPI_Recv(outcome.error.data(), length, MPI_CHAR, source, kErrorText, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        events.finished(outcome, source);
      } else {
        --workers;
      }
    }
    while (const auto outcome = pool.next_finished(kLocalWait)) events.finished(*outcome, 0);
    events.tick();
  }
}

void work(std::size_t jobs, const RunPointFn& run, const StopFn& stop) {
  PointPool pool(jobs, run);
  bool asked = false, no_more = false;
  while (!no_more || asked || pool.running() > 0) {
    if (!asked && stop()) no_more = true;
    if (!no_more && !asked && pool.has_free_slot()) {
      send_to_coordinator(kRequest, 0, 0);
      asked = true;
    }
    MPI_Status status;
    if (asked && message_waiting(0, kToWorker, status)) {
      long long index = -1;
      MPI_Recv(&index, 1, MPI_LONG_LONG, 0, kToWorker, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      asked = false;
      if (index < 0) {
        no_more = true;
      } else {
        pool.start(static_cast<std::size_t>(index));
      }
      continue;
    }
    if (const auto outcome = pool.next_finished(kLocalWait)) {
      report(*outcome);
    }
  }
  send_to_coordinator(kBye, 0, 0);
}

}  // namespace

void run_points_on_ranks(const MpiSession& mpi, const std::vector<std::size_t>& todo,
                         std::size_t jobs, const RunPointFn& run, PointEvents* events,
                         const StopFn& stop) {
  if (!mpi.distributed()) {
    run_points_locally(todo, jobs, run, *events, stop);
  } else if (mpi.rank() == 0) {
    coordinate(mpi, todo, jobs, run, *events, stop);
  } else {
    work(jobs, run, stop);
  }
}

#else

void run_points_on_ranks(const MpiSession& /*mpi*/, const std::vector<std::size_t>& todo,
                         std::size_t jobs, const RunPointFn& run, PointEvents* events,
                         const StopFn& stop) {
  run_points_locally(todo, jobs, run, *events, stop);  // one rank: MpiSession refused more
}

#endif

}  // namespace hermes::sweep
