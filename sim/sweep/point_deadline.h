// --point-timeout: the wall-clock time a sweep point may take. The point's run checks its deadline
// cooperatively, at every event of its timeline (cli's RunScenarioOptions::checkpoint), and gives
// up by throwing PointTimedOut: the point's partial directory is then removed like that of any
// failed point, and no thread is ever killed. Checking only reads the clock, so the results of
// the points that finish are the same bytes with or without a timeout.
#pragma once

#include <chrono>
#include <stdexcept>
#include <string>

namespace hermes::sweep {

// The longest --point-timeout accepted, in seconds (about 31 years; the clock holds it exactly).
inline constexpr double kMaxPointTimeout = 1e9;

class PointTimedOut : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws InputError naming --point-timeout unless 0 < seconds <= kMaxPointTimeout.
void check_point_timeout(double seconds);

class PointDeadline {
 public:
  // `seconds` from now (0 < seconds <= kMaxPointTimeout).
  explicit PointDeadline(double seconds);
  // Throws PointTimedOut once the deadline has passed.
  void check() const;

 private:
  double seconds_;
  std::chrono::steady_clock::time_point end_;
};

// "1.5 s", "60 s": a timeout as the messages show it.
std::string timeout_text(double seconds);

}  // namespace hermes::sweep
