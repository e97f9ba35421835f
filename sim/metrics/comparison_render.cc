#include "sim/metrics/comparison_render.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "base/number_text.h"
#include "base/string_join.h"
#include "sim/config/text_table.h"
#include "sim/metrics/csv_writer.h"

namespace hermes::metrics {

using config::render_markdown;
using config::render_text;
using config::TextTable;

std::optional<TableFormat> parse_table_format(std::string_view name) {
  if (name == "text") return TableFormat::kText;
  if (name == "csv") return TableFormat::kCsv;
  if (name == "markdown") return TableFormat::kMarkdown;
  if (name == "json") return TableFormat::kJson;
  return std::nullopt;
}

namespace {

constexpr const char* kNone = "-";

std::string signed_fixed(double v, int decimals) {
  std::string s = format_fixed(v, decimals);
  if (s[0] != '-' && s.find_first_not_of("0.") != std::string::npos) s = "+" + s;
  return s;
}

// Width of the notes and warnings in text output.
constexpr std::size_t kProseWidth = 100;

// `text` broken at spaces into lines of at most `width` characters (a longer word stays whole),
// every line after the first indented by `indent`.
std::string wrap_words(const std::string& text, std::size_t width, const std::string& indent) {
  std::string out, line;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find(' ', pos);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(pos, end - pos);
    pos = end + 1;
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line = indent + word;
    } else {
      line += (line.empty() ? "" : " ") + word;
    }
  }
  return out + line;
}

std::string percent(double fraction) { return format_fixed(fraction * 100.0, 1) + "%"; }

}  // namespace

std::string headline_text(const std::optional<double>& v, Headline::Unit unit) {
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

namespace {

// One displayed metric: how to take it from each side and how to print it. A metric a
// configuration or a run may lack (speedup, cost) is read through the optional_ members instead.
struct Metric {
  const char* group;
  const char* csv_name;
  const Stat SimConfig::*sim;   // nullptr: read optional_sim
  double ReferenceRow::*paper;  // nullptr: the paper gives none (cost): no paper column
  int sim_decimals;             // text/markdown
  int paper_decimals;           // minimum; the paper's own digits are kept
  int csv_decimals;
  const char* suffix;
  double (*of_run)(const SummaryRow&);  // the metric of one run; nullptr: read optional_run
  const std::optional<Stat> SimConfig::*optional_sim;
  const std::optional<double> SummaryRow::*optional_run;
};

const std::vector<Metric>& metrics() {
  static const std::vector<Metric> m = {
      {"iterations", "iterations", &SimConfig::iterations, &ReferenceRow::iterations, 0, 0, 3, "",
       [](const SummaryRow& r) { return static_cast<double>(r.iterations); }, nullptr, nullptr},
      // The paper gives one count; it may be Hermes' local iterations rather than its major
      // updates (issue 25: the 32-worker reading of the paper's table), so both are shown.
      {"local iter.", "local_iterations", &SimConfig::local_iterations, nullptr, 0, 0, 3, "",
       [](const SummaryRow& r) { return static_cast<double>(r.local_iterations); }, nullptr,
       nullptr},
      {"time (min)", "time_min", &SimConfig::time_min, &ReferenceRow::training_time_min, 2, 2, 4,
       "", [](const SummaryRow& r) { return r.sim_time_s / 60.0; }, nullptr, nullptr},
      {"WI", "wi_avg", &SimConfig::wi_avg, &ReferenceRow::wi_avg, 2, 2, 4, "",
       [](const SummaryRow& r) { return r.wi_avg; }, nullptr, nullptr},
      {"accuracy (%)", "accuracy_pct", &SimConfig::accuracy_pct, &ReferenceRow::accuracy_pct, 2, 2,
       4, "", [](const SummaryRow& r) { return r.accuracy * 100.0; }, nullptr, nullptr},
      {"API calls (M)", "api_calls_m", &SimConfig::api_calls_m, &ReferenceRow::api_calls_m, 2, 1, 6,
       "", [](const SummaryRow& r) { return static_cast<double>(r.api_calls) / 1e6; }, nullptr,
       nullptr},
      {"speedup vs BSP", "speedup_vs_bsp", nullptr, &ReferenceRow::speedup_vs_bsp, 2, 2, 4, "x",
       nullptr, &SimConfig::speedup, &SummaryRow::speedup_vs_bsp},
      {"cost ($)", "cost_usd", nullptr, nullptr, 3, 0, 6, "", nullptr, &SimConfig::cost_usd,
       &SummaryRow::cost_usd},
  };
  return m;
}

// The metrics a comparison shows: all but cost when no configuration has one (a summary from
// before costs is shown as it was).
std::vector<Metric> metrics_of(const Comparison& cmp) {
  const bool costs = std::any_of(cmp.rows.begin(), cmp.rows.end(), [](const ComparisonRow& r) {
    return r.sim && r.sim->cost_usd.has_value();
  });
  std::vector<Metric> out;
  for (const Metric& m : metrics()) {
    if (costs || m.optional_sim != &SimConfig::cost_usd) out.push_back(m);
  }
  return out;
}

bool is_speedup(const Metric& m) { return m.paper == &ReferenceRow::speedup_vs_bsp; }

// The configuration's statistic of the metric; nullptr when it has none.
const Stat* sim_stat(const SimConfig& c, const Metric& m) {
  if (m.sim != nullptr) return &(c.*(m.sim));
  const std::optional<Stat>& s = c.*(m.optional_sim);
  return s ? &*s : nullptr;
}

bool any_computed_speedup(const Comparison& cmp) {
  return std::any_of(cmp.rows.begin(), cmp.rows.end(),
                     [](const ComparisonRow& r) { return r.sim && r.sim->speedup_computed; });
}

bool any_differs(const Comparison& cmp) {
  return std::any_of(cmp.rows.begin(), cmp.rows.end(),
                     [](const ComparisonRow& r) { return !r.differs.empty(); });
}

// "beta=0.1 update_unit=chunk": what sets a row apart beyond its label ("" if nothing).
std::string differs_text(const ComparisonRow& r) {
  std::vector<std::string> parts;
  for (const auto& [k, v] : r.differs) parts.push_back(k + "=" + v);
  return join_strings(parts, " ");
}

// The speedup cell when a configuration has none: "withheld" when a run of it diverged or was
// capped (the reason is in the notes), "-" when there is no BSP run to compare with.
std::string no_speedup_cell(const SimConfig& c) { return c.no_baseline ? kNone : "withheld"; }

TextTable main_table(const Comparison& cmp) {
  const std::vector<Metric> shown = metrics_of(cmp);
  const bool differs = any_differs(cmp);
  TextTable t;
  t.columns.push_back({"", "framework", false});
  if (differs) t.columns.push_back({"", "differs in", false});
  t.columns.push_back({"", "runs", true});
  t.columns.push_back({"", "status (stop)", false});
  for (const Metric& m : shown) {
    t.columns.push_back({m.group, "sim", true});
    if (m.paper != nullptr) t.columns.push_back({m.group, "paper", true});
    if (m.paper == &ReferenceRow::accuracy_pct) t.columns.push_back({m.group, "diff", true});
  }
  for (const ComparisonRow& r : cmp.rows) {
    std::vector<std::string> cells = {r.label};
    if (differs) cells.push_back(differs_text(r));
    cells.push_back(r.sim ? std::to_string(r.sim->runs.size()) : "0");
    cells.push_back(r.sim ? r.sim->status : kNone);
    for (const Metric& m : shown) {
      const Stat* s = r.sim ? sim_stat(*r.sim, m) : nullptr;
      std::string sim = s ? format_fixed(s->mean, m.sim_decimals) + m.suffix : kNone;
      // withheld: the reason is in the notes under the table.
      if (is_speedup(m) && r.sim && !r.sim->speedup_withheld.empty()) {
        sim = no_speedup_cell(*r.sim);
      }
      // '*': computed here from sim_time_s, not written by the simulator (see the note).
      if (s && is_speedup(m) && r.sim->speedup_computed) sim += "*";
      cells.push_back(sim);
      if (m.paper == nullptr) continue;  // the paper gives none (cost)
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

// A table of the configurations that have several runs (empty if none has): the label, the
// column `second` filled by `second_cell`, then one cell per metric from `metric_cell`.
TextTable multi_run_table(
    const Comparison& cmp, const char* second,
    const std::function<std::string(const SimConfig&)>& second_cell,
    const std::function<std::string(const SimConfig&, const Metric&)>& metric_cell) {
  const std::vector<Metric> shown = metrics_of(cmp);
  TextTable t;
  t.columns.push_back({"", "framework", false});
  t.columns.push_back({"", second, true});
  for (const Metric& m : shown) t.columns.push_back({"", m.group, true});
  for (const ComparisonRow& r : cmp.rows) {
    if (!r.sim || r.sim->per_run.size() < 2) continue;
    std::vector<std::string> cells = {r.label, second_cell(*r.sim)};
    for (const Metric& m : shown) cells.push_back(metric_cell(*r.sim, m));
    t.rows.push_back(std::move(cells));
  }
  return t;
}

// Seed ranges (min-max) of the configurations that have several runs.
TextTable range_table(const Comparison& cmp) {
  return multi_run_table(
      cmp, "runs", [](const SimConfig& c) { return std::to_string(c.runs.size()); },
      [](const SimConfig& c, const Metric& m) -> std::string {
        const Stat* s = sim_stat(c, m);
        return s ? format_fixed(s->min, m.sim_decimals) + "-" +
                       format_fixed(s->max, m.sim_decimals) + m.suffix
                 : kNone;
      });
}

// Every run of the configurations that have several, a line each in seed order: no conclusion
// should hang on one trajectory, and the mean and range alone hide which seed did what. A line
// per run keeps the table as wide as the others whatever the number of seeds.
TextTable per_run_table(const Comparison& cmp) {
  const std::vector<Metric> shown = metrics_of(cmp);
  TextTable t;
  t.columns.push_back({"", "framework", false});
  t.columns.push_back({"", "seed", true});
  t.columns.push_back({"", "run", false});
  for (const Metric& m : shown) t.columns.push_back({"", m.group, true});
  for (const ComparisonRow& r : cmp.rows) {
    if (!r.sim || r.sim->per_run.size() < 2) continue;
    for (const SummaryRow& run : r.sim->per_run) {
      std::vector<std::string> cells = {r.label, std::to_string(run.seed),
                                        run.point.empty() ? run.run : run.run + " @" + run.point};
      for (const Metric& m : shown) {
        if (m.of_run != nullptr) {
          cells.push_back(format_fixed(m.of_run(run), m.sim_decimals) + m.suffix);
        } else {
          const std::optional<double>& v = run.*(m.optional_run);
          cells.push_back(v ? format_fixed(*v, m.sim_decimals) + m.suffix : kNone);
        }
      }
      t.rows.push_back(std::move(cells));
    }
  }
  return t;
}

TextTable headline_table(const Comparison& cmp) {
  TextTable t;
  t.columns = {
      {"", "headline", false}, {"", "sim", true}, {"", "paper", true}, {"", "from", false}};
  for (const Headline& h : cmp.headlines) {
    t.rows.push_back({h.name, h.withheld.empty() ? headline_text(h.sim, h.unit) : "withheld",
                      headline_text(h.paper, h.unit),
                      h.withheld.empty() ? h.note : h.note + "; withheld: " + h.withheld});
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
  if (!cmp.not_simulated.empty())
    n.push_back("not simulated: " + join_strings(cmp.not_simulated, ", "));
  if (!cmp.not_in_reference.empty()) {
    n.push_back("not in reference: " + join_strings(cmp.not_in_reference, ", "));
  }
  std::string no_baseline;
  for (const ComparisonRow& r : cmp.rows) {
    if (!r.sim || r.sim->speedup_withheld.empty()) continue;
    if (r.sim->no_baseline) {
      no_baseline = r.sim->speedup_withheld;
    } else {
      n.push_back("speedup withheld for " + r.label + ": " + r.sim->speedup_withheld);
    }
  }
  if (!no_baseline.empty()) n.push_back("speedup vs BSP: " + no_baseline);
  if (any_differs(cmp)) {
    n.push_back(
        "differs in: the parameters on which a row differs from another row of its protocol, "
        "beyond those its label names");
  }
  for (const ComparisonRow& r : cmp.rows) {
    if (r.sim && r.sim->repeats > 0) {
      n.push_back(r.label + ": " + std::to_string(r.sim->repeats) +
                  " more rows with the seed of a run already counted (a run the grid does not "
                  "change, at every point), counted once");
    }
  }
  return n;
}

void write_csv(std::ostream& os, const Comparison& cmp) {
  const std::vector<Metric> shown = metrics_of(cmp);
  std::vector<std::string> cols = {"label",      "match",   "protocol", "reference_params",
                                   "sim_params", "setting", "differs",  "runs"};
  for (const Metric& m : shown) {
    for (const char* part : {"_sim", "_sim_min", "_sim_max", "_paper"}) {
      if (m.paper == nullptr && std::string_view(part) == "_paper") continue;
      cols.push_back(std::string(m.csv_name) + part);
    }
  }
  cols.push_back("accuracy_diff_pts");
  cols.push_back("speedup_computed");
  cols.push_back("status");
  cols.push_back("speedup_withheld");
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
      w.field(params_text(r.sim->params)).field(params_text(r.sim->setting));
    } else {
      w.empty().empty();
    }
    w.field(params_text(r.differs));
    w.field(static_cast<std::int64_t>(r.sim ? r.sim->runs.size() : 0));
    for (const Metric& m : shown) {
      const Stat* s = r.sim ? sim_stat(*r.sim, m) : nullptr;
      for (double Stat::*part : {&Stat::mean, &Stat::min, &Stat::max}) {
        if (s) {
          w.field((*s).*part, m.csv_decimals);
        } else {
          w.empty();
        }
      }
      if (m.paper == nullptr) continue;
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
    w.field(r.sim ? r.sim->status : "").field(r.sim ? r.sim->speedup_withheld : "");
    w.end_row();
  }
}

}  // namespace

void write_comparison(std::ostream& os, const Comparison& cmp, TableFormat format) {
  if (format == TableFormat::kCsv) {
    write_csv(os, cmp);
    return;
  }
  if (format == TableFormat::kJson) {
    os << comparison_json(cmp).dump(2) << '\n';
    return;
  }
  const bool md = format == TableFormat::kMarkdown;
  const auto render = [&](const TextTable& t) { md ? render_markdown(os, t) : render_text(os, t); };
  // Before the table, so that nobody reads the paper's numbers beside runs they do not match.
  // Prose is wrapped in text (a terminal's lines), kept whole in Markdown (its renderer wraps).
  const auto prose = [&](const std::string& lead, const std::string& text) {
    os << (md ? lead + text : wrap_words(lead + text, kProseWidth, "  ")) << '\n';
  };
  for (const std::string& w : cmp.warnings) prose(md ? "> **warning:** " : "warning: ", w);
  if (!cmp.warnings.empty()) os << '\n';
  render(main_table(cmp));
  os << '\n';
  for (const std::string& n : notes(cmp)) prose(md ? "- " : "", n);
  const TextTable ranges = range_table(cmp);
  if (!ranges.rows.empty()) {
    os << "\n" << (md ? "Range over runs (min-max):\n\n" : "range over runs (min-max):\n");
    render(ranges);
    os << "\n"
       << (md ? "Every run, in seed order (speedup: against the BSP of the same seed):\n\n"
              : "every run, in seed order (speedup: against the BSP of the same seed):\n");
    render(per_run_table(cmp));
  }
  os << "\n"
     << (md ? "Headlines (paper: computed from the reference table):\n\n"
            : "headlines (paper: computed from the reference table):\n");
  render(headline_table(cmp));
}

}  // namespace hermes::metrics
