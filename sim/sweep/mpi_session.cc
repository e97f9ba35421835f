#include "sim/sweep/mpi_session.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>

#include "base/build_tree.h"
#include "base/diagnostics.h"

#ifdef HERMES_HAVE_MPI
#include <mpi.h>
#endif

namespace hermes::sweep {

namespace {

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::atoi(v) : fallback;
}

}  // namespace

bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"}) {
    if (const char* v = std::getenv(name); v != nullptr && *v != '\0') return true;
  }
  return false;
}

int launched_world_size() { return env_int("OMPI_COMM_WORLD_SIZE", env_int("PMI_SIZE", 1)); }

#ifdef HERMES_HAVE_MPI

std::string mpi_text() {
  // One of the few MPI calls allowed before MPI_Init (MPI 3.0, 8.1.1).
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string library(text, static_cast<std::size_t>(length));
  library = library.substr(0, library.find_first_of(",\n"));  // "Open MPI v4.1.4"
  return library + " (this is " + kMpiBinaryName + ")";
}

void exec_mpi_binary_if_launched(char** /*argv*/) {}

MpiSession::MpiSession() {
  if (!launched_by_mpi()) return;
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  initialised_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &local_size_);
  MPI_Comm_free(&node);
}

MpiSession::~MpiSession() {
  if (initialised_) MPI_Finalize();
}

void MpiSession::on_all_ranks(const std::function<void()>& step) const {
  std::exception_ptr error;
  try {
    step();
  } catch (...) {
    error = std::current_exception();
  }
  if (!initialised_) {
    if (error) std::rethrow_exception(error);
    return;
  }
  const int mine = error ? rank_ : size_;
  int lowest = size_;
  MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (lowest == size_) return;
  if (lowest == rank_) std::rethrow_exception(error);
  throw PeerFailed();
}

std::string MpiSession::broadcast(const std::string& text) const {
  if (!initialised_) return text;
  int length = static_cast<int>(text.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string out = rank_ == 0 ? text : std::string(static_cast<std::size_t>(length), '\0');
  MPI_Bcast(out.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  return out;
}

std::vector<std::string> MpiSession::gather(const std::string& text) const {
  if (!initialised_) return {text};
  const int length = static_cast<int>(text.size());
  std::vector<int> lengths(rank_ == 0 ? static_cast<std::size_t>(size_) : 0);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> offsets(lengths.size(), 0);
  int total = 0;
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    offsets[r] = total;
    total += lengths[r];
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  MPI_Gatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR,
              0, MPI_COMM_WORLD);
  std::vector<std::string> out;
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    out.push_back(
        all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r])));
  }
  return out;
}

#else  // built without MPI: one rank, unless hermes-sim-mpi takes over

namespace {

// <this executable's directory>/hermes-sim-mpi if it is an executable file, else "".
std::string mpi_binary_beside() {
  const std::string dir = executable_dir();
  if (dir.empty()) return "";
  const std::string path = (std::filesystem::path(dir) / kMpiBinaryName).string();
  return ::access(path.c_str(), X_OK) == 0 ? path : "";
}

}  // namespace

std::string mpi_text() {
  const std::string mpi = mpi_binary_beside();
  return mpi.empty() ? std::string("none; no ") + kMpiBinaryName +
                           " beside this binary, so a sweep on more than one mpirun rank is refused"
                     : "none; under mpirun (more than one rank) it runs " + mpi;
}

void exec_mpi_binary_if_launched(char** argv) {
  if (!launched_by_mpi() || launched_world_size() <= 1) return;
  const std::string mpi = mpi_binary_beside();
  if (mpi.empty()) return;
  ::execv(mpi.c_str(), argv);  // returns only if it failed
  std::cerr << "hermes-sim: warning: cannot run " << mpi
            << " for the MPI ranks: " << std::strerror(errno) << '\n';
}

MpiSession::MpiSession() {
  if (launched_by_mpi() && launched_world_size() > 1) {
    throw InputError(std::string("this hermes-sim is built without MPI and found no ") +
                     kMpiBinaryName +
                     " beside it, so it cannot share a sweep between mpirun ranks: install the "
                     "Debian package hermes-sim-mpi (or, in a source tree, install libopenmpi-dev "
                     "and rebuild: CMake then builds build/hermes-sim-mpi too), or run the sweep "
                     "without mpirun");
  }
}

MpiSession::~MpiSession() = default;

void MpiSession::on_all_ranks(const std::function<void()>& step) const { step(); }

std::string MpiSession::broadcast(const std::string& text) const { return text; }

std::vector<std::string> MpiSession::gather(const std::string& text) const { return {text}; }

#endif

}  // namespace hermes::sweep
