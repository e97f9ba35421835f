// MPI for `hermes-sim sweep`, used only when the process was started by an MPI launcher
// (mpirun / mpiexec / srun set OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK): otherwise no MPI
// function is ever called, so a plain invocation (and every other command) neither waits for nor
// depends on an MPI runtime.
//
// Two builds of this file and mpi_runner.cc (CMakeLists.txt): hermes-sim without MPI, so that it
// (and its Debian package) needs no MPI library, and, when CMake finds MPI, hermes-sim-mpi, the
// same program with HERMES_HAVE_MPI, linked to MPI (its own package). `mpirun -n K hermes-sim`
// reaches hermes-sim-mpi through exec_mpi_binary_if_launched().
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace hermes::sweep {

// Whether the environment says an MPI launcher started this process.
bool launched_by_mpi();

// The number of ranks the launcher says it started (OMPI_COMM_WORLD_SIZE, else PMI_SIZE), 1 if
// neither is set.
int launched_world_size();

// The file name of the MPI build, looked for in this executable's directory.
inline constexpr const char* kMpiBinaryName = "hermes-sim-mpi";

// For `--version`: the MPI library of an MPI build ("Open MPI v4.1.4", its own words), or, without
// MPI, whether an MPI launcher would run hermes-sim-mpi beside this binary.
std::string mpi_text();

// In a binary built without MPI, started by an MPI launcher with more than one rank: replaces this
// process with hermes-sim-mpi from the executable's directory (same arguments and environment),
// if it is there; otherwise (or in the MPI build, or without a launcher) returns, and a sweep's
// MpiSession then refuses the ranks. Call before anything is printed or started.
void exec_mpi_binary_if_launched(char** argv);

// Thrown on the ranks where a step did not fail, when it failed on another rank (which reports
// the error): they exit quietly with a failure status.
class PeerFailed : public std::runtime_error {
 public:
  PeerFailed() : std::runtime_error("failed on another MPI rank") {}
};

class MpiSession {
 public:
  // Initialises MPI (MPI_THREAD_FUNNELED: only the main thread calls MPI) if launched_by_mpi().
  // Throws InputError if launched with several ranks by a binary built without MPI (which happens
  // only when hermes-sim-mpi was not beside it: exec_mpi_binary_if_launched).
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
