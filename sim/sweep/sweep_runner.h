// Handing out a sweep's points to whoever runs them: threads of this process, or under MPI the
// ranks, which ask rank 0 for one point index at a time whenever they have a free thread (rank 0
// runs points on its own threads as well). Every rank writes the directories of its points itself
// (DIR must be on a file system all ranks share); rank 0 alone writes the summary.
//
// A stop (a first Ctrl-C: interrupt_cleanup.h) ends the handing out: the points running go on to
// their end, then the runners return. Under MPI each rank checks its own `stop`, so a stop acts
// through whichever ranks the signal reached: rank 0 then hands out no more points, another rank
// asks for none.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "sim/sweep/mpi_session.h"
#include "sim/sweep/point_pool.h"

namespace hermes::sweep {

// What the coordinating thread (rank 0's main thread) is told as points start and end.
class PointEvents {
 public:
  virtual ~PointEvents() = default;
  // `rank`: the MPI rank running the point; -1 without MPI.
  virtual void started(std::size_t index, int rank) = 0;
  virtual void finished(const PointOutcome& outcome, int rank) = 0;
  // Called every ~100 ms (20 ms under MPI) while points run.
  virtual void tick() = 0;
};

// Whether to start no more points; asked before each start.
using StopFn = std::function<bool()>;

// Runs the points `todo` (indices, in this order) on `jobs` threads, reporting to `events`, until
// all have run or `stop` says to start no more (the running ones then finish first).
void run_points_locally(const std::vector<std::size_t>& todo, std::size_t jobs,
                        const RunPointFn& run, PointEvents& events, const StopFn& stop);

// The same across the ranks of `mpi`, `jobs` threads each. On rank 0 `todo` is the work and
// `events` is used; other ranks ignore both (pass an empty list and nullptr).
void run_points_on_ranks(const MpiSession& mpi, const std::vector<std::size_t>& todo,
                         std::size_t jobs, const RunPointFn& run, PointEvents* events,
                         const StopFn& stop);

}  // namespace hermes::sweep
