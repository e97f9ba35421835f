// hermes-sim is built without MPI (its Debian package needs no MPI library); an MPI launcher that
// starts it with more than one rank gets hermes-sim-mpi, the same program built with MPI, from its
// directory (sim/sweep/mpi_session.h); without that sibling, a sweep on several ranks is refused
// naming the package. No source path is compiled in: a copy of the binary outside its build
// directory finds no source tree, only HERMES_HOME.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/support/run_command.h"
#include "tests/support/scratch_dir.h"

namespace hermes {
namespace {

namespace fs = std::filesystem;
using testing::run_command;

// The environment of a process no MPI launcher started.
const std::string kNoLauncher = "env -u OMPI_COMM_WORLD_SIZE -u PMI_SIZE -u PMIX_RANK ";

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

#ifdef HERMES_MPI_BINARY

TEST(MpiBinary, HermesSimHasNoMpiAndNamesTheSiblingThatHas) {
  const auto r = run_command(kNoLauncher + HERMES_BINARY + " --version");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(has(r.output, "\nmpi: none; under mpirun (more than one rank) it runs " +
                                fs::path(HERMES_MPI_BINARY).lexically_normal().string() + "\n"))
      << r.output;
  const auto mpi = run_command(kNoLauncher + HERMES_MPI_BINARY + " --version");
  ASSERT_EQ(mpi.status, 0) << mpi.output;
  EXPECT_TRUE(has(mpi.output, "\nmpi: Open MPI")) << mpi.output;
  EXPECT_TRUE(has(mpi.output, " (this is hermes-sim-mpi)\n")) << mpi.output;
}

TEST(MpiBinary, ALauncherOfTwoRanksGetsHermesSimMpi) {
  // --version calls no MPI_Init, so the launcher's variable alone shows which binary answers.
  auto r = run_command(kNoLauncher + "OMPI_COMM_WORLD_SIZE=2 " + HERMES_BINARY + " --version");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(has(r.output, " (this is hermes-sim-mpi)\n")) << r.output;
  r = run_command(kNoLauncher + "PMI_SIZE=3 " + HERMES_BINARY + " --version");
  EXPECT_TRUE(has(r.output, " (this is hermes-sim-mpi)\n")) << r.output;
  // One rank needs no MPI: hermes-sim runs it itself.
  r = run_command(kNoLauncher + "OMPI_COMM_WORLD_SIZE=1 " + HERMES_BINARY + " --version");
  EXPECT_TRUE(has(r.output, "\nmpi: none; ")) << r.output;
}

#endif

using CopiedBinary = testing::ScratchDirTest;

TEST_F(CopiedBinary, AloneItHasNoHomeAndRefusesSeveralRanks) {
  fs::create_directories(path("bin"));
  const std::string copy = path("bin/hermes-sim");
  fs::copy_file(HERMES_BINARY, copy);
  fs::permissions(copy, fs::perms::owner_all, fs::perm_options::add);

  // Neither an install nor a build directory: no home, and no compiled-in path to fall back to.
  auto r = run_command(kNoLauncher + "-u HERMES_HOME " + copy + " --version");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(has(r.output, "hermes-sim found no home")) << r.output;
  EXPECT_FALSE(has(r.output, HERMES_SOURCE_DIR)) << r.output;

  const std::string home = "HERMES_HOME=" + std::string(HERMES_SOURCE_DIR) + " ";
  r = run_command(kNoLauncher + home + copy + " --version");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(has(r.output, "\nmpi: none; no hermes-sim-mpi beside this binary")) << r.output;

  r = run_command(kNoLauncher + home + "OMPI_COMM_WORLD_SIZE=2 " + copy + " sweep " +
                  HERMES_SOURCE_DIR + "/scenarios/examples/sweep-demo.json --out " + path("sweep"));
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(has(r.output, "built without MPI and found no hermes-sim-mpi beside it")) << r.output;
  EXPECT_TRUE(has(r.output, "install the Debian package hermes-sim-mpi")) << r.output;
  EXPECT_FALSE(fs::exists(path("sweep")));
}

}  // namespace
}  // namespace hermes
