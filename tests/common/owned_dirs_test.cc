// What hermes-sim may delete (sim/common/owned_dirs.h): markers, protected places, and the stale
// leftovers of dead processes, which are removed only when hermes-sim provably wrote them.
#include "sim/common/owned_dirs.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/scratch_dir.h"

namespace hermes {
namespace {

namespace fs = std::filesystem;

// The PID of a process that has exited (and been reaped): no process of it runs now.
long dead_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return pid;
}

using OwnedDirs = testing::ScratchDirTest;

TEST_F(OwnedDirs, MarkersAreFixedTextOfTheirKind) {
  fs::create_directories(path("run"));
  EXPECT_FALSE(has_marker(path("run"), DirKind::kRun));
  write_marker(path("run"), DirKind::kRun);
  EXPECT_TRUE(has_marker(path("run"), DirKind::kRun));
  EXPECT_FALSE(has_marker(path("run"), DirKind::kSweep));
  // A file of that name with other content, or a symlink to a real marker, proves nothing.
  put("fake/.hermes-run", "hello");
  EXPECT_FALSE(has_marker(path("fake"), DirKind::kRun));
  fs::create_directories(path("link"));
  fs::create_symlink(path("run/.hermes-run"), path("link/.hermes-run"));
  EXPECT_FALSE(has_marker(path("link"), DirKind::kRun));
  EXPECT_EQ(fs::directory_iterator(path("run"))->path().filename(), ".hermes-run");  // no tmp
}

TEST_F(OwnedDirs, ProtectedPlacesAreNeverResultDirectories) {
  const std::string cwd = fs::current_path().string();
  EXPECT_EQ(protected_dir_reason("/", ""), "the root directory");
  EXPECT_EQ(protected_dir_reason("//", ""), "the root directory");
  EXPECT_EQ(protected_dir_reason(".", ""), "the current directory");
  EXPECT_EQ(protected_dir_reason("./", ""), "the current directory");
  EXPECT_EQ(protected_dir_reason(cwd, ""), "the current directory");
  EXPECT_EQ(protected_dir_reason("..", "").rfind("a directory holding the current directory", 0),
            0u);
  EXPECT_EQ(protected_dir_reason(path("src"), path("src")), "the hermes-sim source tree");
  EXPECT_EQ(protected_dir_reason(dir_.string(), path("src"))
                .rfind("a directory holding the hermes-sim source tree", 0),
            0u);
  EXPECT_EQ(protected_dir_reason(path("new") + "/..", ""),
            "a path ending in '..' (name the directory)");
  EXPECT_EQ(protected_dir_reason("", ""), "an empty path");
  EXPECT_EQ(protected_dir_reason(path("results/x"), path("src")), "");
  const char* home = std::getenv("HOME");
  if (home != nullptr && *home != '\0' && fs::path(home) != "/") {
    EXPECT_EQ(protected_dir_reason(home, ""), "your home directory ($HOME)");
  }
  EXPECT_EQ(strip_trailing_slashes("new10///"), "new10");
  EXPECT_EQ(strip_trailing_slashes("/"), "/");
}

TEST_F(OwnedDirs, TemporaryNames) {
  const auto t = parse_temporary_name("run.v1.partial-123");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->base, "run.v1");
  EXPECT_EQ(t->kind, "partial");
  EXPECT_EQ(t->pid, 123);
  EXPECT_EQ(parse_temporary_name("t.json.tmp-9")->kind, "tmp");
  EXPECT_EQ(parse_temporary_name("x.old-77")->base, "x");
  EXPECT_FALSE(parse_temporary_name("x.partial-"));
  EXPECT_FALSE(parse_temporary_name("x.partial-12a"));
  EXPECT_FALSE(parse_temporary_name(".partial-12"));
  EXPECT_FALSE(parse_temporary_name("notes.txt"));
}

TEST_F(OwnedDirs, StaleLeftoversOfDeadProcessesAreCleanedOnlyIfOurs) {
  const std::string pid = std::to_string(dead_pid());
  // Ours and dead: removed.
  fs::create_directories(path("a.partial-" + pid));
  write_marker(path("a.partial-" + pid), DirKind::kRun);
  put("a.partial-" + pid + "/summary.csv");
  fs::create_directories(path("b.partial-" + pid));  // killed before its marker: empty
  // Not provably ours: left alone, and said so.
  put("c.partial-" + pid + "/precious.txt");
  // A live process (init) may be writing it: left alone.
  fs::create_directories(path("d.partial-1"));
  write_marker(path("d.partial-1"), DirKind::kRun);
  // A stale .old- whose target is missing: renamed back (the replacement was interrupted).
  fs::create_directories(path("e.old-" + pid));
  write_marker(path("e.old-" + pid), DirKind::kRun);
  put("e.old-" + pid + "/summary.csv", "old results");
  // A stale .old- whose target exists: removed.
  fs::create_directories(path("f"));
  fs::create_directories(path("f.old-" + pid));
  write_marker(path("f.old-" + pid), DirKind::kRun);
  // Temporary files: only those of the names given, unlocked, of dead processes.
  put("trace.json.tmp-" + pid);
  put("other.json.tmp-" + pid);
  put("locked.json.tmp-" + pid);
  const auto held = FileLock::try_lock(path("locked.json.tmp-" + pid), false);
  ASSERT_TRUE(held);

  const auto notes =
      clean_stale_leftovers(dir_.string(), DirKind::kRun, {"trace.json", "locked.json"});
  EXPECT_FALSE(fs::exists(path("a.partial-" + pid)));
  EXPECT_FALSE(fs::exists(path("b.partial-" + pid)));
  EXPECT_TRUE(fs::exists(path("c.partial-" + pid + "/precious.txt")));
  EXPECT_TRUE(fs::exists(path("d.partial-1")));
  EXPECT_FALSE(fs::exists(path("e.old-" + pid)));
  EXPECT_TRUE(fs::exists(path("e/summary.csv")));
  EXPECT_FALSE(fs::exists(path("f.old-" + pid)));
  EXPECT_TRUE(fs::exists(path("f")));
  EXPECT_FALSE(fs::exists(path("trace.json.tmp-" + pid)));
  EXPECT_TRUE(fs::exists(path("other.json.tmp-" + pid)));
  EXPECT_TRUE(fs::exists(path("locked.json.tmp-" + pid)));
  std::string all;
  for (const auto& n : notes) all += n + "\n";
  EXPECT_NE(all.find("removed stale '" + path("a.partial-" + pid) + "' (left by process " + pid +
                     ", which no longer runs)"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("left '" + path("c.partial-" + pid) + "' alone: it has no .hermes-run marker"),
            std::string::npos)
      << all;
  // Process 1 runs: its temporary is a run in progress, left alone without a word.
  EXPECT_EQ(all.find("d.partial-1"), std::string::npos) << all;
  EXPECT_NE(all.find("restored '" + path("e") + "'"), std::string::npos) << all;
}

TEST_F(OwnedDirs, ALockedPartialOfAnotherHostIsLeftAlone) {
  const std::string pid = std::to_string(dead_pid());
  fs::create_directories(path("g.partial-" + pid));
  write_marker(path("g.partial-" + pid), DirKind::kRun);
  // The PID is dead here, but its lock is held: a process elsewhere (NFS) still writes it.
  const auto held = FileLock::try_lock(path("g.partial-" + pid + "/.hermes-run"), false);
  ASSERT_TRUE(held);
  const auto notes = clean_stale_leftovers(dir_.string(), DirKind::kRun);
  EXPECT_TRUE(fs::exists(path("g.partial-" + pid)));
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("a process on another host still writes it"), std::string::npos);
}

TEST_F(OwnedDirs, WhatIsAtAPath) {
  put("f");
  fs::create_symlink(path("f"), path("l"));
  EXPECT_EQ(what_is_at(path("f")), "a regular file");
  EXPECT_EQ(what_is_at(path("l")), "a symbolic link");
  EXPECT_EQ(what_is_at(dir_.string()), "a directory");
  EXPECT_EQ(what_is_at("/dev/null"), "a character device");
  EXPECT_EQ(what_is_at(path("none")), "");
}

}  // namespace
}  // namespace hermes
