#include "sim/sweep/sweep_dir.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "base/diagnostics.h"
#include "base/file_read.h"
#include "sim/common/owned_dirs.h"
#include "sim/config/json_read.h"
#include "sim/metrics/atomic_file.h"
#include "sim/sweep/manifest.h"
#include "sim/sweep/points.h"

namespace hermes::sweep {

namespace fs = std::filesystem;

namespace {

const char* const kLockName = ".sweep.lock";

Json read_manifest(const std::string& path) {
  const auto refuse = [&](const std::string& why) {
    return InputError(path + ": not a sweep manifest (" + why +
                      "); pass --force to discard this directory's sweep and start afresh");
  };
  std::string text;
  try {
    text = read_regular_file(path, kMaxManifestBytes, "sweep manifest");
  } catch (const InputError& e) {
    throw refuse(e.what());
  }
  Diagnostics diags(path);
  const auto m = parse_json_checked(text, diags);
  if (!m) throw refuse(diags.format().substr(0, diags.format().size() - 1));
  if (!m->is_object()) throw refuse("not a JSON object");
  return *m;
}

std::string version_of(const Json& manifest) {
  const auto it = manifest.find("code_version");
  return it != manifest.end() && it->is_string() ? it->get<std::string>() : "unknown";
}

}  // namespace

SweepDir::SweepDir(std::string root, std::string source_dir)
    : root_(strip_trailing_slashes(std::move(root))), source_dir_(std::move(source_dir)) {}

SweepDir::~SweepDir() {
  if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the flock
}

std::string SweepDir::point_dir(std::size_t index, std::size_t total) const {
  return points_dir() + "/" + point_name(index, total);
}

namespace {

// Whether every entry of `root` is something a sweep writes before its manifest (the lock, the
// marker, sweep.json's temporary, an empty points/): left by a sweep killed in its first
// milliseconds, possibly by a version without the marker.
bool only_sweep_startup_leftovers(const std::string& root) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    const std::string name = entry.path().filename().string();
    const auto t = parse_temporary_name(name);
    const bool ok = name == kLockName || name == marker_name(DirKind::kSweep) ||
                    (t && t->kind == "tmp" && t->base == "sweep.json") ||
                    (name == "points" && entry.is_directory() && fs::is_empty(entry.path(), ec));
    if (!ok) return false;
  }
  return !ec;
}

// The files a sweep writes in its root (besides points/ and the aside copies of an unreadable
// timed_out.json, which it never removes).
bool own_root_file(const std::string& name) {
  return name == kLockName || name == marker_name(DirKind::kSweep) || name == "sweep.json" ||
         name == "summary.csv" || name == "timed_out.json";
}

bool all_digits(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

std::vector<std::string> SweepDir::unowned_entries() const {
  // Discarding removes only the sweep's own files of DIR: anything else there stays (notes,
  // tools/plot's plots/); what is in points/ goes with it.
  std::vector<std::string> found;
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(points_dir(), ec))) return found;
  for (const auto& point : fs::directory_iterator(points_dir(), ec)) {
    const std::string pname = point.path().filename().string();
    const auto pt = parse_temporary_name(pname);
    const bool pdir = fs::is_directory(fs::symlink_status(point.path(), ec));
    const std::string shown = "points/" + pname + (pdir ? "/" : "");
    if (pdir && all_digits(pname)) {
      if (!read_run_manifest(point.path().string())) {
        found.push_back(shown +
                        " (its .hermes-run lists no files: a point of a hermes-sim "
                        "before 2026-12-07, or not a point)");
        continue;
      }
      for (const auto& u : unlisted_entries(point.path().string())) found.push_back(shown + u);
      continue;
    }
    // A killed point's temporary directory (owned_dirs.h).
    if (pdir && pt && pt->kind == "partial" && all_digits(pt->base) &&
        (has_marker(point.path().string(), DirKind::kRun) || fs::is_empty(point.path(), ec))) {
      continue;
    }
    found.push_back(shown);
  }
  std::sort(found.begin(), found.end());
  return found;
}

void SweepDir::refuse_unowned(bool force, bool has_manifest) const {
  // Only --force and a start afresh discard; a resume keeps every point.
  if (!force && has_manifest) return;
  const std::string why = force ? "--force" : "starting afresh (the directory has no sweep.json)";
  const auto unowned = unowned_entries();
  if (unowned.empty()) return;
  throw InputError("sweep directory '" + root_ + "' holds " + quoted_names(unowned) +
                   ", which hermes-sim did not write; " + why +
                   " would remove them and never removes what it did not write: move them out of "
                   "the directory, or choose another --out");
}

std::string SweepDir::refusal() const {
  const std::string label = "sweep directory '" + root_ + "'";
  if (const std::string why = protected_dir_reason(root_, source_dir_); !why.empty()) {
    return label + " is " + why + ": hermes-sim never writes a sweep there";
  }
  const std::string kind = what_is_at(root_);
  if (kind.empty()) return "";
  if (kind != "a directory") {
    return label + " exists and is " + kind + ", not a directory: choose another --out";
  }
  std::error_code ec;
  if (fs::is_empty(root_, ec) || has_marker(root_, DirKind::kSweep)) return "";
  if (has_marker(root_, DirKind::kRun)) {
    return label + " is a run directory, not a sweep directory: choose another --out";
  }
  if (fs::is_regular_file(fs::symlink_status(manifest_path(), ec))) return "";  // before markers
  if (only_sweep_startup_leftovers(root_)) return "";
  return label + " exists, is not empty and is not a sweep directory hermes-sim wrote (no " +
         marker_name(DirKind::kSweep) +
         ", no sweep.json): choose another --out (hermes-sim writes a sweep only into a new or "
         "empty directory or one of its own sweeps, and --force discards only those)";
}

std::vector<std::string> SweepDir::open(const Json& manifest, bool force, bool allow_mixed_math) {
  if (const std::string why = refusal(); !why.empty()) throw InputError(why);
  // Before anything is written into DIR.
  std::error_code exists_ec;
  if (fs::is_directory(fs::symlink_status(root_, exists_ec))) {
    refuse_unowned(force, fs::exists(fs::symlink_status(manifest_path(), exists_ec)));
  }
  std::error_code ec;
  fs::create_directories(root_, ec);
  if (ec) throw InputError("cannot create sweep directory '" + root_ + "': " + ec.message());
  const std::string lock_path = root_ + "/" + kLockName;
  lock_fd_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (lock_fd_ < 0) throw InputError("cannot create '" + lock_path + "': " + std::strerror(errno));
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) throw busy(lock_path);
  if (!has_marker(root_, DirKind::kSweep)) {
    try {
      write_marker(root_, DirKind::kSweep);
    } catch (const std::exception& e) {
      throw InputError(std::string("sweep directory: ") + e.what());
    }
  }

  std::vector<std::string> notes;
  const bool has_manifest = fs::exists(manifest_path());
  if (force) {
    discard_previous_sweep();
  } else if (has_manifest) {
    if (const auto updated = check_resume(manifest, allow_mixed_math, notes)) {
      metrics::write_file_atomically(manifest_path(), updated->dump(2) + "\n");
    }
  } else {
    // No manifest: nothing ran yet (sweep.json is written before points/ exists). Whatever a
    // killed start left is discarded.
    discard_previous_sweep();
  }
  remove_temporaries();
  if (force || !has_manifest) {
    metrics::write_file_atomically(manifest_path(), manifest.dump(2) + "\n");
  }
  fs::create_directories(points_dir(), ec);
  if (ec) throw InputError("cannot create '" + points_dir() + "': " + ec.message());
  return notes;
}

std::vector<std::string> SweepDir::check(const Json& manifest, bool force,
                                         bool allow_mixed_math) const {
  if (const std::string why = refusal(); !why.empty()) throw InputError(why);
  std::vector<std::string> notes;
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(root_, ec))) return notes;
  // A shared lock taken and released at once: refused while a sweep holds the exclusive one.
  const std::string lock_path = root_ + "/" + kLockName;
  const int fd = ::open(lock_path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd >= 0) {
    const bool busy_now = ::flock(fd, LOCK_SH | LOCK_NB) != 0;
    ::close(fd);
    if (busy_now) throw busy(lock_path);
  }
  const bool has_manifest = fs::exists(fs::symlink_status(manifest_path(), ec));
  refuse_unowned(force, has_manifest);
  if (!force && has_manifest) check_resume(manifest, allow_mixed_math, notes);
  return notes;
}

InputError SweepDir::busy(const std::string& lock_path) const {
  return InputError("another hermes-sim sweep is running in '" + root_ + "' (it holds " +
                    lock_path + "); wait for it or stop it first");
}

std::optional<Json> SweepDir::check_resume(const Json& manifest, bool allow_mixed_math,
                                           std::vector<std::string>& notes) const {
  const Json recorded = read_manifest(manifest_path());
  const auto diffs = manifest_differences(recorded, manifest);
  if (!diffs.empty()) {
    std::string msg = "'" + root_ +
                      "' holds another sweep; it cannot be resumed with this "
                      "command because:\n";
    for (const auto& d : diffs) msg += "  " + d + "\n";
    msg += "choose another --out, or pass --force to discard its points and start afresh";
    throw InputError(msg);
  }
  if (version_of(recorded) != version_of(manifest)) {
    notes.push_back("note: this sweep was started by hermes-sim " + version_of(recorded) +
                    "; resuming with " + version_of(manifest));
  }
  return check_math(recorded, manifest, allow_mixed_math, notes);
}

std::optional<Json> SweepDir::check_math(const Json& recorded, const Json& manifest,
                                         bool allow_mixed_math,
                                         std::vector<std::string>& notes) const {
  const std::vector<MathBuild> current = recorded_maths(manifest);
  if (current.empty()) return std::nullopt;  // a manifest without a build (tests): no math
  const std::vector<MathBuild> before = recorded_maths(recorded);
  if (before.empty()) {
    notes.push_back("note: " + manifest_path() +
                    " records no math profile (started by hermes-sim " + version_of(recorded) +
                    ", before builds were recorded): its points may not be comparable byte for "
                    "byte with those of this binary, " +
                    current.front().text());
    return std::nullopt;
  }
  const std::string error = resume_math_error(before, current.front());
  if (error.empty()) return std::nullopt;
  if (!allow_mixed_math) throw InputError("'" + root_ + "': " + error);
  notes.push_back("note: --allow-mixed-math: " + error.substr(0, error.find(": their")) +
                  "; the points computed now are not comparable byte for byte with the earlier "
                  "ones (" +
                  manifest_path() + " adds this math to mixed_math)");
  Json updated = recorded;
  if (!add_mixed_math(updated, current.front())) return std::nullopt;
  return updated;
}

void SweepDir::record_mixed_maths(const std::vector<MathBuild>& maths) const {
  Json manifest = read_manifest(manifest_path());
  bool changed = false;
  for (const auto& m : maths) changed = add_mixed_math(manifest, m) || changed;
  if (changed) metrics::write_file_atomically(manifest_path(), manifest.dump(2) + "\n");
}

void SweepDir::discard_previous_sweep() const {
  std::error_code ec;
  fs::remove_all(points_dir(), ec);
  if (ec) throw InputError("cannot remove '" + points_dir() + "': " + ec.message());
  fs::remove(summary_path(), ec);
  fs::remove(timed_out_path(), ec);
  fs::remove(manifest_path(), ec);
}

void SweepDir::remove_temporaries() const {
  // Under the sweep's lock no other process writes here: every temporary is a dead one's.
  std::error_code ec;
  // Only its own: its files' temporaries in DIR, and the points' in points/.
  for (const auto& dir : {fs::path(root_), fs::path(points_dir())}) {
    if (!fs::is_directory(dir, ec)) continue;
    const bool points = dir != fs::path(root_);
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      const auto t = parse_temporary_name(entry.path().filename().string());
      if (!t || (t->kind != "partial" && t->kind != "tmp")) continue;
      if (points ? all_digits(t->base) : own_root_file(t->base)) fs::remove_all(entry.path(), ec);
    }
  }
}

std::vector<bool> SweepDir::finished_points(std::size_t total) const {
  std::vector<bool> done(total, false);
  std::error_code ec;
  for (std::size_t i = 0; i < total; ++i) done[i] = fs::is_directory(point_dir(i, total), ec);
  return done;
}

}  // namespace hermes::sweep
