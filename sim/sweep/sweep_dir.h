// The directory of a sweep:
//   DIR/sweep.json       the manifest (manifest.h)
//   DIR/points/NNNN/     each point's complete run directory (summary.csv, global.csv,
//                        workers.csv, api.csv, scenario.json, provenance.json), renamed into
//                        place when the point is done,
//                        so a point directory is complete or absent: on resume the missing ones
//                        are the points left to run
//   DIR/summary.csv      every point's summary rows with the point's grid values (sweep_summary.h)
//   DIR/timed_out.json   the points abandoned at --point-timeout, until they are computed
//                        (timeout_record.h)
//   DIR/.sweep.lock      flock(2)ed while a sweep runs in DIR, so two cannot run at once
//   DIR/.hermes-sweep    the marker proving hermes-sim wrote DIR (owned_dirs.h), written first
// Temporaries of a killed sweep (points/NNNN.partial-PID, *.tmp-PID) are removed on resume. A
// sweep killed at any moment resumes: the marker comes first, then sweep.json, then points/, so
// a directory holding only the lock, the marker or the temporaries of sweep.json is a sweep that
// had not started yet, and is started afresh.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/diagnostics.h"
#include "sim/sweep/grid.h"
#include "sim/sweep/math_check.h"

namespace hermes::sweep {

class SweepDir {
 public:
  // `source_dir`: the source tree, which (like `.`, `/`, $HOME) is never a sweep directory.
  explicit SweepDir(std::string root, std::string source_dir = "");
  ~SweepDir();  // releases the lock
  SweepDir(const SweepDir&) = delete;
  SweepDir& operator=(const SweepDir&) = delete;

  const std::string& root() const { return root_; }
  std::string manifest_path() const { return root_ + "/sweep.json"; }
  std::string summary_path() const { return root_ + "/summary.csv"; }
  std::string timed_out_path() const { return root_ + "/timed_out.json"; }
  std::string points_dir() const { return root_ + "/points"; }
  std::string point_dir(std::size_t index, std::size_t total) const;

  // Refuses (InputError) a DIR that is a protected place (owned_dirs.h), a symlink, not a
  // directory, or a non-empty directory hermes-sim did not write as a sweep (no .hermes-sweep, no
  // sweep.json): --force never discards those. Creates DIR, takes its lock (InputError if another
  // sweep holds it) and writes the marker. Then:
  //  - DIR holds a sweep.json: with `force` the old sweep (points, summary, manifest) is discarded;
  //    otherwise it must describe the same sweep as `manifest` (else InputError listing every
  //    difference), and the sweep resumes. If the maths it records (math_check.h) are not all
  //    the math of `manifest`'s build (this binary's), the resume is refused (InputError naming
  //    both) unless `allow_mixed_math`, which adds this math to the recorded "mixed_math".
  //  - DIR holds anything else: refused unless `force`.
  // Discarding (with `force`, or a DIR without sweep.json) is refused (InputError naming them) if
  // DIR holds anything the sweep did not write, a point's files included: it is never removed.
  // Removes the temporaries of a killed sweep and writes sweep.json for a new sweep. Returns notes
  // for the user (a resumed sweep started by another code version, mixed maths allowed, a
  // manifest that records no math).
  std::vector<std::string> open(const Json& manifest, bool force, bool allow_mixed_math = false);

  // What open() would do with DIR, without creating or changing anything (--dry-run): throws the
  // InputError open() would throw (a refused DIR, a sweep running in it, another sweep, another
  // math without `allow_mixed_math`) and returns its notes.
  std::vector<std::string> check(const Json& manifest, bool force,
                                 bool allow_mixed_math = false) const;

  // Adds `maths` to the "mixed_math" of the sweep.json open() wrote or resumed, rewriting it if
  // any was new (MPI ranks whose math differs from rank 0's, with --allow-mixed-math).
  void record_mixed_maths(const std::vector<MathBuild>& maths) const;

  // Which of the `total` points have their directory.
  std::vector<bool> finished_points(std::size_t total) const;

 private:
  // Why DIR cannot hold this sweep ("" if it can), checked before anything is written into it.
  std::string refusal() const;
  // What DIR holds that this sweep did not write and discarding it would remove: in points/,
  // entries other than point directories and their temporaries, point directories whose marker
  // lists no files, and what a point's list leaves out (owned_dirs.h), shown as
  // "points/0003/extra.csv". Discarding keeps DIR's other entries (notes, tools/plot's plots/).
  std::vector<std::string> unowned_entries() const;
  // Throws InputError naming the unowned entries, if any, when this start would discard them:
  // with --force (`force`), or afresh over a DIR without sweep.json (`has_manifest` false).
  void refuse_unowned(bool force, bool has_manifest) const;
  void discard_previous_sweep() const;
  // Whether the sweep.json in DIR can be resumed by `manifest`; throws InputError if not. Adds
  // notes; returns the manifest to write back if it changed (a math added to mixed_math).
  std::optional<Json> check_resume(const Json& manifest, bool allow_mixed_math,
                                   std::vector<std::string>& notes) const;
  // The math check of check_resume().
  std::optional<Json> check_math(const Json& recorded, const Json& manifest, bool allow_mixed_math,
                                 std::vector<std::string>& notes) const;
  void remove_temporaries() const;
  // "another hermes-sim sweep is running in DIR ...".
  InputError busy(const std::string& lock_path) const;

  std::string root_;
  std::string source_dir_;
  int lock_fd_ = -1;
};

}  // namespace hermes::sweep
