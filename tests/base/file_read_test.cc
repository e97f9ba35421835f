// Reading input files (base/file_read.h): only regular files, bounded in size, with the
// system's reason when a file cannot be opened; never blocking on a FIFO.
#include "base/file_read.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "base/diagnostics.h"
#include "tests/support/scratch_dir.h"

namespace hermes {
namespace {

namespace fs = std::filesystem;

std::string error_of(const std::string& path, std::uint64_t limit = 100) {
  try {
    read_regular_file(path, limit, "scenario file");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

using FileRead = testing::ScratchDirTest;

TEST_F(FileRead, ReadsARegularFileWithinItsLimit) {
  std::ofstream(path("a.json")) << "{\"x\": 1}";
  EXPECT_EQ(read_regular_file(path("a.json"), 8, "scenario file"), "{\"x\": 1}");
  EXPECT_EQ(read_regular_file_bytes(path("a.json"), 8, "data file").size(), 8u);
  std::ofstream(path("empty")) << "";
  EXPECT_EQ(read_regular_file(path("empty"), 8, "scenario file"), "");
}

TEST_F(FileRead, RefusesWhatIsNotARegularFileOfBoundedSize) {
  EXPECT_EQ(error_of("/dev/zero"),
            "scenario file '/dev/zero' is a character device, not a regular file");
  EXPECT_EQ(error_of(dir_.string()),
            "scenario file '" + dir_.string() + "' is a directory, not a regular file");
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  // Without a writer, opening it for reading would block for ever.
  EXPECT_EQ(error_of(path("fifo")),
            "scenario file '" + path("fifo") + "' is a FIFO (named pipe), not a regular file");
  std::ofstream(path("big")) << std::string(101, 'x');
  EXPECT_EQ(error_of(path("big")), "scenario file '" + path("big") +
                                       "' is 101 bytes, larger than the limit of "
                                       "100 bytes for a scenario file");
  fs::create_symlink(path("loop2"), path("loop1"));
  fs::create_symlink(path("loop1"), path("loop2"));
  EXPECT_EQ(error_of(path("loop1")),
            "cannot open scenario file '" + path("loop1") + "': Too many levels of symbolic links");
  EXPECT_EQ(error_of(path("missing")),
            "cannot open scenario file '" + path("missing") + "': No such file or directory");
}

}  // namespace
}  // namespace hermes
