#include "sim/metrics/summary_csv.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "base/diagnostics.h"
#include "base/file_read.h"
#include "base/number_text.h"
#include "base/string_join.h"
#include "sim/config/csv_reader.h"
#include "sim/scenario/run_params.h"
#include "sim/scenario/scenario.h"

namespace hermes::metrics {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ---- CSV through the Fast C++ CSV Parser ----

template <unsigned N>
using Reader = io::CSVReader<N, io::trim_chars<' ', '\t'>, io::double_quote_escape<',', '"'>,
                             io::throw_on_overflow, io::empty_line_comment>;

// The first character of a column read_raw asks for only to fill a place (no header has it): it
// is optional and not named in errors.
constexpr char kPlaceHolder = '\x1f';

template <std::size_t N>
struct RawCsv {
  std::vector<std::array<std::string, N>> rows;
  std::vector<int> lines;  // file line of each row
};

// Every row of `path` as text, columns in the order of `columns`. Columns are found by header name
// (extra ones ignored); a missing column is an error unless it is in `optional_columns`, and then
// reads as "" in every row. fccp's own errors (unclosed quote, wrong field count) name the line.
template <std::size_t N, std::size_t... I>
RawCsv<N> read_raw(const std::string& path, std::string_view what,
                   const std::array<std::string_view, N>& columns,
                   const std::vector<std::string_view>& optional_columns,
                   std::index_sequence<I...>) {
  RawCsv<N> out;
  try {
    // Read through read_regular_file: a FIFO, a device or a directory is refused, not waited on.
    const std::string text = read_regular_file(path, kMaxResultCsvBytes, what);
    Reader<static_cast<unsigned>(N)> in(path, text.data(), text.data() + text.size());
    in.read_header(io::ignore_extra_column | io::ignore_missing_column, std::string(columns[I])...);
    std::vector<std::string> missing;
    for (const auto& c : columns) {
      const bool optional =
          std::find(optional_columns.begin(), optional_columns.end(), c) != optional_columns.end();
      if (!optional && !in.has_column(std::string(c)))
        missing.push_back("'" + std::string(c) + "'");
    }
    if (!missing.empty()) {
      std::vector<std::string> all;
      for (const auto& c : columns) {
        if (c.empty() || c.front() != kPlaceHolder) all.emplace_back(c);
      }
      throw InputError(path + ": " + std::string(what) + " has no column" +
                       (missing.size() > 1 ? "s " : " ") + join_strings(missing, ", ") +
                       " (required columns: " + join_strings(all, ",") + "; others are ignored)");
    }
    std::array<std::string, N> fields;
    for (;;) {
      for (auto& f : fields) f.clear();  // fccp leaves absent columns untouched
      if (!in.read_row(fields[I]...)) break;
      out.rows.push_back(fields);
      out.lines.push_back(static_cast<int>(in.get_file_line()));
    }
  } catch (const io::error::base& e) {
    throw InputError(path + ": " + e.what());
  }
  return out;
}

// Converts the text fields of one row, naming file, line, run and column in every error.
class FieldParser {
 public:
  FieldParser(const std::string& path, int line, std::string who)
      : path_(path), line_(line), who_(std::move(who)) {}

  [[noreturn]] void fail(std::string_view column, std::string_view text,
                         std::string_view expected) const {
    throw InputError(path_ + ": line " + std::to_string(line_) + who_ + ": column '" +
                     std::string(column) + "': '" + std::string(text) + "' is not " +
                     std::string(expected));
  }

  // `required`: an empty field is an error; else it reads as `empty_value`.
  double number(std::string_view column, const std::string& text, bool required, double min_value,
                double empty_value = kNaN, bool allow_nan = false) const {
    if (trim(text).empty() && !required) return empty_value;
    const auto v = parse_number(text);
    const std::string expected =
        "a number >= " + shortest(min_value) + (allow_nan ? " (or nan)" : "");
    if (!v) fail(column, text, expected);
    if (std::isnan(*v)) {
      if (!allow_nan) fail(column, text, expected);
      return *v;
    }
    if (!std::isfinite(*v) || *v < min_value) fail(column, text, expected);
    return *v;
  }

  // A loss: a number >= 0, nan or inf (no evaluation, or a diverged run); empty reads as nan.
  double loss(std::string_view column, const std::string& text) const {
    if (trim(text).empty()) return kNaN;
    const auto v = parse_number(text);
    if (!v || *v < 0) fail(column, text, "a loss >= 0 (or nan, inf, empty)");
    return *v;
  }

  std::int64_t count(std::string_view column, const std::string& text, bool required) const {
    if (trim(text).empty() && !required) return 0;
    const auto v = parse_integer(text);
    if (!v || *v < 0) fail(column, text, "a whole number >= 0");
    return *v;
  }

  ParamMap params(std::string_view column, const std::string& text) const {
    try {
      return parse_params(text);
    } catch (const InputError& e) {
      throw InputError(path_ + ": line " + std::to_string(line_) + who_ + ": column '" +
                       std::string(column) + "': " + e.what());
    }
  }

  void non_empty(std::string_view column, const std::string& text) const {
    if (trim(text).empty()) fail(column, text, "a name (the field is empty)");
  }

 private:
  const std::string& path_;
  int line_;
  std::string who_;
};

}  // namespace

// ---- columns ----

const std::vector<std::string_view>& summary_param_columns() {
  static const std::vector<std::string_view> keys = scenario::summary_param_keys();
  return keys;
}

std::vector<std::string> summary_columns() { return summary_columns(summary_param_columns()); }

std::vector<std::string> summary_columns(const std::vector<std::string_view>& params) {
  std::vector<std::string> out(kSummaryRunColumns.begin(), kSummaryRunColumns.end());
  out.insert(out.end(), params.begin(), params.end());
  out.insert(out.end(), kSummaryResultColumns.begin(), kSummaryResultColumns.end());
  return out;
}

// ---- configurations ----

ParamMap configuration_params(std::string_view protocol, const ParamMap& values) {
  const auto known = scenario::parse_protocol(protocol);
  if (!known) return values;
  ParamMap out;
  for (const auto& [key, value] : values) {
    const scenario::RunParam* p = scenario::param_of(*known, key);
    if (p == nullptr || p->column == scenario::ColumnForm::kNever) continue;
    if (p->column == scenario::ColumnForm::kIfChanged &&
        default_param_value(protocol, key) == value) {
      continue;
    }
    out.emplace(key, value);
  }
  return out;
}

std::string param_cell(const scenario::RunSpec& run, std::string_view key) {
  const scenario::RunParam* p = scenario::param_of(run.protocol, key);
  if (p == nullptr || (p->applies != nullptr && !p->applies(run))) return "";
  return canonical_value(
      scenario::param_text(*p, p->value(run), [](double v) { return format_fixed(v, 6); }));
}

ParamMap configuration_of(const scenario::RunSpec& run) {
  ParamMap values;
  for (const std::string_view key : summary_param_columns()) {
    if (std::string cell = param_cell(run, key); !cell.empty()) {
      values.emplace(std::string(key), std::move(cell));
    }
  }
  return configuration_params(scenario::protocol_name(run.protocol), values);
}

bool param_names_runs(std::string_view protocol, std::string_view key) {
  const auto known = scenario::parse_protocol(protocol);
  const scenario::RunParam* p = known ? scenario::param_of(*known, key) : nullptr;
  return p != nullptr && p->name == scenario::NameForm::kValue;
}

std::string default_param_value(std::string_view protocol, std::string_view key) {
  const auto known = scenario::parse_protocol(protocol);
  const scenario::RunParam* p = known ? scenario::param_of(*known, key) : nullptr;
  return p == nullptr ? "" : canonical_value(scenario::param_text(*p, p->fallback, shortest));
}

ParamMap configuration_with_defaults(std::string_view protocol, const ParamMap& named) {
  const auto known = scenario::parse_protocol(protocol);
  if (!known) return named;
  ParamMap values = named;
  for (const scenario::RunParam* p : scenario::params_of(*known)) {
    if (p->column == scenario::ColumnForm::kAlways) {
      values.emplace(std::string(p->key), default_param_value(protocol, p->key));
    }
  }
  return configuration_params(protocol, values);
}

// ---- summary.csv ----

namespace {

// What read_summary_csv reads, at fixed places: the run columns, kMaxSummaryParamColumns places
// for the parameter columns (those declared, then unused places), the result columns, and a
// sweep summary's `point`.
constexpr std::size_t kResultsAt = kSummaryParamsAt + kMaxSummaryParamColumns;
constexpr std::size_t kPointAt = kResultsAt + kSummaryResultColumns.size();
constexpr std::size_t kReadColumns = kPointAt + 1;

// The parameter columns of the first summary.csv format: required. Those declared since may be
// absent from an older file, and read as empty.
constexpr std::array<std::string_view, 11> kFirstParamColumns = {"dynamic_allocation",
                                                                 "staleness",
                                                                 "lookahead",
                                                                 "async_update",
                                                                 "alpha",
                                                                 "beta",
                                                                 "lambda",
                                                                 "window",
                                                                 "variant",
                                                                 "gup",
                                                                 "loss_weighting"};

struct ReadLayout {
  std::array<std::string_view, kReadColumns> columns{};
  std::vector<std::string_view> optional;
};

const ReadLayout& read_layout() {
  static const ReadLayout layout = [] {
    const auto& params = summary_param_columns();
    if (params.size() > kMaxSummaryParamColumns) {
      throw std::logic_error("summary.csv: more parameter columns than kMaxSummaryParamColumns");
    }
    // Unused places get names no header has, and may be absent.
    static std::vector<std::string> unused;
    for (std::size_t k = params.size(); k < kMaxSummaryParamColumns; ++k) {
      unused.push_back(kPlaceHolder + std::string(" unused parameter column ") + std::to_string(k));
    }
    ReadLayout l;
    for (std::size_t i = 0; i < kSummaryRunColumns.size(); ++i)
      l.columns[i] = kSummaryRunColumns[i];
    for (std::size_t k = 0; k < kMaxSummaryParamColumns; ++k) {
      const std::string_view name =
          k < params.size() ? params[k] : std::string_view(unused[k - params.size()]);
      l.columns[kSummaryParamsAt + k] = name;
      if (std::find(kFirstParamColumns.begin(), kFirstParamColumns.end(), name) ==
          kFirstParamColumns.end()) {
        l.optional.push_back(name);
      }
    }
    for (std::size_t i = 0; i < kSummaryResultColumns.size(); ++i) {
      l.columns[kResultsAt + i] = kSummaryResultColumns[i];
    }
    l.columns[kPointAt] = "point";
    l.optional.insert(l.optional.end(), {"speedup_vs_bsp", "cost_usd", "point"});
    return l;
  }();
  return layout;
}

std::size_t column(std::string_view name) {
  const auto& columns = read_layout().columns;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] == name) return i;
  }
  throw std::logic_error("not a summary.csv column: " + std::string(name));
}

// A summary.csv of hermes-sim before the parameter columns has one "params" column instead.
bool has_packed_params(const std::string& path) {
  std::istringstream in(read_regular_file(path, kMaxResultCsvBytes, "summary"));
  std::string header;
  std::getline(in, header);
  return ("," + header + ",").find(",params,") != std::string::npos;
}

}  // namespace

std::vector<SummaryRow> read_summary_csv(const std::string& path) {
  constexpr std::size_t N = kReadColumns;
  RawCsv<N> raw;
  try {
    // Optional (read_layout()): the parameter columns that came after the first format
    // (pull_between_barriers on 2026-12-01, before which E-BSP runs did not pull; server_lr,
    // update_unit, steps_per_update and evaluate_every on 2026-12-02, before which every baseline
    // pushed per chunk and was evaluated after every aggregation; barrier_timeout_s with issue 26,
    // before which no summary told a BSP run with a barrier timeout from one without; and every
    // protocol's since): absent, they read as empty, the defaults. cost_usd came after the
    // parameter columns: a summary without it has no costs. `point` is a sweep summary's alone.
    raw = read_raw(path, "summary", read_layout().columns, read_layout().optional,
                   std::make_index_sequence<N>());
  } catch (const InputError& e) {
    if (!has_packed_params(path)) throw;
    throw InputError(std::string(e.what()) +
                     "; its 'params' column is the format of an older hermes-sim (one column per "
                     "parameter since): run the scenario again");
  }
  std::vector<SummaryRow> rows;
  for (std::size_t i = 0; i < raw.rows.size(); ++i) {
    const auto& f = raw.rows[i];
    const auto at = [&f](std::string_view name) -> const std::string& { return f[column(name)]; };
    SummaryRow r;
    r.line = raw.lines[i];
    r.run = at("run");
    const FieldParser p(path, r.line, r.run.empty() ? "" : " (run '" + r.run + "')");
    p.non_empty("run", r.run);
    p.non_empty("protocol", at("protocol"));
    p.non_empty("status", at("status"));
    r.protocol = at("protocol");
    for (std::size_t k = 0; k < summary_param_columns().size(); ++k) {
      const std::string& cell = f[kSummaryParamsAt + k];
      if (!trim(cell).empty()) {
        r.param_values.emplace(summary_param_columns()[k], canonical_value(trim(cell)));
      }
    }
    r.params = configuration_params(r.protocol, r.param_values);
    r.point = std::string(trim(at("point")));
    r.status = at("status");
    r.stop_reason = at("stop_reason");
    // A run that did not complete may leave its results empty; a completed one may not.
    const bool req = r.ok();
    if (!(trim(at("seed")).empty() && !req)) {
      const auto seed = parse_unsigned(at("seed"));  // scenario seeds use all 64 bits
      if (!seed) p.fail("seed", at("seed"), "a whole number >= 0");
      r.seed = *seed;
    }
    r.iterations = p.count("iterations", at("iterations"), req);
    r.local_iterations = p.count("local_iterations", at("local_iterations"), req);
    r.sim_time_s = p.number("sim_time_s", at("sim_time_s"), req, 0.0);
    if (req && r.sim_time_s <= 0) {
      p.fail("sim_time_s", at("sim_time_s"), "a time > 0 for a completed run");
    }
    r.wi_avg = p.number("wi_avg", at("wi_avg"), req, 0.0);
    r.accuracy = p.number("accuracy", at("accuracy"), req, 0.0);
    if (r.accuracy > 1)
      p.fail("accuracy", at("accuracy"), "a fraction in [0, 1] (not a percentage)");
    // Losses may be nan or inf: a run that diverged, or one stopped before any evaluation.
    r.loss = p.loss("loss", at("loss"));
    r.final_loss = p.loss("final_loss", at("final_loss"));
    r.api_calls = p.count("api_calls", at("api_calls"), req);
    r.bytes = p.number("bytes", at("bytes"), req, 0.0);
    r.major_updates = p.count("major_updates", at("major_updates"), req);
    if (const std::string& s = at("speedup_vs_bsp"); !trim(s).empty()) {
      r.speedup_vs_bsp = p.number("speedup_vs_bsp", s, true, 0.0);
      if (*r.speedup_vs_bsp <= 0) p.fail("speedup_vs_bsp", s, "a ratio > 0 (or empty)");
    }
    if (const std::string& s = at("cost_usd"); !trim(s).empty()) {
      r.cost_usd = p.number("cost_usd", s, true, 0.0);
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

// ---- reference ----

std::vector<ReferenceRow> read_reference_csv(const std::string& path) {
  constexpr std::size_t N = kReferenceColumns.size();
  const RawCsv<N> raw =
      read_raw(path, "reference table", kReferenceColumns, {}, std::make_index_sequence<N>());
  std::vector<ReferenceRow> rows;
  for (std::size_t i = 0; i < raw.rows.size(); ++i) {
    const auto& f = raw.rows[i];
    ReferenceRow r;
    r.line = raw.lines[i];
    r.framework = f[0];
    const FieldParser p(path, r.line, r.framework.empty() ? "" : " (" + r.framework + ")");
    p.non_empty("framework", f[0]);
    p.non_empty("protocol", f[1]);
    r.protocol = f[1];
    r.params = p.params("params", f[2]);
    r.iterations = p.number("iterations", f[3], true, 0.0);
    r.training_time_min = p.number("training_time_min", f[4], true, 0.0);
    r.wi_avg = p.number("wi_avg", f[5], true, 0.0);
    r.accuracy_pct = p.number("accuracy_pct", f[6], true, 0.0);
    if (r.accuracy_pct > 100) p.fail("accuracy_pct", f[6], "a percentage in [0, 100]");
    r.api_calls_m = p.number("api_calls_m", f[7], true, 0.0);
    r.speedup_vs_bsp = p.number("speedup_vs_bsp", f[8], true, 0.0);
    for (const auto& prev : rows) {
      if (prev.protocol == r.protocol && prev.params == r.params) {
        throw InputError(path + ": line " + std::to_string(r.line) + ": protocol '" + r.protocol +
                         "' with params '" + params_text(r.params) + "' repeats line " +
                         std::to_string(prev.line) + " (a run could not tell them apart)");
      }
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace hermes::metrics
