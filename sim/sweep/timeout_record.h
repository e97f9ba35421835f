// DIR/timed_out.json: the points abandoned at --point-timeout and not computed since, so that the
// next run of the same command can say that it runs them again (their directories are missing, so
// it would anyway). Rank 0 rewrites it at the end of every invocation; it is removed when no point
// is left in it. It only informs, so an unreadable one stops nothing; but the sweep never deletes
// a file it cannot read: it moves it aside under a name it says (set_aside_unreadable).
//
// {"points": [{"point": "0003", "timeout_s": 60}, ...]}
#pragma once

#include <set>
#include <string>
#include <vector>

#include "sim/sweep/point_pool.h"
#include "sim/sweep/points.h"
#include "sim/sweep/sweep_dir.h"

namespace hermes::sweep {

struct TimedOutPoint {
  std::string point;  // "0003"
  double timeout_s = 0;
};

struct TimedOutRecord {
  std::vector<TimedOutPoint> points;  // empty if the file is absent or unreadable
  std::string unreadable;             // why it could not be read; empty if absent or read
};

// What DIR/timed_out.json lists.
TimedOutRecord read_timed_out(const SweepDir& dir);

// If `record` is unreadable, renames DIR/timed_out.json to timed_out.json.unreadable (or
// .unreadable-2, ... whichever is free) and returns a note saying so; else "". Throws InputError
// if it cannot be renamed.
std::string set_aside_unreadable(const SweepDir& dir, const TimedOutRecord& record);

// Writes `points` to DIR/timed_out.json (atomically), or removes it if `points` is empty.
void write_timed_out(const SweepDir& dir, const std::vector<TimedOutPoint>& points);

// "note: 2 points timed out before (0003 after 60 s, 0007 after 60 s): they run again now", for
// the `earlier` points whose directory is still missing (`finished`, by point index); empty if
// none.
std::string retry_note(const std::vector<TimedOutPoint>& earlier,
                       const std::vector<bool>& finished);

// What DIR/timed_out.json lists after an invocation: the `earlier` points it did not start whose
// directory is still missing, and the points it abandoned (`timed_out_now`, point indices) at
// `timeout_s`; by point.
std::vector<TimedOutPoint> timed_out_after(const std::vector<TimedOutPoint>& earlier,
                                           const std::set<std::size_t>& started_now,
                                           const std::vector<std::size_t>& timed_out_now,
                                           const std::vector<bool>& finished, double timeout_s);

// The end of a sweep that abandoned points at --point-timeout `timeout_s`: how many, where they
// are listed, how to retry them, and a line per point with its grid values and wall time.
std::string timeouts_report(const std::vector<PointOutcome>& timed_out,
                            const std::vector<GridAxis>& grid,
                            const std::vector<SweepPoint>& points, const SweepDir& dir,
                            double timeout_s);

}  // namespace hermes::sweep
