// Output files that are either complete or absent: a run killed mid-write never leaves a
// half-written CSV. Content goes to "<path>.tmp-<pid>" and is renamed over <path> on commit()
// (rename(2) is atomic within a file system).
#pragma once

#include <fstream>
#include <string>

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
  std::ofstream out_;
  bool committed_ = false;
};

// Writes a whole string atomically.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace hermes::metrics
