// Output files that are either complete or absent: a run killed mid-write never leaves a
// half-written CSV. Content goes to "<path>.tmp-<pid>" and is renamed over <path> on commit()
// (rename(2) is atomic within a file system). While the file is being written its temporary is
// locked (flock) and removed if the process is interrupted (interrupt_cleanup.h); a temporary left
// by kill -9 is unlocked, which is how the next start knows it is stale (owned_dirs.h).
#pragma once

#include <fstream>
#include <optional>
#include <string>

#include "sim/common/interrupt_cleanup.h"
#include "sim/common/owned_dirs.h"

namespace hermes::metrics {

class AtomicFile {
 public:
  explicit AtomicFile(std::string path);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  // Removes the temporary file if commit() was not reached (exception, early return).
  ~AtomicFile();

  std::ostream& stream() { return out_; }
  // Flushes, syncs to disk and renames into place. Throws std::runtime_error naming the path.
  void commit();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string tmp_path_;
  std::optional<CleanupRegistration> cleanup_;
  std::ofstream out_;
  std::optional<FileLock> lock_;
  bool committed_ = false;
};

// Writes a whole string atomically.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace hermes::metrics
