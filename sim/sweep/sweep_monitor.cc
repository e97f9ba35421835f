#include "sim/sweep/sweep_monitor.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "sim/metrics/summary_csv.h"
#include "sim/sweep/sweep_summary.h"

namespace hermes::sweep {

namespace {

constexpr auto kPlainInterval = std::chrono::seconds(10);
constexpr auto kTtyInterval = std::chrono::seconds(1);

// "45 s", "3 min 10 s", "2 h 05 min".
std::string duration_text(double s) {
  const auto total = static_cast<long long>(std::llround(std::max(0.0, s)));
  std::ostringstream os;
  if (total < 60) {
    os << total << " s";
  } else if (total < 3600) {
    os << total / 60 << " min " << total % 60 << " s";
  } else {
    os << total / 3600 << " h " << std::setw(2) << std::setfill('0') << (total % 3600) / 60
       << " min";
  }
  return os.str();
}

}  // namespace

SweepMonitor::SweepMonitor(const SweepDir& dir, const std::vector<GridAxis>& grid,
                           const std::vector<SweepPoint>& points, std::size_t already_done,
                           std::size_t slots, std::ostream& log, bool tty)
    : dir_(dir),
      grid_(grid),
      points_(points),
      slots_(std::max<std::size_t>(slots, 1)),
      log_(log),
      tty_(tty),
      done_(already_done) {}

void SweepMonitor::started(std::size_t index, int /*rank*/) {
  running_[index] = Clock::now();
  if (tty_) draw();
}

void SweepMonitor::finished(const PointOutcome& outcome, int rank) {
  running_.erase(outcome.index);
  const std::string name = point_name(outcome.index, points_.size());
  const std::string where = rank >= 0 ? " [rank " + std::to_string(rank) + "]" : "";
  std::ostringstream line;
  line << "point " << name << ' ' << point_label(grid_, points_[outcome.index]) << ": ";
  if (outcome.ok()) {
    ++done_;
    ++finished_now_;
    wall_sum_ += outcome.wall_s;
    summary_rows_ = write_sweep_summary(dir_, grid_, points_);
    line << result_text(outcome.index);
  } else {
    failures_.push_back(name + ": " + outcome.error);
    line << "FAILED: " << outcome.error;
  }
  line << " (wall " << std::fixed << std::setprecision(1) << outcome.wall_s << " s" << where << ", "
       << done_ << '/' << points_.size() << " done)";
  print(line.str());
}

std::string SweepMonitor::result_text(std::size_t index) const {
  std::ostringstream os;
  const auto rows =
      metrics::read_summary_csv(dir_.point_dir(index, points_.size()) + "/summary.csv");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    os << (i ? "; " : "") << r.run << ' ' << r.status << ", accuracy " << std::fixed
       << std::setprecision(2) << 100.0 * r.accuracy << "%, simulated " << std::setprecision(1)
       << r.sim_time_s / 60.0 << " min";
  }
  return os.str();
}

std::string SweepMonitor::status() const {
  std::ostringstream os;
  os << "sweep: " << done_ << '/' << points_.size() << " points done, " << running_.size()
     << " running";
  if (!failures_.empty()) os << ", " << failures_.size() << " failed";
  if (finished_now_ > 0 && done_ < points_.size()) {
    // Work left: the mean point's wall time for each queued point, and what the running points
    // still need of it; spread over the slots.
    const double mean = wall_sum_ / static_cast<double>(finished_now_);
    const auto now = Clock::now();
    double work = 0;
    for (const auto& [index, start] : running_) {
      work += std::max(0.0, mean - std::chrono::duration<double>(now - start).count());
    }
    const std::size_t ended = done_ + failures_.size() + running_.size();
    const std::size_t queued = points_.size() > ended ? points_.size() - ended : 0;
    work += mean * static_cast<double>(queued);
    os << ", ETA " << duration_text(work / static_cast<double>(slots_)) << " (mean " << std::fixed
       << std::setprecision(1) << mean << " s per point)";
  }
  return os.str();
}

void SweepMonitor::print(const std::string& line) {
  if (tty_) {
    log_ << "\r\033[K" << line << '\n';
    draw();
  } else {
    log_ << line << '\n' << std::flush;
  }
}

void SweepMonitor::draw() {
  last_line_ = Clock::now();
  if (tty_) {
    log_ << "\r\033[K" << status() << std::flush;
    line_shown_ = true;
  } else {
    log_ << status() << '\n' << std::flush;
  }
}

void SweepMonitor::tick() {
  const auto since = Clock::now() - last_line_;
  if (since >= (tty_ ? std::chrono::duration_cast<Clock::duration>(kTtyInterval)
                     : std::chrono::duration_cast<Clock::duration>(kPlainInterval))) {
    draw();
  }
}

void SweepMonitor::close() {
  if (tty_ && line_shown_) {
    log_ << "\r\033[K" << status() << '\n' << std::flush;
    line_shown_ = false;
  }
}

}  // namespace hermes::sweep
