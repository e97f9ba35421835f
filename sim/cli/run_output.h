// The output directory of a run: all files are written into a private temporary directory next to
// the target and the directory is renamed into place at the end, so a reader (or a sweep that
// resumes) sees either a complete run directory or none.
#pragma once

#include <string>

namespace hermes::cli {

class RunOutputDir {
 public:
  // Refuses an existing non-empty `target` unless `force` (then it is replaced at commit()).
  RunOutputDir(std::string target, bool force);
  ~RunOutputDir();  // removes the temporary directory if commit() was not reached
  RunOutputDir(const RunOutputDir&) = delete;
  RunOutputDir& operator=(const RunOutputDir&) = delete;

  // Path of a file inside the (temporary) directory.
  std::string file(const std::string& name) const;
  void commit();
  const std::string& target() const { return target_; }

 private:
  std::string target_;
  std::string tmp_;
  bool force_;
  bool committed_ = false;
};

// results/<name>-<YYYYmmdd-HHMMSS> under `base`, in local time.
std::string default_output_dir(const std::string& base, const std::string& scenario_name);

}  // namespace hermes::cli
