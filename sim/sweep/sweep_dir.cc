#include "sim/sweep/sweep_dir.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/common/diagnostics.h"
#include "sim/common/file_read.h"
#include "sim/common/json_read.h"
#include "sim/metrics/atomic_file.h"
#include "sim/sweep/manifest.h"
#include "sim/sweep/points.h"

namespace hermes::sweep {

namespace fs = std::filesystem;

namespace {

const char* const kLockName = ".sweep.lock";

bool contains(const std::string& name, const char* part) {
  return name.find(part) != std::string::npos;
}

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

SweepDir::SweepDir(std::string root) : root_(std::move(root)) {}

SweepDir::~SweepDir() {
  if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the flock
}

std::string SweepDir::point_dir(std::size_t index, std::size_t total) const {
  return points_dir() + "/" + point_name(index, total);
}

std::vector<std::string> SweepDir::open(const Json& manifest, bool force, bool allow_mixed_math) {
  std::error_code ec;
  fs::create_directories(root_, ec);
  if (ec) throw InputError("cannot create sweep directory '" + root_ + "': " + ec.message());
  const std::string lock_path = root_ + "/" + kLockName;
  lock_fd_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd_ < 0) throw InputError("cannot create '" + lock_path + "'");
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    throw InputError("another hermes-sim sweep is running in '" + root_ + "' (it holds " +
                     lock_path + "); wait for it or stop it first");
  }

  std::vector<std::string> notes;
  const bool has_manifest = fs::exists(manifest_path());
  if (force) {
    discard_previous_sweep();
  } else if (has_manifest) {
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
    check_math(recorded, manifest, allow_mixed_math, notes);
  } else {
    for (const auto& entry : fs::directory_iterator(root_)) {
      if (entry.path().filename() != kLockName) {
        throw InputError("'" + root_ +
                         "' exists and is not a sweep directory (no sweep.json): "
                         "choose another --out, or pass --force to use it anyway");
      }
    }
  }
  remove_temporaries();
  fs::create_directories(points_dir(), ec);
  if (ec) throw InputError("cannot create '" + points_dir() + "': " + ec.message());
  if (force || !has_manifest) {
    metrics::write_file_atomically(manifest_path(), manifest.dump(2) + "\n");
  }
  return notes;
}

void SweepDir::check_math(const Json& recorded, const Json& manifest, bool allow_mixed_math,
                          std::vector<std::string>& notes) const {
  const std::vector<MathBuild> current = recorded_maths(manifest);
  if (current.empty()) return;  // a manifest without a build (tests): nothing to compare
  const std::vector<MathBuild> before = recorded_maths(recorded);
  if (before.empty()) {
    notes.push_back("note: " + manifest_path() +
                    " records no math profile (started by hermes-sim " + version_of(recorded) +
                    ", before builds were recorded): its points may not be comparable byte for "
                    "byte with those of this binary, " +
                    current.front().text());
    return;
  }
  const std::string error = resume_math_error(before, current.front());
  if (error.empty()) return;
  if (!allow_mixed_math) throw InputError("'" + root_ + "': " + error);
  notes.push_back("note: --allow-mixed-math: " + error.substr(0, error.find(": their")) +
                  "; the points computed now are not comparable byte for byte with the earlier "
                  "ones (" +
                  manifest_path() + " adds this math to mixed_math)");
  Json updated = recorded;
  if (add_mixed_math(updated, current.front())) {
    metrics::write_file_atomically(manifest_path(), updated.dump(2) + "\n");
  }
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
  fs::remove(manifest_path(), ec);
}

void SweepDir::remove_temporaries() const {
  std::error_code ec;
  for (const auto& dir : {fs::path(root_), fs::path(points_dir())}) {
    if (!fs::is_directory(dir, ec)) continue;
    for (const auto& entry : fs::directory_iterator(dir)) {
      const std::string name = entry.path().filename().string();
      if (contains(name, ".partial-") || contains(name, ".tmp-")) fs::remove_all(entry.path(), ec);
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
