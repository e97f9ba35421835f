// MPI for `hermes-sim sweep`, used only when the process was started by an MPI launcher
// (mpirun / mpiexec / srun set OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK): otherwise no MPI
// function is ever called, so a plain invocation (and every other command) neither waits for nor
// depends on an MPI runtime. Built with MPI when CMake finds it (HERMES_HAVE_MPI).
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace hermes::sweep {

// Whether the environment says an MPI launcher started this process.
bool launched_by_mpi();

// Thrown on the ranks where a step did not fail, when it failed on another rank (which reports
// the error): they exit quietly with a failure status.
class PeerFailed : public std::runtime_error {
 public:
  PeerFailed() : std::runtime_error("failed on another MPI rank") {}
};

class MpiSession {
 public:
  // Initialises MPI (MPI_THREAD_FUNNELED: only the main thread calls MPI) if launched_by_mpi().
  // Throws InputError if launched with several ranks by a binary built without MPI.
  MpiSession();
  ~MpiSession();  // MPI_Finalize if initialised
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  bool distributed() const { return size_ > 1; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  int ranks_on_this_node() const { return local_size_; }

  // Runs `step` on every rank (each its own); if it threw anywhere, the lowest rank where it threw
  // rethrows its exception and every other rank throws PeerFailed. Without MPI: just step().
  void on_all_ranks(const std::function<void()>& step) const;

  // Rank 0's `text` on every rank.
  std::string broadcast(const std::string& text) const;

  // On rank 0: every rank's `text`, indexed by rank; on the other ranks: empty. Without MPI:
  // {text}.
  std::vector<std::string> gather(const std::string& text) const;

 private:
  bool initialised_ = false;
  int rank_ = 0;
  int size_ = 1;
  int local_size_ = 1;
};

}  // namespace hermes::sweep
