// "trace": a CSV file of slowdown intervals, replayed exactly (scenarios/README.md, "trace").
// Columns node,start_s,end_s,speed_factor in any order, header required, '#' comment lines and
// blank lines allowed; rows sorted by start_s (the order a monitoring log is written in). Every
// problem of the file is reported with its file and line, all in one pass, before anything runs.
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "base/number_text.h"
#include "sim/common/sha256.h"
#include "sim/config/csv_reader.h"
#include "sim/config/object_reader.h"
#include "sim/scenario/sections.h"

namespace hermes::scenario {

namespace {

constexpr double kMaxTraceSeconds = 1e9;  // as for events: far inside SimTime's range
constexpr const char* kColumns = "node,start_s,end_s,speed_factor";

using TraceReader = io::CSVReader<4, io::trim_chars<' ', '\t'>, io::no_quote_escape<','>,
                                  io::throw_on_overflow, io::single_and_empty_line_comment<'#'>>;

// Reports the problems of one file at /trace/file, each as "<file>: line N: ...".
class TraceErrors {
 public:
  TraceErrors(Diagnostics& diags, std::string file) : diags_(diags), file_(std::move(file)) {}
  void at(int line, const std::string& message) {
    diags_.error("/trace/file", prefix(line) + message);
  }
  void whole(const std::string& message) { diags_.error("/trace/file", file_ + ": " + message); }
  std::string prefix(int line) const { return file_ + ": line " + std::to_string(line) + ": "; }
  std::size_t count() const { return diags_.count(); }

 private:
  Diagnostics& diags_;
  std::string file_;
};

// A time column: a number in [0, 1e9] seconds.
std::optional<double> seconds(TraceErrors& errors, int line, const char* column,
                              const std::string& text) {
  const auto v = parse_number(text);
  if (!v || !std::isfinite(*v) || *v < 0 || *v > kMaxTraceSeconds) {
    errors.at(line, "column '" + std::string(column) + "': '" + text +
                        "' is not a time in seconds (accepted: a number in [0, " +
                        format_number(kMaxTraceSeconds) + "])");
    return std::nullopt;
  }
  return v;
}

// Reads the rows of an opened trace; every row problem is reported, the reading goes on.
void read_rows(TraceReader& in, TraceErrors& errors, const std::string& file,
               std::vector<DeclaredSlowdown>& found) {
  std::string node, start_text, end_text, factor_text;
  double previous_start = 0;
  int previous_line = 0;
  while (in.read_row(node, start_text, end_text, factor_text)) {
    const int line = static_cast<int>(in.get_file_line());
    bool ok = true;
    if (node.empty()) {
      errors.at(line, "column 'node': empty (accepted: a host name, e.g. ps or w3)");
      ok = false;
    }
    const auto start = seconds(errors, line, "start_s", start_text);
    const auto end = seconds(errors, line, "end_s", end_text);
    const auto factor = parse_number(factor_text);
    if (!factor || !std::isfinite(*factor) || !(*factor > 0) || *factor > 1) {
      errors.at(line, "column 'speed_factor': '" + factor_text +
                          "' is not a speed factor (accepted: a number in (0, 1])");
      ok = false;
    }
    if (!start || !end || !ok) continue;
    if (*end <= *start) {
      errors.at(line, "end_s " + format_number(*end) + " is not after start_s " +
                          format_number(*start) + " (accepted: end_s > start_s)");
      continue;
    }
    if (previous_line > 0 && *start < previous_start) {
      errors.at(line, "rows must be sorted by start_s: start_s " + format_number(*start) +
                          " comes after line " + std::to_string(previous_line) + "'s " +
                          format_number(previous_start));
    }
    previous_start = *start;
    previous_line = line;
    DeclaredSlowdown d;
    d.spec.node = node;
    d.spec.start = engine::from_seconds(*start);
    d.spec.end = engine::from_seconds(*end);
    d.spec.speed_factor = *factor;
    d.spec.origin = file + " line " + std::to_string(line);
    d.node_path = "/trace/file";
    d.item_path = "/trace/file";
    d.prefix = errors.prefix(line);
    if (d.spec.end <= d.spec.start) {
      errors.at(line, "shorter than the simulator's 1 ns resolution");
      continue;
    }
    found.push_back(std::move(d));
  }
}

// Opens `path` and reads it. fccp's header errors become messages naming the accepted columns;
// its structural errors (a row with too few or too many fields) end the reading at that line.
void read_csv(const std::string& path, TraceErrors& errors, const std::string& written,
              std::vector<DeclaredSlowdown>& found) {
  try {
    TraceReader in(path);
    const std::string accepted =
        std::string(" (accepted columns: ") + kColumns + ", in any order, each once)";
    try {
      in.read_header(io::ignore_no_column, "node", "start_s", "end_s", "speed_factor");
    } catch (const io::error::extra_column_in_header& e) {
      errors.at(static_cast<int>(in.get_file_line()),
                "unknown column '" + std::string(e.column_name) + "'" + accepted);
      return;
    } catch (const io::error::missing_column_in_header& e) {
      errors.at(static_cast<int>(in.get_file_line()),
                "missing column '" + std::string(e.column_name) + "'" + accepted);
      return;
    } catch (const io::error::duplicated_column_in_header& e) {
      errors.at(static_cast<int>(in.get_file_line()),
                "duplicated column '" + std::string(e.column_name) + "'" + accepted);
      return;
    } catch (const io::error::header_missing&) {
      errors.whole(std::string("no header line (required: ") + kColumns + ")");
      return;
    }
    read_rows(in, errors, written, found);
  } catch (const io::error::can_not_open_file& e) {
    errors.whole("cannot open the trace (resolved to " + path +
                 "): " + (e.errno_value != 0 ? std::strerror(e.errno_value) : "unknown reason"));
  } catch (const io::error::base& e) {
    errors.whole(e.what());
  }
}

}  // namespace

std::optional<TraceSpec> read_trace(const Json& value, const std::string& source_dir,
                                    Diagnostics& diags, Json& out, DeclaredEvents& events) {
  ObjectReader r(value, "/trace", diags, out);
  const auto file = r.string("file", std::nullopt);
  // Recorded in the resolved document: a rerun from it fails if the trace changed since.
  const Json* recorded = r.accept("sha256");
  r.finish();
  if (!file) return std::nullopt;
  TraceSpec trace;
  trace.file = *file;
  trace.resolved_path = resolve_in_source_dir(*file, source_dir);
  TraceErrors errors(diags, *file);
  const std::size_t before = diags.count();
  read_csv(trace.resolved_path, errors, *file, events.slowdowns);
  if (diags.count() != before) return std::nullopt;
  trace.sha256 = sha256_file(trace.resolved_path).sha256;
  check_recorded_sha256(r, recorded, "trace", *file, trace.sha256);
  out["sha256"] = trace.sha256;
  return trace;
}

}  // namespace hermes::scenario
