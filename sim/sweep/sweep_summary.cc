#include "sim/sweep/sweep_summary.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "sim/metrics/atomic_file.h"
#include "sim/metrics/csv_writer.h"

namespace hermes::sweep {

namespace {

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read '" + path + "'");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  if (lines.empty()) throw std::runtime_error("'" + path + "' is empty (no CSV header)");
  return lines;
}

}  // namespace

std::string sweep_summary_csv(const SweepDir& dir, const std::vector<GridAxis>& grid,
                              const std::vector<SweepPoint>& points) {
  const auto done = dir.finished_points(points.size());
  std::string prefix_header = "point";
  for (const auto& axis : grid) prefix_header += "," + metrics::csv_field(axis.key);
  std::ostringstream out;
  std::string header, header_from;
  for (const auto& p : points) {
    if (!done[p.index]) continue;
    const std::string path = dir.point_dir(p.index, points.size()) + "/summary.csv";
    const auto lines = read_lines(path);
    if (header.empty()) {
      header = lines[0];
      header_from = path;
      out << prefix_header << ',' << header << '\n';
    } else if (lines[0] != header) {
      throw std::runtime_error("'" + path + "' has other columns than '" + header_from + "'");
    }
    std::string prefix = point_name(p.index, points.size());
    for (const auto& v : p.values) prefix += "," + metrics::csv_field(display_text(v));
    for (std::size_t i = 1; i < lines.size(); ++i) out << prefix << ',' << lines[i] << '\n';
  }
  return out.str();
}

std::size_t write_sweep_summary(const SweepDir& dir, const std::vector<GridAxis>& grid,
                                const std::vector<SweepPoint>& points) {
  const std::string csv = sweep_summary_csv(dir, grid, points);
  if (csv.empty()) return 0;
  metrics::write_file_atomically(dir.summary_path(), csv);
  std::size_t rows = 0;
  for (const char c : csv) rows += c == '\n';
  return rows - 1;
}

}  // namespace hermes::sweep
