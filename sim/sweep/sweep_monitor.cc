#include "sim/sweep/sweep_monitor.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "sim/common/progress_eta.h"
#include "sim/metrics/summary_csv.h"
#include "sim/sweep/sweep_summary.h"

namespace hermes::sweep {

namespace {

using Json = ProgressLog::Json;

constexpr auto kPlainInterval = std::chrono::seconds(10);
constexpr auto kTtyInterval = std::chrono::seconds(1);
constexpr auto kEventInterval = std::chrono::seconds(2);

Json rank_json(int rank) { return rank >= 0 ? Json(rank) : Json(nullptr); }

double ms(double s) { return std::round(s * 1000.0) / 1000.0; }

}  // namespace

SweepMonitor::SweepMonitor(const SweepDir& dir, const std::vector<GridAxis>& grid,
                           const std::vector<SweepPoint>& points, std::size_t already_done,
                           std::size_t slots, ProgressLog& log)
    : dir_(dir),
      grid_(grid),
      points_(points),
      slots_(std::max<std::size_t>(slots, 1)),
      log_(log),
      done_(already_done) {
  log_.event("sweep_start", {{"dir", dir_.root()},
                             {"points", points_.size()},
                             {"done_before", done_},
                             {"to_run", points_.size() - done_},
                             {"slots", slots_}});
}

void SweepMonitor::started(std::size_t index, int rank) {
  running_[index] = Clock::now();
  log_.event("point_start", {{"point", point_name(index, points_.size())},
                             {"index", index},
                             {"points", points_.size()},
                             {"label", point_label(grid_, points_[index])},
                             {"rank", rank_json(rank)}});
  if (log_.tty()) draw();
}

void SweepMonitor::finished(const PointOutcome& outcome, int rank) {
  running_.erase(outcome.index);
  const std::string name = point_name(outcome.index, points_.size());
  const std::string where = rank >= 0 ? " [rank " + std::to_string(rank) + "]" : "";
  std::ostringstream line;
  line << "point " << name << ' ' << point_label(grid_, points_[outcome.index]) << ": ";
  Json results = Json::array();
  if (outcome.ok()) {
    ++done_;
    ++finished_now_;
    wall_sum_ += outcome.wall_s;
    runs_reused_ += outcome.runs_reused;
    summary_rows_ = write_sweep_summary(dir_, grid_, points_);
    const auto rows =
        metrics::read_summary_csv(dir_.point_dir(outcome.index, points_.size()) + "/summary.csv");
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const auto& r = rows[i];
      line << (i ? "; " : "") << r.run << ' ' << r.status << ", accuracy " << std::fixed
           << std::setprecision(2) << 100.0 * r.accuracy << "%, simulated " << std::setprecision(1)
           << r.sim_time_s / 60.0 << " min";
      results.push_back({{"run", r.run},
                         {"status", r.status},
                         {"accuracy", r.accuracy},
                         {"sim_time_s", r.sim_time_s}});
    }
  } else {
    failures_.push_back(name + ": " + outcome.error);
    line << "FAILED: " << outcome.error;
  }
  line << " (wall " << std::fixed << std::setprecision(1) << outcome.wall_s << " s" << where;
  if (outcome.ok() && outcome.runs_reused > 0) {
    line << ", " << outcome.runs_reused << (outcome.runs_reused == 1 ? " run" : " runs")
         << " reused";
  }
  line << ", " << done_ << '/' << points_.size() << " done)";
  Json event = {{"point", name},
                {"index", outcome.index},
                {"points", points_.size()},
                {"status", outcome.ok() ? "ok" : "failed"},
                {"point_wall_s", ms(outcome.wall_s)},
                {"rank", rank_json(rank)},
                {"done", done_},
                {"failed", failures_.size()}};
  if (outcome.ok()) {
    event["runs_reused"] = outcome.runs_reused;
    event["results"] = results;
  } else {
    event["error"] = outcome.error;
  }
  log_.event("point_end", event);
  log_.line(line.str());
  if (log_.tty()) draw();
}

std::optional<double> SweepMonitor::eta_s() const {
  if (done_ >= points_.size()) return 0.0;
  std::optional<double> mean;
  if (finished_now_ > 0) mean = wall_sum_ / static_cast<double>(finished_now_);
  const auto now = Clock::now();
  std::vector<double> elapsed;
  for (const auto& [index, start] : running_) {
    elapsed.push_back(std::chrono::duration<double>(now - start).count());
  }
  const std::size_t ended = done_ + failures_.size() + running_.size();
  const std::size_t queued = points_.size() > ended ? points_.size() - ended : 0;
  return sweep_eta(mean, elapsed, queued, slots_);
}

std::string SweepMonitor::status() const {
  std::ostringstream os;
  os << "sweep: " << done_ << '/' << points_.size() << " points done, " << running_.size()
     << " running";
  if (!failures_.empty()) os << ", " << failures_.size() << " failed";
  if (runs_reused_ > 0)
    os << ", " << runs_reused_ << (runs_reused_ == 1 ? " run" : " runs") << " reused";
  if (done_ < points_.size()) {
    if (const auto eta = eta_s()) {
      os << ", ETA " << duration_text(*eta) << " (mean " << std::fixed << std::setprecision(1)
         << wall_sum_ / static_cast<double>(finished_now_) << " s per point)";
    }
  }
  return os.str();
}

void SweepMonitor::draw() {
  last_line_ = Clock::now();
  log_.live(status());
}

void SweepMonitor::tick() {
  const auto now = Clock::now();
  if (log_.text() && now - last_line_ >= (log_.tty() ? Clock::duration(kTtyInterval)
                                                     : Clock::duration(kPlainInterval))) {
    draw();
  }
  if (log_.json() && now - last_event_ >= kEventInterval) {
    last_event_ = now;
    const auto eta = eta_s();
    log_.event("sweep_progress",
               {{"done", done_},
                {"points", points_.size()},
                {"running", running_.size()},
                {"failed", failures_.size()},
                {"runs_reused", runs_reused_},
                {"eta_s", eta ? Json(ms(*eta)) : Json(nullptr)},
                {"mean_point_wall_s", finished_now_ > 0
                                          ? Json(ms(wall_sum_ / static_cast<double>(finished_now_)))
                                          : Json(nullptr)}});
  }
}

void SweepMonitor::close() {
  if (log_.tty()) {
    draw();
    log_.end_live();
  }
  log_.event("sweep_end", {{"done", done_},
                           {"points", points_.size()},
                           {"finished_now", finished_now_},
                           {"failed", failures_.size()},
                           {"runs_reused", runs_reused_}});
}

}  // namespace hermes::sweep
