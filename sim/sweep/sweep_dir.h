// The directory of a sweep:
//   DIR/sweep.json       the manifest (manifest.h)
//   DIR/points/NNNN/     each point's complete run directory (summary.csv, global.csv,
//                        workers.csv, scenario.json), renamed into place when the point is done,
//                        so a point directory is complete or absent: on resume the missing ones
//                        are the points left to run
//   DIR/summary.csv      every point's summary rows with the point's grid values (sweep_summary.h)
//   DIR/.sweep.lock      flock(2)ed while a sweep runs in DIR, so two cannot run at once
// Temporaries of a killed sweep (points/NNNN.partial-PID, *.tmp-PID) are removed on resume.
#pragma once

#include <string>
#include <vector>

#include "sim/sweep/grid.h"

namespace hermes::sweep {

class SweepDir {
 public:
  explicit SweepDir(std::string root);
  ~SweepDir();  // releases the lock
  SweepDir(const SweepDir&) = delete;
  SweepDir& operator=(const SweepDir&) = delete;

  const std::string& root() const { return root_; }
  std::string manifest_path() const { return root_ + "/sweep.json"; }
  std::string summary_path() const { return root_ + "/summary.csv"; }
  std::string points_dir() const { return root_ + "/points"; }
  std::string point_dir(std::size_t index, std::size_t total) const;

  // Creates DIR and takes its lock; throws InputError if another sweep holds it. Then:
  //  - DIR holds a sweep.json: with `force` the old sweep (points, summary, manifest) is discarded;
  //    otherwise it must describe the same sweep as `manifest` (else InputError listing every
  //    difference), and the sweep resumes.
  //  - DIR holds anything else: refused unless `force`.
  // Removes the temporaries of a killed sweep and writes sweep.json for a new sweep. Returns notes
  // for the user (a resumed sweep started by another code version).
  std::vector<std::string> open(const Json& manifest, bool force);

  // Which of the `total` points have their directory.
  std::vector<bool> finished_points(std::size_t total) const;

 private:
  void discard_previous_sweep() const;
  void remove_temporaries() const;

  std::string root_;
  int lock_fd_ = -1;
};

}  // namespace hermes::sweep
