#include "sim/cli/run_output.h"

#include <fcntl.h>
#include <linux/fs.h>  // RENAME_EXCHANGE
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <system_error>

#include "base/diagnostics.h"
#include "sim/cli/commands.h"

namespace hermes::cli {

namespace fs = std::filesystem;

namespace {

// renameat2(2) through syscall(2): glibc 2.28+ has a wrapper, but not every libc does.
bool exchange(const std::string& a, const std::string& b, int& err) {
#ifdef SYS_renameat2
  if (::syscall(SYS_renameat2, AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) == 0) {
    return true;
  }
  err = errno;
#else
  err = ENOSYS;
#endif
  return false;
}

std::string entries_sample(const std::string& dir) {
  std::string names;
  std::size_t n = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (n < 3) names += std::string(n ? ", " : "") + "'" + e.path().filename().string() + "'";
    ++n;
  }
  return std::to_string(n) + (n == 1 ? " entry" : " entries") + (n ? ": " + names : "") +
         (n > 3 ? ", ..." : "");
}

}  // namespace

RunOutputDir::RunOutputDir(std::string target, bool force, const std::string& what,
                           bool clean_leftovers)
    : target_(strip_trailing_slashes(std::move(target))), what_(what), force_(force) {
  if (const std::string why = refusal(false); !why.empty()) throw InputError(why);
  const fs::path parent = fs::absolute(target_).parent_path();
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) {
    throw InputError(label() + ": cannot create its parent directory '" + parent.string() +
                     "': " + ec.message());
  }
  if (clean_leftovers) notes_ = clean_stale_leftovers(parent.string(), DirKind::kRun);
  tmp_ = target_ + ".partial-" + std::to_string(::getpid());
  // A directory of this name can only be left by a dead process that had our PID (this one has
  // not created it yet); it is removed like any stale leftover: only if hermes-sim wrote it.
  if (fs::exists(fs::symlink_status(tmp_, ec))) {
    if (!fs::is_directory(fs::symlink_status(tmp_, ec)) ||
        !(fs::is_empty(tmp_, ec) || has_marker(tmp_, DirKind::kRun))) {
      throw InputError(label() + ": '" + tmp_ +
                       "' is in the way and hermes-sim did not write it: move it away");
    }
    fs::remove_all(tmp_, ec);
  }
  cleanup_.emplace(tmp_);  // before it exists: an interruption from here on removes it
  if (!fs::create_directory(tmp_, ec) || ec) {
    throw InputError(label() + ": cannot create the run's temporary directory '" + tmp_ +
                     "': " + (ec ? ec.message() : "it exists"));
  }
  try {
    write_marker(tmp_, DirKind::kRun);
  } catch (const std::exception& e) {
    fs::remove_all(tmp_, ec);
    throw InputError(label() + ": " + e.what());
  }
  lock_ = FileLock::try_lock(tmp_ + "/" + marker_name(DirKind::kRun), false);
}

RunOutputDir::~RunOutputDir() {
  if (!committed_ && !kept_) {
    std::error_code ec;
    fs::remove_all(tmp_, ec);
  }
}

std::string RunOutputDir::file(const std::string& name) const { return tmp_ + "/" + name; }

std::string RunOutputDir::label() const {
  return what_ + (what_.rfind("--", 0) == 0 ? " '" : ": '") + target_ + "'";
}

std::string RunOutputDir::refusal(bool at_commit) const {
  const std::string label = this->label();
  if (const std::string why = protected_dir_reason(target_, source_dir()); !why.empty()) {
    return label + " is " + why +
           ": hermes-sim never writes a run directory there (accepted: a new directory, an empty "
           "one, or with --force a run directory hermes-sim wrote)";
  }
  const std::string kind = what_is_at(target_);
  if (kind.empty()) return "";
  if (kind != "a directory") {
    return label + " exists and is " + kind +
           ", not a directory: hermes-sim never replaces it (accepted: a new directory, an empty "
           "one, or with --force a run directory hermes-sim wrote)";
  }
  std::error_code ec;
  if (fs::is_empty(target_, ec)) return "";
  const std::string during = at_commit ? " (it changed during the run)" : "";
  if (has_marker(target_, DirKind::kSweep)) {
    return label + " is a sweep directory" + during +
           ", not a run directory: hermes-sim run never replaces it; choose another directory";
  }
  if (!has_marker(target_, DirKind::kRun)) {
    return label + " exists, is not empty (" + entries_sample(target_) + ") and is not a run " +
           "directory hermes-sim wrote (it has no " + marker_name(DirKind::kRun) + ")" + during +
           ": hermes-sim never replaces it, even with --force; choose another directory";
  }
  if (!force_) {
    return label + " holds the results of an earlier run" + during +
           ": choose another directory, or pass --force to replace them (the new results are put "
           "in place first, then the old ones are removed)";
  }
  // --force removes only what hermes-sim wrote: the files its marker lists (owned_dirs.h).
  if (!read_run_manifest(target_)) {
    return label + ": its " + marker_name(DirKind::kRun) +
           " does not list the files hermes-sim wrote there (a run directory of a hermes-sim "
           "before 2026-12-07, or a copied marker)" +
           during +
           ": --force replaces only a run directory whose every file is listed; remove it "
           "yourself if its files are yours to delete, or choose another directory";
  }
  if (const auto unlisted = unlisted_entries(target_); !unlisted.empty()) {
    return label + " holds " + quoted_names(unlisted) + ", which hermes-sim did not write (its " +
           marker_name(DirKind::kRun) + " does not list " + (unlisted.size() == 1 ? "it" : "them") +
           ")" + during + ": --force never removes what it did not write; move " +
           (unlisted.size() == 1 ? "it" : "them") + " out of the directory, or choose another";
  }
  return "";
}

void RunOutputDir::commit() {
  InterruptGuard guard;  // an interruption happens before these renames or after all of them
  // Everything in the private temporary directory is this run's: listed as what it wrote.
  std::vector<std::string> written;
  std::error_code list_ec;
  for (const auto& e : fs::directory_iterator(tmp_, list_ec)) {
    const std::string name = e.path().filename().string();
    if (name != marker_name(DirKind::kRun)) written.push_back(name);
  }
  try {
    if (list_ec) throw std::runtime_error("cannot list '" + tmp_ + "': " + list_ec.message());
    append_run_manifest(tmp_, written);
  } catch (const std::exception& e) {
    kept_ = true;
    cleanup_.reset();
    throw std::runtime_error(std::string(e.what()) + "; the results of this run are kept in '" +
                             tmp_ + "'");
  }
  if (const std::string why = refusal(true); !why.empty()) {
    // Someone changed the target during the run: keep the results where nothing removes them.
    const std::string kept = target_ + ".kept-" + std::to_string(::getpid());
    std::error_code ec;
    fs::rename(tmp_, kept, ec);
    kept_ = !ec;
    cleanup_.reset();
    throw std::runtime_error(why + "; the results of this run are kept in '" + (ec ? tmp_ : kept) +
                             "'");
  }
  std::error_code ec;
  const bool replacing = fs::exists(fs::symlink_status(target_, ec)) && !fs::is_empty(target_, ec);
  if (!replacing) {
    // Absent or an empty directory: rename(2) replaces an empty directory atomically.
    fs::rename(tmp_, target_, ec);
    if (ec) {
      throw std::runtime_error("cannot rename '" + tmp_ + "' to '" + target_ +
                               "': " + ec.message() + "; the results of this run are kept in '" +
                               tmp_ + "'");
    }
    committed_ = true;
    return;
  }
  replace_existing();
}

void RunOutputDir::replace_existing() {
  std::error_code ec;
  int err = 0;
  if (exchange(tmp_, target_, err)) {
    // The new results are in place; tmp_ now names the old ones (their marker proves they are a
    // run directory). If interrupted now, the cleanup (still registered for tmp_) removes them.
    committed_ = true;
    fs::remove_all(tmp_, ec);
    if (ec) notes_.push_back("could not remove the old results in '" + tmp_ + "': " + ec.message());
    return;
  }
  if (err != EINVAL && err != ENOSYS && err != EOPNOTSUPP && err != ENOTSUP) {
    kept_ = true;
    cleanup_.reset();
    throw std::runtime_error("cannot exchange '" + tmp_ + "' and '" + target_ +
                             "': " + std::strerror(err) +
                             "; the results of this run are kept in '" + tmp_ + "'");
  }
  // A file system without RENAME_EXCHANGE (NFS): old aside, new in place, old removed. A kill
  // between the two renames leaves TARGET.old-PID, which the next start renames back.
  const std::string old = target_ + ".old-" + std::to_string(::getpid());
  CleanupRegistration old_cleanup(old);
  fs::rename(target_, old, ec);
  if (ec) {
    kept_ = true;
    cleanup_.reset();
    throw std::runtime_error("cannot move the old results '" + target_ + "' aside: " +
                             ec.message() + "; the results of this run are kept in '" + tmp_ + "'");
  }
  fs::rename(tmp_, target_, ec);
  if (ec) {
    std::error_code back;
    fs::rename(old, target_, back);
    kept_ = true;
    cleanup_.reset();
    throw std::runtime_error("cannot rename '" + tmp_ + "' to '" + target_ + "': " + ec.message() +
                             "; the results of this run are kept in '" + tmp_ + "'");
  }
  committed_ = true;
  fs::remove_all(old, ec);
  if (ec) notes_.push_back("could not remove the old results in '" + old + "': " + ec.message());
}

std::string default_output_dir(const HomeDir& home, const std::string& scenario_name) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  // Only a source tree is the user's to write into (its results/ is git-ignored); an installed
  // home is read-only data (/usr/share/hermes-sim), and HERMES_HOME may name one.
  const std::string parent =
      home.origin == HomeOrigin::kSourceTree ? home.path + "/results" : kInstalledResultsDir;
  return parent + "/" + scenario_name + "-" + stamp;
}

namespace {

// The first bytes of every trace ChromeTrace::write produces.
constexpr std::string_view kTraceStart = "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[";

bool looks_like_our_trace(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  std::string head(kTraceStart.size(), '\0');
  const std::size_t n = std::fread(head.data(), 1, head.size(), f);
  std::fclose(f);
  return n == head.size() && head == kTraceStart;
}

}  // namespace

std::vector<std::string> check_trace_target(const std::string& trace, bool force,
                                            const std::string& run_dir) {
  const std::string label = "--trace '" + trace + "'";
  if (trace.back() == '/') {
    throw InputError(label + " names a directory (it ends in '/'); --trace takes a file name");
  }
  const fs::path abs = fs::absolute(trace).lexically_normal();
  const fs::path parent = abs.parent_path();
  const fs::path run = fs::absolute(strip_trailing_slashes(run_dir)).lexically_normal();
  const auto rel = abs.lexically_relative(run);
  if (!rel.empty() && *rel.begin() != "..") {
    throw InputError(label + " is inside the run directory '" + run_dir +
                     "', which the run replaces as a whole: put the trace elsewhere");
  }
  std::error_code ec;
  if (!fs::is_directory(parent, ec)) {
    throw InputError(label + ": its directory '" + parent.string() + "' " +
                     (fs::exists(parent, ec) ? "is not a directory" : "does not exist") +
                     " (create it first)");
  }
  const std::string kind = what_is_at(trace);
  if (!kind.empty()) {
    if (kind != "a regular file") {
      throw InputError(label + " exists and is " + kind +
                       ", not a file hermes-sim wrote: choose another name");
    }
    if (!force) {
      throw InputError(label + " exists: choose another name, or pass --force to replace it");
    }
    if (fs::file_size(trace, ec) > 0 && !looks_like_our_trace(trace)) {
      throw InputError(label + " exists and is not a trace hermes-sim wrote: hermes-sim never " +
                       "replaces it, even with --force; choose another name");
    }
  }
  return clean_stale_leftovers(parent.string(), DirKind::kRun, {abs.filename().string()});
}

}  // namespace hermes::cli
