// Handing out a sweep's points to whoever runs them: threads of this process, or under MPI the
// ranks, which ask rank 0 for one point index at a time whenever they have a free thread (rank 0
// runs points on its own threads as well). Every rank writes the directories of its points itself
// (DIR must be on a file system all ranks share); rank 0 alone writes the summary.
#pragma once

#include <cstddef>
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

// Runs the points `todo` (indices, in this order) on `jobs` threads, reporting to `events`.
void run_points_locally(const std::vector<std::size_t>& todo, std::size_t jobs,
                        const RunPointFn& run, PointEvents& events);

// The same across the ranks of `mpi`, `jobs` threads each. On rank 0 `todo` is the work and
// `events` is used; other ranks ignore both (pass an empty list and nullptr).
void run_points_on_ranks(const MpiSession& mpi, const std::vector<std::size_t>& todo,
                         std::size_t jobs, const RunPointFn& run, PointEvents* events);

}  // namespace hermes::sweep
