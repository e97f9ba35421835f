#include "sim/sweep/sweep_summary.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "base/file_read.h"
#include "sim/metrics/atomic_file.h"
#include "sim/metrics/csv_writer.h"
#include "sim/metrics/summary_csv.h"

namespace hermes::sweep {

namespace {

// A summary.csv line's fields, as csv_field writes them (a field with a comma or a quote is
// quoted, its quotes doubled); kept quoted, to be written back as they were.
std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (const char c : line) {
    if (c == '"') quoted = !quoted;  // a doubled quote toggles twice
    if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

// A finished point's summary.csv, line by line, if it is one hermes-sim wrote: a header that
// starts with the run columns, at least one row, every row as many fields as the header. Anything
// else (garbage, a cut file) would otherwise drop or shift the point's rows in the sweep's summary.
std::vector<std::string> read_lines(const std::string& path) {
  // A FIFO, a device or a directory in a point's place is refused, not waited on.
  std::istringstream in(read_regular_file(path, kMaxResultCsvBytes, "point summary"));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  if (lines.empty()) throw std::runtime_error("'" + path + "' is empty (no CSV header)");
  const std::vector<std::string> header = split_fields(lines[0]);
  if (header.size() < metrics::kSummaryRunColumns.size() ||
      !std::equal(metrics::kSummaryRunColumns.begin(), metrics::kSummaryRunColumns.end(),
                  header.begin())) {
    throw std::runtime_error("'" + path + "' line 1 is not a summary.csv header (one starts " +
                             "with the columns run,protocol)");
  }
  if (lines.size() == 1) throw std::runtime_error("'" + path + "' has a header and no row");
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::size_t fields = split_fields(lines[i]).size();
    if (fields != header.size()) {
      throw std::runtime_error("'" + path + "' line " + std::to_string(i + 1) + " has " +
                               std::to_string(fields) + " fields, its header " +
                               std::to_string(header.size()));
    }
  }
  return lines;
}

// The columns of every header, once: the first header's, then each column another header adds,
// after the column it follows there. Points differ in their columns only when a grid key changes
// a run's protocol to one with parameter columns of its own (run_params.h, summary_param_keys).
std::vector<std::string> union_of(const std::vector<std::vector<std::string>>& headers) {
  std::vector<std::string> out = headers.front();
  for (const auto& h : headers) {
    for (std::size_t i = 0; i < h.size(); ++i) {
      if (std::find(out.begin(), out.end(), h[i]) != out.end()) continue;
      const auto after = i == 0 ? out.begin() : std::find(out.begin(), out.end(), h[i - 1]) + 1;
      out.insert(after, h[i]);
    }
  }
  return out;
}

}  // namespace

std::string sweep_summary_csv(const SweepDir& dir, const std::vector<GridAxis>& grid,
                              const std::vector<SweepPoint>& points) {
  const auto done = dir.finished_points(points.size());
  struct PointCsv {
    const SweepPoint* point;
    std::string path;
    std::vector<std::string> lines;
  };
  std::vector<PointCsv> read;
  std::vector<std::vector<std::string>> headers;
  bool same = true;
  for (const auto& p : points) {
    if (!done[p.index]) continue;
    const std::string path = dir.point_dir(p.index, points.size()) + "/summary.csv";
    read.push_back({&p, path, read_lines(path)});
    same = same && read.front().lines[0] == read.back().lines[0];
    headers.push_back(split_fields(read.back().lines[0]));
  }
  if (read.empty()) return "";
  const std::vector<std::string> columns = union_of(headers);
  std::string prefix_header = "point";
  for (const auto& axis : grid) prefix_header += "," + metrics::csv_field(axis.key);
  std::ostringstream out;
  out << prefix_header;
  for (const auto& c : columns) out << ',' << c;
  out << '\n';
  for (std::size_t k = 0; k < read.size(); ++k) {
    const PointCsv& r = read[k];
    std::string prefix = point_name(r.point->index, points.size());
    for (const auto& v : r.point->values) prefix += "," + metrics::csv_field(display_text(v));
    // Where each of the union's columns is in this point's file (npos: it has none: empty).
    std::vector<std::size_t> at(columns.size(), std::string::npos);
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const auto it = std::find(headers[k].begin(), headers[k].end(), columns[c]);
      if (it != headers[k].end()) at[c] = static_cast<std::size_t>(it - headers[k].begin());
    }
    for (std::size_t i = 1; i < r.lines.size(); ++i) {
      if (same) {
        out << prefix << ',' << r.lines[i] << '\n';
        continue;
      }
      const std::vector<std::string> fields = split_fields(r.lines[i]);  // checked by read_lines
      out << prefix;
      for (const std::size_t c : at) out << ',' << (c == std::string::npos ? "" : fields[c]);
      out << '\n';
    }
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
