#include "sim/metrics/summary_table.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <sstream>
#include <utility>

#include "sim/common/diagnostics.h"
#include "sim/metrics/csv_reader.h"
#include "sim/metrics/csv_writer.h"

namespace hermes::metrics {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The whole of `s` as a decimal number (std::from_chars: exact, locale-independent). A leading
// '+' is accepted because people write "+5"; nan and inf parse, callers decide if they may.
std::optional<double> parse_number(std::string_view s) {
  s = trim(s);
  if (!s.empty() && s.front() == '+') {
    s.remove_prefix(1);
    if (!s.empty() && s.front() == '-') return std::nullopt;
  }
  if (s.empty()) return std::nullopt;
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<std::int64_t> parse_integer(std::string_view s) {
  s = trim(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return std::nullopt;
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<std::uint64_t> parse_unsigned(std::string_view s) {
  s = trim(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return std::nullopt;
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// Shortest text that reads back as exactly `v` ("125", "-1.6", "1e-05").
std::string shortest(double v) {
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, res.ptr);
  return s == "-0" ? "0" : s;
}

std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += sep;
    out += items[i];
  }
  return out;
}

std::string params_text(const ParamMap& params) {
  std::vector<std::string> parts;
  for (const auto& [k, v] : params) parts.push_back(k + "=" + v);
  return join(parts, ";");
}

bool valid_key(std::string_view key) {
  if (key.empty()) return false;
  return std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '-';
  });
}

// ---- CSV through the Fast C++ CSV Parser ----

template <unsigned N>
using Reader = io::CSVReader<N, io::trim_chars<' ', '\t'>, io::double_quote_escape<',', '"'>,
                             io::throw_on_overflow, io::empty_line_comment>;

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
    Reader<static_cast<unsigned>(N)> in(path);
    in.read_header(io::ignore_extra_column | io::ignore_missing_column, std::string(columns[I])...);
    std::vector<std::string> missing;
    for (const auto& c : columns) {
      const bool optional =
          std::find(optional_columns.begin(), optional_columns.end(), c) != optional_columns.end();
      if (!optional && !in.has_column(std::string(c)))
        missing.push_back("'" + std::string(c) + "'");
    }
    if (!missing.empty()) {
      std::vector<std::string> all(columns.begin(), columns.end());
      throw InputError(path + ": " + std::string(what) + " has no column" +
                       (missing.size() > 1 ? "s " : " ") + join(missing, ", ") +
                       " (required columns: " + join(all, ",") + "; others are ignored)");
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

// ---- params ----

ParamMap parse_params(std::string_view params) {
  ParamMap out;
  const auto error = [&](const std::string& why) {
    return InputError("params '" + std::string(params) + "': " + why +
                      " (expected key=value;key=value)");
  };
  std::size_t pos = 0;
  while (pos <= params.size()) {
    std::size_t end = params.find(';', pos);
    if (end == std::string_view::npos) end = params.size();
    const std::string_view segment = trim(params.substr(pos, end - pos));
    pos = end + 1;
    if (segment.empty()) continue;
    const std::size_t eq = segment.find('=');
    if (eq == std::string_view::npos) {
      throw error("'" + std::string(segment) + "' has no '='");
    }
    const std::string key(trim(segment.substr(0, eq)));
    const std::string_view value = trim(segment.substr(eq + 1));
    if (!valid_key(key)) throw error("key '" + key + "' is not [A-Za-z0-9_.-]+");
    if (value.empty()) throw error("key '" + key + "' has no value");
    if (value.find('=') != std::string_view::npos) {
      throw error("value of '" + key + "' contains '='");
    }
    const auto number = parse_number(value);
    std::string canonical =
        number && std::isfinite(*number) ? shortest(*number) : std::string(value);
    if (!out.emplace(key, std::move(canonical)).second) throw error("key '" + key + "' repeated");
  }
  return out;
}

std::string canonical_params(std::string_view params) { return params_text(parse_params(params)); }

bool params_match(const ParamMap& reference, const ParamMap& run) {
  return std::all_of(reference.begin(), reference.end(), [&](const auto& kv) {
    const auto it = run.find(kv.first);
    return it != run.end() && it->second == kv.second;
  });
}

// ---- summary.csv ----

std::vector<SummaryRow> read_summary_csv(const std::string& path) {
  constexpr std::size_t N = kSummaryColumns.size();
  const RawCsv<N> raw =
      read_raw(path, "summary", kSummaryColumns, {"speedup_vs_bsp"}, std::make_index_sequence<N>());
  std::vector<SummaryRow> rows;
  for (std::size_t i = 0; i < raw.rows.size(); ++i) {
    const auto& f = raw.rows[i];
    SummaryRow r;
    r.line = raw.lines[i];
    r.run = f[0];
    const FieldParser p(path, r.line, r.run.empty() ? "" : " (run '" + r.run + "')");
    p.non_empty("run", f[0]);
    p.non_empty("protocol", f[1]);
    p.non_empty("status", f[4]);
    r.protocol = f[1];
    r.params = p.params("params", f[2]);
    r.status = f[4];
    r.stop_reason = f[5];
    // A run that did not complete may leave its results empty; a completed one may not.
    const bool req = r.ok();
    if (!(trim(f[3]).empty() && !req)) {
      const auto seed = parse_unsigned(f[3]);  // scenario seeds use all 64 bits
      if (!seed) p.fail("seed", f[3], "a whole number >= 0");
      r.seed = *seed;
    }
    r.iterations = p.count("iterations", f[6], req);
    r.local_iterations = p.count("local_iterations", f[7], req);
    r.sim_time_s = p.number("sim_time_s", f[8], req, 0.0);
    if (req && r.sim_time_s <= 0) p.fail("sim_time_s", f[8], "a time > 0 for a completed run");
    r.wi_avg = p.number("wi_avg", f[9], req, 0.0);
    r.accuracy = p.number("accuracy", f[10], req, 0.0);
    if (r.accuracy > 1) p.fail("accuracy", f[10], "a fraction in [0, 1] (not a percentage)");
    r.loss = p.number("loss", f[11], req, 0.0, kNaN, /*allow_nan=*/true);
    r.api_calls = p.count("api_calls", f[12], req);
    r.bytes = p.number("bytes", f[13], req, 0.0);
    r.major_updates = p.count("major_updates", f[14], req);
    if (!trim(f[15]).empty()) {
      r.speedup_vs_bsp = p.number("speedup_vs_bsp", f[15], true, 0.0);
      if (*r.speedup_vs_bsp <= 0) p.fail("speedup_vs_bsp", f[15], "a ratio > 0 (or empty)");
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

// ---- the join ----

Stat stat_of(const std::vector<double>& values) {
  Stat s;
  if (values.empty()) return s;
  s.n = static_cast<int>(values.size());
  s.min = *std::min_element(values.begin(), values.end());
  s.max = *std::max_element(values.begin(), values.end());
  double sum = 0;
  for (double v : values) sum += v;
  s.mean = sum / static_cast<double>(values.size());
  return s;
}

namespace {

struct Group {
  std::string protocol;
  ParamMap params;
  std::vector<const SummaryRow*> rows;
  std::optional<std::size_t> ref;  // index of the matched reference row
};

// Of several configurations, the one a headline uses: most runs (the best estimate), then the
// first in the file.
std::optional<std::size_t> primary(const std::vector<Group>& groups,
                                   const std::vector<std::size_t>& candidates) {
  std::optional<std::size_t> best;
  for (std::size_t g : candidates) {
    if (!best || groups[g].rows.size() > groups[*best].rows.size()) best = g;
  }
  return best;
}

Stat stat_over(const Group& g, double (*field)(const SummaryRow&)) {
  std::vector<double> v;
  for (const SummaryRow* r : g.rows) v.push_back(field(*r));
  return stat_of(v);
}

SimConfig make_config(const Group& g, std::optional<double> baseline_time_s) {
  SimConfig c;
  c.protocol = g.protocol;
  c.params = g.params;
  for (const SummaryRow* r : g.rows) c.runs.push_back(r->run);
  c.iterations =
      stat_over(g, [](const SummaryRow& r) { return static_cast<double>(r.iterations); });
  c.time_min = stat_over(g, [](const SummaryRow& r) { return r.sim_time_s / 60.0; });
  c.wi_avg = stat_over(g, [](const SummaryRow& r) { return r.wi_avg; });
  c.accuracy_pct = stat_over(g, [](const SummaryRow& r) { return r.accuracy * 100.0; });
  c.api_calls_m =
      stat_over(g, [](const SummaryRow& r) { return static_cast<double>(r.api_calls) / 1e6; });
  const bool all_given = std::all_of(g.rows.begin(), g.rows.end(), [](const SummaryRow* r) {
    return r->speedup_vs_bsp.has_value();
  });
  if (all_given) {
    c.speedup = stat_over(g, [](const SummaryRow& r) { return *r.speedup_vs_bsp; });
  } else if (baseline_time_s) {
    // speedup = BSP time / time, on mean times (the paper's definition applied to seed means);
    // the range divides the same BSP mean by this configuration's slowest and fastest run.
    const Stat t = stat_over(g, [](const SummaryRow& r) { return r.sim_time_s; });
    Stat s;
    s.n = t.n;
    s.mean = *baseline_time_s / t.mean;
    s.min = *baseline_time_s / t.max;
    s.max = *baseline_time_s / t.min;
    c.speedup = s;
    c.speedup_computed = true;
  }
  return c;
}

std::string unmatched_label(const Group& g) {
  return g.params.empty() ? g.protocol : g.protocol + " " + params_text(g.params);
}

std::string runs_text(std::size_t n) { return std::to_string(n) + (n == 1 ? " run" : " runs"); }

}  // namespace

Comparison compare_with_reference(const std::vector<SummaryRow>& summary,
                                  const std::vector<ReferenceRow>& reference) {
  Comparison out;
  std::vector<Group> groups;
  for (const SummaryRow& r : summary) {
    if (!r.ok()) {
      out.excluded.push_back(r.run + " (" + r.status + ")");
      continue;
    }
    auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
      return g.protocol == r.protocol && g.params == r.params;
    });
    if (it == groups.end()) it = groups.insert(groups.end(), Group{r.protocol, r.params, {}, {}});
    it->rows.push_back(&r);
  }
  for (Group& g : groups) {
    for (std::size_t i = 0; i < reference.size(); ++i) {
      const ReferenceRow& ref = reference[i];
      if (ref.protocol != g.protocol || !params_match(ref.params, g.params)) continue;
      // The most specific reference row wins: a run with alpha=-1.6;beta=0.15 is the paper's
      // "alpha=-1.6, beta=0.15" row, not an "alpha=-1.6" one.
      if (!g.ref || ref.params.size() > reference[*g.ref].params.size()) g.ref = i;
    }
  }
  const auto groups_of_ref = [&](std::size_t i) {
    std::vector<std::size_t> v;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      if (groups[g].ref == i) v.push_back(g);
    }
    return v;
  };
  const auto first_ref = [&](std::string_view protocol) -> std::optional<std::size_t> {
    for (std::size_t i = 0; i < reference.size(); ++i) {
      if (reference[i].protocol == protocol) return i;
    }
    return std::nullopt;
  };

  // The simulated BSP baseline for computed speedups: the BSP configuration matched to the
  // reference BSP row, else any BSP configuration.
  const std::optional<std::size_t> ref_bsp = first_ref("bsp");
  std::optional<std::size_t> base =
      ref_bsp ? primary(groups, groups_of_ref(*ref_bsp)) : std::nullopt;
  if (!base) {
    std::vector<std::size_t> bsp;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      if (groups[g].protocol == "bsp") bsp.push_back(g);
    }
    base = primary(groups, bsp);
  }
  std::optional<double> base_time;
  if (base) {
    base_time = stat_over(groups[*base], [](const SummaryRow& r) { return r.sim_time_s; }).mean;
    out.baseline = unmatched_label(groups[*base]) + " (" + runs_text(groups[*base].rows.size()) +
                   ", mean " + format_fixed(*base_time / 60.0, 2) + " min)";
  }
  std::vector<SimConfig> configs;
  for (const Group& g : groups) configs.push_back(make_config(g, base_time));

  for (std::size_t i = 0; i < reference.size(); ++i) {
    const std::vector<std::size_t> matched = groups_of_ref(i);
    if (matched.empty()) {
      out.rows.push_back({reference[i].framework, reference[i], std::nullopt});
      out.not_simulated.push_back(reference[i].framework);
    }
    for (std::size_t g : matched) {
      std::string label = reference[i].framework;
      if (matched.size() > 1) {
        // Several configurations share the row: name what sets each apart.
        ParamMap extra = groups[g].params;
        for (const auto& kv : reference[i].params) extra.erase(kv.first);
        if (!extra.empty()) label += " [" + params_text(extra) + "]";
      }
      out.rows.push_back({label, reference[i], configs[g]});
    }
  }
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].ref) continue;
    out.rows.push_back({unmatched_label(groups[g]), std::nullopt, configs[g]});
    out.not_in_reference.push_back(unmatched_label(groups[g]) + " (" +
                                   runs_text(groups[g].rows.size()) + ")");
  }

  // ---- headlines ----
  // The paper's Hermes is its best-speedup row (13.22x: alpha=-1.6, beta=0.15); the simulated
  // side uses the configuration matched to that same row, so both sides compare one setting.
  std::optional<std::size_t> ref_hermes;
  for (std::size_t i = 0; i < reference.size(); ++i) {
    if (reference[i].protocol != "hermes") continue;
    if (!ref_hermes || reference[i].speedup_vs_bsp > reference[*ref_hermes].speedup_vs_bsp) {
      ref_hermes = i;
    }
  }
  const std::optional<std::size_t> ref_ssp = first_ref("ssp");
  const auto sim_of = [&](std::optional<std::size_t> ref) -> const SimConfig* {
    if (!ref) return nullptr;
    const auto g = primary(groups, groups_of_ref(*ref));
    return g ? &configs[*g] : nullptr;
  };
  const SimConfig* sim_hermes = sim_of(ref_hermes);
  const SimConfig* sim_bsp = sim_of(ref_bsp);
  const SimConfig* sim_ssp = sim_of(ref_ssp);
  const std::string hermes_label = ref_hermes ? reference[*ref_hermes].framework : "Hermes";
  const auto missing = [](const char* what) { return std::string("no simulated ") + what; };

  {
    Headline h{"Hermes' best speedup vs BSP", Headline::Unit::kTimes, {}, {}, {}};
    std::vector<std::string> notes;
    std::optional<std::size_t> best;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      if (groups[g].protocol != "hermes" || !configs[g].speedup) continue;
      if (!best || configs[g].speedup->mean > configs[*best].speedup->mean) best = g;
    }
    if (best) {
      h.sim = configs[*best].speedup->mean;
      const std::string label = groups[*best].ref ? reference[*groups[*best].ref].framework
                                                  : unmatched_label(groups[*best]);
      notes.push_back("sim: " + label);
    } else {
      notes.push_back(missing("Hermes run with a speedup"));
    }
    if (ref_hermes) {
      h.paper = reference[*ref_hermes].speedup_vs_bsp;
      notes.push_back("paper: " + hermes_label);
    }
    h.note = join(notes, "; ");
    out.headlines.push_back(h);
  }
  const auto reduction = [&](const char* base_name, std::optional<std::size_t> ref_base,
                             const SimConfig* sim_base) {
    Headline h{"API calls: 1 - Hermes/" + std::string(base_name),
               Headline::Unit::kPercent,
               {},
               {},
               hermes_label + " vs " + base_name};
    if (ref_hermes && ref_base && reference[*ref_base].api_calls_m > 0) {
      h.paper = 1.0 - reference[*ref_hermes].api_calls_m / reference[*ref_base].api_calls_m;
    }
    if (sim_hermes && sim_base && sim_base->api_calls_m.mean > 0) {
      h.sim = 1.0 - sim_hermes->api_calls_m.mean / sim_base->api_calls_m.mean;
    } else {
      h.note += "; " + missing(sim_hermes ? base_name : "Hermes row");
    }
    return h;
  };
  out.headlines.push_back(reduction("SSP", ref_ssp, sim_ssp));
  out.headlines.push_back(reduction("BSP", ref_bsp, sim_bsp));
  {
    Headline h{"accuracy: Hermes - BSP (points)",
               Headline::Unit::kPoints,
               {},
               {},
               hermes_label + " vs BSP"};
    if (ref_hermes && ref_bsp) {
      h.paper = reference[*ref_hermes].accuracy_pct - reference[*ref_bsp].accuracy_pct;
    }
    if (sim_hermes && sim_bsp) {
      h.sim = sim_hermes->accuracy_pct.mean - sim_bsp->accuracy_pct.mean;
    } else {
      h.note += "; " + missing(sim_hermes ? "BSP" : "Hermes row");
    }
    out.headlines.push_back(h);
  }
  return out;
}

// ---- output ----

std::optional<TableFormat> parse_table_format(std::string_view name) {
  if (name == "text") return TableFormat::kText;
  if (name == "csv") return TableFormat::kCsv;
  if (name == "markdown") return TableFormat::kMarkdown;
  return std::nullopt;
}

std::string format_min_decimals(double value, int min_decimals) {
  if (!std::isfinite(value)) return format_fixed(value, 0);
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed);
  std::string s(buf, res.ptr);
  if (s == "-0") s = "0";
  if (min_decimals <= 0) return s;
  std::size_t dot = s.find('.');
  if (dot == std::string::npos) {
    s += '.';
    dot = s.size() - 1;
  }
  const std::size_t decimals = s.size() - dot - 1;
  if (decimals < static_cast<std::size_t>(min_decimals)) {
    s.append(static_cast<std::size_t>(min_decimals) - decimals, '0');
  }
  return s;
}

namespace {

// A table rendered as aligned text or as Markdown. Columns with the same non-empty `group` next to
// each other share a label line in text ("iterations" over "sim  paper").
struct Table {
  struct Column {
    std::string group, name;
    bool right = true;
  };
  std::vector<Column> columns;
  std::vector<std::vector<std::string>> rows;
};

std::string rtrim(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

std::string pad(const std::string& s, std::size_t width, bool right) {
  if (s.size() >= width) return s;
  const std::string fill(width - s.size(), ' ');
  return right ? fill + s : s + fill;
}

void render_text(std::ostream& os, const Table& t) {
  const std::size_t nc = t.columns.size();
  std::vector<std::size_t> width(nc);
  for (std::size_t c = 0; c < nc; ++c) {
    width[c] = t.columns[c].name.size();
    for (const auto& row : t.rows) width[c] = std::max(width[c], row[c].size());
  }
  // Spans of columns sharing a group; a group label wider than its columns widens the last one.
  std::vector<std::pair<std::size_t, std::size_t>> spans;  // [first, last]
  for (std::size_t c = 0; c < nc; ++c) {
    if (c > 0 && !t.columns[c].group.empty() && t.columns[c].group == t.columns[c - 1].group) {
      spans.back().second = c;
    } else {
      spans.emplace_back(c, c);
    }
  }
  const auto span_width = [&](const std::pair<std::size_t, std::size_t>& s) {
    std::size_t w = 0;
    for (std::size_t c = s.first; c <= s.second; ++c) w += width[c] + (c > s.first ? 2 : 0);
    return w;
  };
  bool any_group = false;
  for (const auto& s : spans) {
    const std::string& label = t.columns[s.first].group;
    any_group = any_group || !label.empty();
    const std::size_t w = span_width(s);
    if (label.size() > w) width[s.second] += label.size() - w;
  }
  const auto line = [&](const std::function<std::string(std::size_t)>& cell, const char* inner,
                        const char* outer) {
    std::string text;
    for (std::size_t si = 0; si < spans.size(); ++si) {
      if (si > 0) text += outer;
      for (std::size_t c = spans[si].first; c <= spans[si].second; ++c) {
        if (c > spans[si].first) text += inner;
        text += cell(c);
      }
    }
    os << rtrim(text) << '\n';
  };
  if (any_group) {
    std::string text;
    for (std::size_t si = 0; si < spans.size(); ++si) {
      if (si > 0) text += " | ";
      text += pad(t.columns[spans[si].first].group, span_width(spans[si]), false);
    }
    os << rtrim(text) << '\n';
  }
  line([&](std::size_t c) { return pad(t.columns[c].name, width[c], t.columns[c].right); }, "  ",
       " | ");
  line([&](std::size_t c) { return std::string(width[c], '-'); }, "--", "-+-");
  for (const auto& row : t.rows) {
    line([&](std::size_t c) { return pad(row[c], width[c], t.columns[c].right); }, "  ", " | ");
  }
}

std::string md_escape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    if (ch == '|') out += '\\';
    out += ch;
  }
  return out;
}

void render_markdown(std::ostream& os, const Table& t) {
  os << '|';
  for (const auto& c : t.columns) {
    os << ' ' << md_escape(c.group.empty() ? c.name : c.group + " " + c.name) << " |";
  }
  os << "\n|";
  for (const auto& c : t.columns) os << (c.right ? "---:|" : "---|");
  os << '\n';
  for (const auto& row : t.rows) {
    os << '|';
    for (const auto& cell : row) os << ' ' << md_escape(cell) << " |";
    os << '\n';
  }
}

constexpr const char* kNone = "-";

std::string signed_fixed(double v, int decimals) {
  std::string s = format_fixed(v, decimals);
  if (s[0] != '-' && s.find_first_not_of("0.") != std::string::npos) s = "+" + s;
  return s;
}

std::string percent(double fraction) { return format_fixed(fraction * 100.0, 1) + "%"; }

std::string headline_value(const std::optional<double>& v, Headline::Unit unit) {
  if (!v) return kNone;
  switch (unit) {
    case Headline::Unit::kTimes:
      return format_fixed(*v, 2) + "x";
    case Headline::Unit::kPercent:
      return percent(*v);
    case Headline::Unit::kPoints:
      return signed_fixed(*v, 2);
  }
  return kNone;
}

// One displayed metric: how to take it from each side and how to print it.
struct Metric {
  const char* group;
  const char* csv_name;
  const Stat SimConfig::*sim;  // nullptr: speedup (optional)
  double ReferenceRow::*paper;
  int sim_decimals;    // text/markdown
  int paper_decimals;  // minimum; the paper's own digits are kept
  int csv_decimals;
  const char* suffix;
};

const std::vector<Metric>& metrics() {
  static const std::vector<Metric> m = {
      {"iterations", "iterations", &SimConfig::iterations, &ReferenceRow::iterations, 0, 0, 3, ""},
      {"time (min)", "time_min", &SimConfig::time_min, &ReferenceRow::training_time_min, 2, 2, 4,
       ""},
      {"WI", "wi_avg", &SimConfig::wi_avg, &ReferenceRow::wi_avg, 2, 2, 4, ""},
      {"accuracy (%)", "accuracy_pct", &SimConfig::accuracy_pct, &ReferenceRow::accuracy_pct, 2, 2,
       4, ""},
      {"API calls (M)", "api_calls_m", &SimConfig::api_calls_m, &ReferenceRow::api_calls_m, 2, 1, 6,
       ""},
      {"speedup vs BSP", "speedup_vs_bsp", nullptr, &ReferenceRow::speedup_vs_bsp, 2, 2, 4, "x"},
  };
  return m;
}

std::optional<Stat> sim_stat(const SimConfig& c, const Metric& m) {
  if (m.sim == nullptr) return c.speedup;
  return c.*(m.sim);
}

bool any_computed_speedup(const Comparison& cmp) {
  return std::any_of(cmp.rows.begin(), cmp.rows.end(),
                     [](const ComparisonRow& r) { return r.sim && r.sim->speedup_computed; });
}

Table main_table(const Comparison& cmp) {
  Table t;
  t.columns.push_back({"", "framework", false});
  t.columns.push_back({"", "runs", true});
  for (const Metric& m : metrics()) {
    t.columns.push_back({m.group, "sim", true});
    t.columns.push_back({m.group, "paper", true});
    if (m.paper == &ReferenceRow::accuracy_pct) t.columns.push_back({m.group, "diff", true});
  }
  for (const ComparisonRow& r : cmp.rows) {
    std::vector<std::string> cells = {r.label, r.sim ? std::to_string(r.sim->runs.size()) : "0"};
    for (const Metric& m : metrics()) {
      const std::optional<Stat> s = r.sim ? sim_stat(*r.sim, m) : std::nullopt;
      std::string sim = s ? format_fixed(s->mean, m.sim_decimals) + m.suffix : kNone;
      // '*': computed here from sim_time_s, not written by the simulator (see the note).
      if (s && m.sim == nullptr && r.sim->speedup_computed) sim += "*";
      cells.push_back(sim);
      cells.push_back(r.ref ? format_min_decimals((*r.ref).*(m.paper), m.paper_decimals) + m.suffix
                            : kNone);
      if (m.paper == &ReferenceRow::accuracy_pct) {
        cells.push_back(s && r.ref ? signed_fixed(s->mean - r.ref->accuracy_pct, 2) : kNone);
      }
    }
    t.rows.push_back(std::move(cells));
  }
  return t;
}

// Seed ranges (min-max) of the configurations that have several runs; empty if none has.
Table range_table(const Comparison& cmp) {
  Table t;
  t.columns.push_back({"", "framework", false});
  t.columns.push_back({"", "runs", true});
  for (const Metric& m : metrics()) t.columns.push_back({"", m.group, true});
  for (const ComparisonRow& r : cmp.rows) {
    if (!r.sim || r.sim->runs.size() < 2) continue;
    std::vector<std::string> cells = {r.label, std::to_string(r.sim->runs.size())};
    for (const Metric& m : metrics()) {
      const std::optional<Stat> s = sim_stat(*r.sim, m);
      cells.push_back(s ? format_fixed(s->min, m.sim_decimals) + "-" +
                              format_fixed(s->max, m.sim_decimals) + m.suffix
                        : kNone);
    }
    t.rows.push_back(std::move(cells));
  }
  return t;
}

Table headline_table(const Comparison& cmp) {
  Table t;
  t.columns = {
      {"", "headline", false}, {"", "sim", true}, {"", "paper", true}, {"", "from", false}};
  for (const Headline& h : cmp.headlines) {
    t.rows.push_back(
        {h.name, headline_value(h.sim, h.unit), headline_value(h.paper, h.unit), h.note});
  }
  return t;
}

std::vector<std::string> notes(const Comparison& cmp) {
  std::vector<std::string> n;
  n.push_back(
      "sim: mean over the runs (seeds) of each configuration (same protocol and params); "
      "accuracy diff = sim - paper in percentage points");
  if (any_computed_speedup(cmp)) {
    n.push_back("speedup marked * = mean simulated BSP time / mean time, against " +
                (cmp.baseline.empty() ? std::string("-") : cmp.baseline) +
                " (summary.csv had no speedup_vs_bsp)");
  }
  if (!cmp.not_simulated.empty()) n.push_back("not simulated: " + join(cmp.not_simulated, ", "));
  if (!cmp.not_in_reference.empty()) {
    n.push_back("not in reference: " + join(cmp.not_in_reference, ", "));
  }
  if (!cmp.excluded.empty()) {
    n.push_back("excluded (status not ok): " + join(cmp.excluded, ", "));
  }
  return n;
}

void write_csv(std::ostream& os, const Comparison& cmp) {
  std::vector<std::string> cols = {"label",      "match", "protocol", "reference_params",
                                   "sim_params", "runs"};
  for (const Metric& m : metrics()) {
    for (const char* part : {"_sim", "_sim_min", "_sim_max", "_paper"}) {
      cols.push_back(std::string(m.csv_name) + part);
    }
  }
  cols.push_back("accuracy_diff_pts");
  cols.push_back("speedup_computed");
  CsvWriter w(os, cols);
  for (const ComparisonRow& r : cmp.rows) {
    w.field(r.label);
    w.field(r.ref && r.sim ? "matched" : r.ref ? "not_simulated" : "not_in_reference");
    w.field(r.ref ? r.ref->protocol : r.sim->protocol);
    if (r.ref) {
      w.field(params_text(r.ref->params));
    } else {
      w.empty();
    }
    if (r.sim) {
      w.field(params_text(r.sim->params));
    } else {
      w.empty();
    }
    w.field(static_cast<std::int64_t>(r.sim ? r.sim->runs.size() : 0));
    for (const Metric& m : metrics()) {
      const std::optional<Stat> s = r.sim ? sim_stat(*r.sim, m) : std::nullopt;
      for (double Stat::*part : {&Stat::mean, &Stat::min, &Stat::max}) {
        if (s) {
          w.field((*s).*part, m.csv_decimals);
        } else {
          w.empty();
        }
      }
      if (r.ref) {
        w.field(format_min_decimals((*r.ref).*(m.paper), 0));
      } else {
        w.empty();
      }
    }
    if (r.ref && r.sim) {
      w.field(r.sim->accuracy_pct.mean - r.ref->accuracy_pct, 4);
    } else {
      w.empty();
    }
    if (r.sim && r.sim->speedup) {
      w.field(r.sim->speedup_computed ? "true" : "false");
    } else {
      w.empty();
    }
    w.end_row();
  }
}

}  // namespace

void write_comparison(std::ostream& os, const Comparison& cmp, TableFormat format) {
  if (format == TableFormat::kCsv) {
    write_csv(os, cmp);
    return;
  }
  const bool md = format == TableFormat::kMarkdown;
  const auto render = [&](const Table& t) { md ? render_markdown(os, t) : render_text(os, t); };
  render(main_table(cmp));
  os << '\n';
  for (const std::string& n : notes(cmp)) os << (md ? "- " : "") << n << '\n';
  const Table ranges = range_table(cmp);
  if (!ranges.rows.empty()) {
    os << "\n" << (md ? "Range over runs (min-max):\n\n" : "range over runs (min-max):\n");
    render(ranges);
  }
  os << "\n"
     << (md ? "Headlines (paper: computed from the reference table):\n\n"
            : "headlines (paper: computed from the reference table):\n");
  render(headline_table(cmp));
}

}  // namespace hermes::metrics
