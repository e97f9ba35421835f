// "trace": a CSV file of slowdowns, crashes and evictions, replayed exactly (scenarios/README.md,
// "trace"). Columns node,start_s,end_s,speed_factor and the optional event,notice_s in any order,
// header required, '#' comment lines and blank lines allowed; rows sorted by start_s (the order a
// monitoring log is written in). Every problem of the file is reported with its file and line, all
// in one pass, before anything runs. Each row becomes its record through the events reader
// (event_reader.h, as an object of "events" does) and joins the "events" list's (DeclaredEvents),
// so the checks across both (unknown node, overlaps, one source of outages per worker) are theirs.
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "base/file_read.h"
#include "base/number_text.h"
#include "sim/common/sha256.h"
#include "sim/config/csv_reader.h"
#include "sim/config/object_reader.h"
#include "sim/scenario/event_reader.h"
#include "sim/scenario/sections.h"

namespace hermes::scenario {

namespace {

// The four of a slowdown trace are required, so that a trace written before the optional two
// existed reads exactly as it did.
constexpr const char* kRequiredColumns[] = {"node", "start_s", "end_s", "speed_factor"};
constexpr const char* kAccepted =
    " (accepted columns: node,start_s,end_s,speed_factor and optionally event,notice_s, in any "
    "order, each once)";

using TraceReader = io::CSVReader<6, io::trim_chars<' ', '\t'>, io::no_quote_escape<','>,
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

// The cells of one row as text. fccp leaves the variable of an absent (optional) column as it
// was, so a fresh Cells per row reads those as empty.
struct Cells {
  std::string node, event, start, end, factor, notice;
};

// The "event" cell: empty or "slowdown" (what every row of a trace was before the column existed),
// or an outage kind's name ("crash", "eviction"): the kinds a trace row may be (event_reader.h).
std::optional<EventKind> row_kind(TraceErrors& errors, int line, const std::string& text) {
  if (const auto kind = event_kind_named(text.empty() ? "slowdown" : text, true)) return kind;
  std::string accepted;
  for (const std::string& word : event_kind_words(true)) {
    accepted += accepted.empty() ? word + " (the default, also an empty cell)" : ", " + word;
  }
  errors.at(line, "column 'event': '" + text + "' is not an event (accepted: " + accepted + ")");
  return std::nullopt;
}

// A time column: a number in [0, 1e9] seconds.
std::optional<double> seconds(TraceErrors& errors, int line, const char* column,
                              const std::string& text) {
  static const config::Range kTime = config::Range::at_least(0).up_to(kMaxEventSeconds);
  const auto v = parse_number(text);
  if (!v || !std::isfinite(*v) || !kTime.contains(*v)) {
    errors.at(line, "column '" + std::string(column) + "': '" + text +
                        "' is not a time in seconds (accepted: a number in [0, " +
                        format_number(kMaxEventSeconds) + "])");
    return std::nullopt;
  }
  return v;
}

// A cell that the row's kind has no use for must be empty: a value there would be ignored, and
// nothing is silently ignored. `why` says whose it is.
bool empty_for(TraceErrors& errors, int line, const char* column, const std::string& text,
               const EventKind& kind, const std::string& why) {
  if (text.empty()) return true;
  errors.at(line, "column '" + std::string(column) + "': '" + text + "' on a " +
                      std::string(kind.word) + " row (accepted: an empty cell; " + why + ")");
  return false;
}

// Reads the rows of an opened trace into `found`, slowdowns and outages in file order; every row
// problem is reported, the reading goes on.
void read_rows(TraceReader& in, TraceErrors& errors, const std::string& file,
               DeclaredEvents& found) {
  double previous_start = 0;
  int previous_line = 0;
  for (Cells c; in.read_row(c.node, c.event, c.start, c.end, c.factor, c.notice); c = Cells()) {
    const int line = static_cast<int>(in.get_file_line());
    // Without a known kind the other cells have no rule to be checked against.
    const auto kind = row_kind(errors, line, c.event);
    if (!kind) continue;
    const bool slowdown = kind->shape == EventShape::kSlowdown;
    bool ok = true;
    if (c.node.empty()) {
      errors.at(line, "column 'node': empty (accepted: a host name, e.g. ps or w3)");
      ok = false;
    }
    const auto start = seconds(errors, line, "start_s", c.start);
    // An outage without an end: the node is gone for good.
    const bool for_good = !slowdown && c.end.empty();
    std::optional<double> end;
    if (!for_good) end = seconds(errors, line, "end_s", c.end);
    std::optional<double> factor;
    if (slowdown) {
      factor = parse_number(c.factor);
      if (!factor || !std::isfinite(*factor) || !kSpeedFactorRange.contains(*factor)) {
        errors.at(line, "column 'speed_factor': '" + c.factor +
                            "' is not a speed factor (accepted: a number in (0, 1])");
        ok = false;
      }
    } else {
      ok &= empty_for(errors, line, "speed_factor", c.factor, *kind,
                      "a speed factor belongs to a slowdown row");
    }
    std::optional<double> notice;
    if (!slowdown && cluster::outage_kind(kind->outage).announced) {
      notice = c.notice.empty() ? std::optional<double>(defaults::kEvictionNoticeS)
                                : seconds(errors, line, "notice_s", c.notice);
      ok &= notice.has_value();
    } else {
      ok &= empty_for(errors, line, "notice_s", c.notice, *kind,
                      slowdown ? "a notice belongs to an eviction row"
                               : "a " + std::string(kind->word) + " comes without notice");
    }
    if (!start || (!for_good && !end) || !ok) continue;
    if (end && *end <= *start) {
      errors.at(line, "end_s " + format_number(*end) + " is not after start_s " +
                          format_number(*start) + " (accepted: end_s > start_s" +
                          (slowdown ? ")" : "; empty: gone for good)"));
      continue;
    }
    if (previous_line > 0 && *start < previous_start) {
      errors.at(line, "rows must be sorted by start_s: start_s " + format_number(*start) +
                          " comes after line " + std::to_string(previous_line) + "'s " +
                          format_number(previous_start));
    }
    previous_start = *start;
    previous_line = line;
    EventValues values;
    values.node = c.node;
    values.start_s = *start;
    values.end_s = end;
    if (factor) values.speed_factor = *factor;
    if (notice) values.notice_s = *notice;
    const EventPlace place{.origin = file + " line " + std::to_string(line),
                           .node_path = "/trace/file",
                           .item_path = "/trace/file",
                           .prefix = errors.prefix(line)};
    if (const auto problem = add_event(*kind, values, place, found))
      errors.at(line, problem->message);
  }
}

// Opens `path` and reads it. fccp's header errors become messages naming the accepted columns;
// its structural errors (a row with too few or too many fields) end the reading at that line.
void read_csv(const ResolvedFile& file, TraceErrors& errors, const std::string& written,
              DeclaredEvents& found) {
  const std::string& path = file.path;
  try {
    // Read through read_regular_file: a FIFO, a device or a directory is refused, not waited on.
    std::string text;
    try {
      text = read_regular_file(path, kMaxTraceBytes, "trace");
    } catch (const InputError& e) {
      // "cannot open trace 'P': No such file ..." or "trace 'P' is a FIFO ...": the reason only.
      std::string reason = e.what();
      const std::string quoted = "'" + path + "'";
      if (const auto at = reason.find(quoted); at != std::string::npos) {
        reason = reason.substr(at + quoted.size());
        const auto start = reason.find_first_not_of(": ");
        reason = start == std::string::npos ? "unknown reason" : reason.substr(start);
      }
      errors.whole("cannot open the trace (resolved to " + path +
                   (file.tried.empty() ? "" : "; " + file.tried) + "): " + reason);
      return;
    }
    TraceReader in(path, text.data(), text.data() + text.size());
    try {
      // Missing columns are let through here and checked below: only the required ones are errors.
      in.read_header(io::ignore_missing_column, "node", "event", "start_s", "end_s", "speed_factor",
                     "notice_s");
    } catch (const io::error::extra_column_in_header& e) {
      errors.at(static_cast<int>(in.get_file_line()),
                "unknown column '" + std::string(e.column_name) + "'" + kAccepted);
      return;
    } catch (const io::error::duplicated_column_in_header& e) {
      errors.at(static_cast<int>(in.get_file_line()),
                "duplicated column '" + std::string(e.column_name) + "'" + kAccepted);
      return;
    } catch (const io::error::header_missing&) {
      errors.whole(
          "no header line (required: node,start_s,end_s,speed_factor; optional: event,notice_s)");
      return;
    }
    bool complete = true;
    for (const char* column : kRequiredColumns) {
      if (in.has_column(column)) continue;
      errors.at(static_cast<int>(in.get_file_line()),
                "missing column '" + std::string(column) + "'" + kAccepted);
      complete = false;
    }
    if (complete) read_rows(in, errors, written, found);
  } catch (const io::error::can_not_open_file& e) {
    errors.whole("cannot open the trace (resolved to " + path +
                 (file.tried.empty() ? "" : "; " + file.tried) +
                 "): " + (e.errno_value != 0 ? std::strerror(e.errno_value) : "unknown reason"));
  } catch (const io::error::base& e) {
    errors.whole(e.what());
  }
}

}  // namespace

const ObjectDecl& trace_decl() {
  using config::KeyType;
  static const ObjectDecl decl{
      "trace",
      {{.key = "file",
        .type = KeyType::kString,
        .default_text = "required",
        .accepted = "a CSV file (node, event, start_s, end_s, speed_factor, notice_s), looked for "
                    "beside the scenario, then in the home",
        .help = "CPU slowdowns, crashes and evictions to replay"},
       {.key = "sha256",
        .type = KeyType::kString,
        .default_text = "none",
        .accepted = "64 hex digits",
        .help = "the file's SHA-256; a file with other bytes is an error"}}};
  return decl;
}

std::optional<TraceSpec> read_trace(const Json& value, const FileBase& base, Diagnostics& diags,
                                    Json& out, DeclaredEvents& events) {
  ObjectReader r(value, "/trace", diags, out, trace_decl());
  const auto file = r.string("file", std::nullopt);
  // Recorded in the resolved document: a rerun from it fails if the trace changed since.
  const Json* recorded = r.accept("sha256");
  r.finish();
  if (!file) return std::nullopt;
  TraceSpec trace;
  trace.file = *file;
  const ResolvedFile resolved = resolve_scenario_file(*file, base);
  trace.resolved_path = resolved.path;
  if (resolved.beside_scenario) out["file"] = resolved.path;  // as for prices.file
  TraceErrors errors(diags, *file);
  const std::size_t before = diags.count();
  read_csv(resolved, errors, *file, events);
  if (diags.count() != before) return std::nullopt;
  trace.sha256 = sha256_file(trace.resolved_path).sha256;
  check_recorded_sha256(r, recorded, "trace", *file, trace.sha256);
  out["sha256"] = trace.sha256;
  return trace;
}

}  // namespace hermes::scenario
