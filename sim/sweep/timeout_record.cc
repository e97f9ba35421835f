#include "sim/sweep/timeout_record.h"

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <sstream>

#include "base/diagnostics.h"
#include "base/file_read.h"
#include "base/string_join.h"
#include "sim/config/json_read.h"
#include "sim/metrics/atomic_file.h"
#include "sim/sweep/point_deadline.h"
#include "sim/sweep/points.h"

namespace hermes::sweep {

TimedOutRecord read_timed_out(const SweepDir& dir) {
  TimedOutRecord out;
  std::error_code ec;
  const auto status = std::filesystem::symlink_status(dir.timed_out_path(), ec);
  if (ec || status.type() == std::filesystem::file_type::not_found) return out;
  const auto unreadable = [&out](std::string why) {
    out.points.clear();
    out.unreadable = std::move(why);
    return out;
  };
  if (status.type() != std::filesystem::file_type::regular) {
    return unreadable("not a regular file");
  }
  try {
    const std::string text =
        read_regular_file(dir.timed_out_path(), kMaxManifestBytes, "timed-out points");
    Diagnostics diags(dir.timed_out_path());
    const auto doc = parse_json_checked(text, diags);
    if (!doc) return unreadable("not JSON");
    if (!doc->is_object() || !doc->contains("points") || !doc->at("points").is_array()) {
      return unreadable("not {\"points\": [...]}");
    }
    for (const auto& p : doc->at("points")) {
      if (!p.is_object() || !p.contains("point") || !p.at("point").is_string() ||
          !p.contains("timeout_s") || !p.at("timeout_s").is_number()) {
        return unreadable("an entry of \"points\" is not {\"point\": \"NNNN\", \"timeout_s\": S}");
      }
      out.points.push_back({p.at("point").get<std::string>(), p.at("timeout_s").get<double>()});
    }
  } catch (const std::exception& e) {
    return unreadable(e.what());
  }
  return out;
}

std::string set_aside_unreadable(const SweepDir& dir, const TimedOutRecord& record) {
  if (record.unreadable.empty()) return "";
  // A name of its own: never over another file.
  std::string aside = dir.timed_out_path() + ".unreadable";
  std::error_code ec;
  for (int i = 2; std::filesystem::exists(std::filesystem::symlink_status(aside, ec)); ++i) {
    aside = dir.timed_out_path() + ".unreadable-" + std::to_string(i);
  }
  std::filesystem::rename(dir.timed_out_path(), aside, ec);
  if (ec) {
    throw InputError(dir.timed_out_path() + ": cannot be read (" + record.unreadable +
                     ") nor moved aside to " + aside + " (" + ec.message() +
                     "); remove or repair it, then run the same command again");
  }
  return "note: " + dir.timed_out_path() + " could not be read (" + record.unreadable +
         "): moved aside to " + aside +
         "; the points it listed run again anyway if their directory is missing";
}

void write_timed_out(const SweepDir& dir, const std::vector<TimedOutPoint>& points) {
  if (points.empty()) {
    std::error_code ec;
    std::filesystem::remove(dir.timed_out_path(), ec);
    return;
  }
  Json list = Json::array();
  for (const auto& p : points) list.push_back({{"point", p.point}, {"timeout_s", p.timeout_s}});
  metrics::write_file_atomically(dir.timed_out_path(), Json{{"points", list}}.dump(2) + "\n");
}

namespace {

// Whether `name` is a point of `finished` whose directory is missing.
bool missing(const std::string& name, const std::vector<bool>& finished) {
  for (std::size_t i = 0; i < finished.size(); ++i) {
    if (point_name(i, finished.size()) == name) return !finished[i];
  }
  return false;  // not a point of this sweep
}

}  // namespace

std::string retry_note(const std::vector<TimedOutPoint>& earlier,
                       const std::vector<bool>& finished) {
  std::vector<std::string> listed;
  for (const auto& p : earlier) {
    if (missing(p.point, finished))
      listed.push_back(p.point + " after " + timeout_text(p.timeout_s));
  }
  if (listed.empty()) return "";
  return "note: " + counted(listed.size(), "point") + " timed out before (" +
         join_strings(listed, ", ") + "): " + (listed.size() == 1 ? "it runs" : "they run") +
         " again now";
}

std::vector<TimedOutPoint> timed_out_after(const std::vector<TimedOutPoint>& earlier,
                                           const std::set<std::size_t>& started_now,
                                           const std::vector<std::size_t>& timed_out_now,
                                           const std::vector<bool>& finished, double timeout_s) {
  const std::size_t total = finished.size();
  std::vector<TimedOutPoint> out;
  for (const auto& p : earlier) {
    const bool started = std::any_of(started_now.begin(), started_now.end(), [&](std::size_t i) {
      return point_name(i, total) == p.point;
    });
    if (!started && missing(p.point, finished)) out.push_back(p);
  }
  for (const std::size_t i : timed_out_now) out.push_back({point_name(i, total), timeout_s});
  std::sort(out.begin(), out.end(),
            [](const TimedOutPoint& a, const TimedOutPoint& b) { return a.point < b.point; });
  return out;
}

std::string timeouts_report(const std::vector<PointOutcome>& timed_out,
                            const std::vector<GridAxis>& grid,
                            const std::vector<SweepPoint>& points, const SweepDir& dir,
                            double timeout_s) {
  std::ostringstream os;
  os << counted(timed_out.size(), "point") << " timed out (--point-timeout "
     << timeout_text(timeout_s) << "): abandoned, partial outputs removed, listed in "
     << dir.timed_out_path()
     << "; run the same command again to retry them (with a larger --point-timeout if they need "
        "more time):\n";
  std::vector<PointOutcome> by_point = timed_out;  // in the order they ended
  std::sort(by_point.begin(), by_point.end(),
            [](const PointOutcome& a, const PointOutcome& b) { return a.index < b.index; });
  for (const auto& outcome : by_point) {
    os << "  " << point_name(outcome.index, points.size()) << ' '
       << point_label(grid, points[outcome.index]) << " (wall " << std::fixed
       << std::setprecision(1) << outcome.wall_s << " s)\n";
  }
  return os.str();
}

}  // namespace hermes::sweep
