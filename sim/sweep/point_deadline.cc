#include "sim/sweep/point_deadline.h"

#include <cmath>

#include "base/diagnostics.h"
#include "base/number_text.h"

namespace hermes::sweep {

void check_point_timeout(double seconds) {
  if (!std::isfinite(seconds) || seconds <= 0 || seconds > kMaxPointTimeout) {
    throw InputError("--point-timeout " + shortest(seconds) +
                     ": accepted: a number of seconds of wall time > 0 and <= " +
                     format_number(kMaxPointTimeout) + " (e.g. 600 or 1.5)");
  }
}

PointDeadline::PointDeadline(double seconds)
    : seconds_(seconds),
      end_(std::chrono::steady_clock::now() +
           std::chrono::duration_cast<std::chrono::steady_clock::duration>(
               std::chrono::duration<double>(seconds))) {}

void PointDeadline::check() const {
  if (std::chrono::steady_clock::now() >= end_) {
    throw PointTimedOut("timed out: still running after --point-timeout " + timeout_text(seconds_) +
                        " of wall time; abandoned, its partial output removed");
  }
}

std::string timeout_text(double seconds) { return format_number(seconds) + " s"; }

}  // namespace hermes::sweep
