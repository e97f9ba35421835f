// What hermes-sim may delete, and where it may put a results directory.
//
// The tool deletes only what it can prove it wrote: every run directory holds a marker file
// `.hermes-run` and every sweep directory a `.hermes-sweep`, written before anything else, and
// `--force` replaces only a directory holding the marker (or an empty one). Some places are never
// replaced or written as a whole, marker or not: `/`, the current directory, $HOME, the source tree
// and any directory holding one of them.
//
// Temporaries (`X.partial-PID` directories, `X.old-PID` directories of a replacement under way,
// `X.tmp-PID` files) are locked with flock(2) by the process writing them, for as long as it
// lives. A leftover is stale when its lock is free (the kernel drops it when the process dies, even
// after kill -9, and NFS releases it too) and no process of its PID runs on this host; stale
// leftovers are removed (or, for `X.old-PID` whose X is missing, renamed back) by the next start.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace hermes {

enum class DirKind { kRun, kSweep };

// ".hermes-run" or ".hermes-sweep".
const char* marker_name(DirKind kind);

// Writes the marker of `kind` into the directory `dir` (atomically, fixed text: a run directory
// stays the same bytes on every run). Throws std::runtime_error naming the path on failure.
void write_marker(const std::string& dir, DirKind kind);

// Whether `dir` holds the marker of `kind`: a regular file (not a symlink) with the marker's text.
bool has_marker(const std::string& dir, DirKind kind);

// A run directory's list of its own files. When a run is complete, the names of every file
// hermes-sim wrote into its directory are appended to the marker, after a line "files:" (sorted,
// one per line; the same bytes on every run). `--force` replaces a run directory only if it holds
// nothing but its marker and those files: a file a user added, or a marker without the list (one
// written before the list existed, or copied), keeps it from being replaced.
void append_run_manifest(const std::string& dir, const std::vector<std::string>& files);

// The files listed in `dir`'s run marker; nullopt if it has no run marker or no list.
std::optional<std::vector<std::string>> read_run_manifest(const std::string& dir);

// Whether `dir` is tools/plot's figures directory of a run ("RUN/plots"): it holds `.hermes-plots`
// (first line "hermes-sim figures", then the names of the files tools/plot wrote there) and
// nothing else. Replacing the run directory may remove it with the run it shows.
bool is_own_plots_dir(const std::string& dir);

// The entries of `dir` that its run marker does not list (the marker itself aside), each name
// with '/' after a directory's, sorted: what --force must not remove. Every entry if the marker
// has no list.
std::vector<std::string> unlisted_entries(const std::string& dir);

// "'a', 'b' and 3 more": up to the first five of `names`, quoted, and how many more there are
// (how a refusal names what --force would not remove).
std::string quoted_names(const std::vector<std::string>& names);

// `path` without trailing slashes: "new10/" -> "new10" ("/" stays "/").
std::string strip_trailing_slashes(std::string path);

// Why hermes-sim must never replace, or write a results directory at, `path`; "" if it may.
// Refused: an empty path, a last component "." or "..", the root directory, and the current
// directory, $HOME and `source_dir` (if not empty), or a directory holding one of them (symlinks
// resolved).
std::string protected_dir_reason(const std::string& path, const std::string& source_dir);

// "a regular file", "a symbolic link", "a directory", ... for what is at `path` ("" if nothing).
std::string what_is_at(const std::string& path);

// An exclusive flock(2) on a file, held until destruction: the proof that a temporary is alive.
class FileLock {
 public:
  // Locks `path` without waiting (creating it only if `create`); nullopt if another open file
  // description holds the lock, or the file cannot be opened.
  static std::optional<FileLock> try_lock(const std::string& path, bool create);
  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  ~FileLock();

 private:
  explicit FileLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

// Whether a process with this PID runs on this host (kill(pid, 0) does not fail with ESRCH).
bool process_alive(long pid);

// The PID in a temporary's name "<base><infix><digits>" (infix ".partial-", ".old-", ".tmp-"),
// with the base; nullopt if `name` has another form.
struct TemporaryName {
  std::string base;
  std::string kind;  // "partial", "old", "tmp"
  long pid = 0;
};
std::optional<TemporaryName> parse_temporary_name(const std::string& name);

// Cleans the stale leftovers of dead processes in directory `parent`: `*.partial-PID` and
// `*.old-PID` directories holding the marker of `kind` (or empty), and the `.tmp-PID` files of
// the names in `tmp_bases` (e.g. the trace file's name). A stale `X.old-PID` whose X is missing is
// renamed back to X: the replacement that made it was interrupted before the new X appeared.
// Returns one line per leftover found: what was removed or restored, and what was left alone and
// why (no marker). The temporaries of live processes (runs in progress) are neither touched nor
// reported.
std::vector<std::string> clean_stale_leftovers(const std::string& parent, DirKind kind,
                                               const std::vector<std::string>& tmp_bases = {});

}  // namespace hermes
