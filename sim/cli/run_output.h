// The output directory of a run: all files are written into a private temporary directory next to
// the target (TARGET.partial-PID, marked with .hermes-run and locked while this process lives) and
// the directory is renamed into place at the end, so a reader (or a sweep that resumes) sees either
// a complete run directory or none.
//
// What may be replaced is decided BEFORE the run, so that hours of simulation are never lost to a
// bad path: the target must be absent, an empty directory, or (with --force) a run directory
// hermes-sim wrote (it holds .hermes-run); never a file, a symlink, `.`, `/`, $HOME, the source
// tree or a directory holding one of them (owned_dirs.h). --force replaces atomically: the new
// results are put in place first (rename(2) with RENAME_EXCHANGE, or renaming the old directory to
// TARGET.old-PID first where the file system cannot exchange), then the old ones are removed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/common/home_dir.h"
#include "sim/common/interrupt_cleanup.h"
#include "sim/common/owned_dirs.h"

namespace hermes::cli {

class RunOutputDir {
 public:
  // `what` names the target in messages ("--out", "FILE: /outputs/dir"). Throws InputError if the
  // target cannot be written or replaced (see above), or the temporary directory cannot be
  // created. With `clean_leftovers`, first removes the stale leftovers of dead processes beside the
  // target (notes() says what it found); a sweep's points leave that to the sweep.
  RunOutputDir(std::string target, bool force, const std::string& what = "--out",
               bool clean_leftovers = true);
  ~RunOutputDir();  // removes the temporary directory if commit() was not reached
  RunOutputDir(const RunOutputDir&) = delete;
  RunOutputDir& operator=(const RunOutputDir&) = delete;

  // Path of a file inside the (temporary) directory.
  std::string file(const std::string& name) const;
  // Puts the results in place (and with --force removes the old ones). If the target was changed
  // by someone else during the run so that it can no longer be replaced, the results are kept in
  // TARGET.kept-PID and std::runtime_error says so.
  void commit();
  const std::string& target() const { return target_; }
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  // Why the target cannot take the results now ("" if it can).
  std::string refusal(bool at_commit) const;
  std::string label() const;  // "--out 'x'" or "FILE: /outputs/dir: 'x'"
  void replace_existing();

  std::string target_;
  std::string tmp_;
  std::string what_;
  bool force_;
  bool committed_ = false;
  bool kept_ = false;
  std::vector<std::string> notes_;
  std::optional<CleanupRegistration> cleanup_;
  std::optional<FileLock> lock_;
};

// Where `hermes-sim run` writes when neither --out nor the scenario's outputs.dir says:
// <name>-<YYYYmmdd-HHMMSS> (local time) under the source tree's results/ when `home` is the source
// tree (a build-tree binary), else under hermes-results/ in the current directory (an installed
// binary, or one given $HERMES_HOME: the home holds read-only data).
inline constexpr const char* kInstalledResultsDir = "hermes-results";
std::string default_output_dir(const HomeDir& home, const std::string& scenario_name);

// Checks a --trace FILE before the run: not a directory (or a name ending in '/'), a parent
// directory that exists, not inside the run directory `run_dir` (replacing it would remove the
// trace), and an existing FILE only with --force and only if it is a trace hermes-sim wrote.
// Removes stale FILE.tmp-PID of dead processes; returns notes saying so. Throws InputError.
std::vector<std::string> check_trace_target(const std::string& trace, bool force,
                                            const std::string& run_dir);

}  // namespace hermes::cli
