// The paper's comparison table beside simulated runs: reading summary.csv (one row per run) and a
// reference table (results/reference/paper-mnist.csv), joining them by protocol and parameters,
// aggregating seeds, and printing the table and the paper's headline ratios as text, CSV or
// Markdown. Used by `hermes-sim compare`.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::metrics {

// ---- Run parameters: "key=value;key=value" ----------------------------------------------------

using ParamMap = std::map<std::string, std::string>;  // sorted by key

// Parses "key=value;key=value" (whitespace around keys and values ignored, empty segments
// skipped). Keys are [A-Za-z0-9_.-]+ and may appear once. A value that is entirely a decimal
// number is rewritten in its shortest round-trip form, so "-1.60", "-1.6e0" and "-1.6" are equal
// and "125.0" is "125"; other values (true, reference) are kept as written. Throws InputError
// naming the text and the problem.
ParamMap parse_params(std::string_view params);

// The canonical text of `params`: parse_params joined back as "key=value;..." in key order, so
// "beta=0.15;alpha=-1.6" and "alpha=-1.60; beta=.15" both give "alpha=-1.6;beta=0.15".
std::string canonical_params(std::string_view params);

// True if every key of `reference` is in `run` with an equal canonical value. A simulated run
// usually records every parameter (alpha, beta, lambda, window, ...) while the paper names only
// those it varied, so the reference's parameters need only be a subset of the run's.
bool params_match(const ParamMap& reference, const ParamMap& run);

// ---- summary.csv ------------------------------------------------------------------------------

// Columns of summary.csv, in the order the simulator writes them. Extra columns are ignored;
// a missing column is an error, except speedup_vs_bsp (absent = empty in every row).
inline constexpr std::array<std::string_view, 16> kSummaryColumns = {
    "run",        "protocol",    "params",        "seed",
    "status",     "stop_reason", "iterations",    "local_iterations",
    "sim_time_s", "wi_avg",      "accuracy",      "loss",
    "api_calls",  "bytes",       "major_updates", "speedup_vs_bsp"};

// The status of a run that completed and is compared; every other status (failed, timeout, ...)
// excludes the row, and its numeric fields may then be empty.
inline constexpr std::string_view kStatusOk = "ok";

struct SummaryRow {
  std::string run;
  std::string protocol;  // bsp, asp, ssp, ebsp, hermes, ...
  ParamMap params;       // canonical
  std::uint64_t seed = 0;
  std::string status;  // "ok" or why the run did not complete
  std::string stop_reason;
  std::int64_t iterations = 0;        // updates applied by the PS (Hermes: major updates)
  std::int64_t local_iterations = 0;  // iterations computed by all workers
  double sim_time_s = 0;              // simulated training time until the stop rule fired
  double wi_avg = 0;                  // worker independence index, averaged over workers
  double accuracy = 0;                // global test accuracy, a fraction in [0, 1]
  double loss = 0;                    // global test loss (may be nan for a diverged run)
  std::int64_t api_calls = 0;         // requests answered by the PS control service
  double bytes = 0;                   // bytes moved over the network
  std::int64_t major_updates = 0;
  std::optional<double> speedup_vs_bsp;  // empty: computed by the comparison
  int line = 0;                          // line in the file, for messages

  bool ok() const { return status == kStatusOk; }
};

// Reads summary.csv with the Fast C++ CSV Parser. Throws InputError naming the file and, for a bad
// field, its line, run and column and what is accepted.
std::vector<SummaryRow> read_summary_csv(const std::string& path);

// ---- reference table --------------------------------------------------------------------------

inline constexpr std::array<std::string_view, 9> kReferenceColumns = {
    "framework", "protocol",     "params",      "iterations",    "training_time_min",
    "wi_avg",    "accuracy_pct", "api_calls_m", "speedup_vs_bsp"};

struct ReferenceRow {
  std::string framework;  // as the paper labels it: "Hermes (alpha=-1.6, beta=0.15)"
  std::string protocol;
  ParamMap params;  // canonical
  double iterations = 0;
  double training_time_min = 0;
  double wi_avg = 0;
  double accuracy_pct = 0;  // percent, as printed in the paper
  double api_calls_m = 0;   // millions
  double speedup_vs_bsp = 0;
  int line = 0;
};

// Reads a reference table (every column required, extra columns ignored). Throws InputError.
std::vector<ReferenceRow> read_reference_csv(const std::string& path);

// ---- the join ---------------------------------------------------------------------------------

// One metric over the runs of a configuration (several seeds): mean, min and max.
struct Stat {
  double mean = 0, min = 0, max = 0;
  int n = 0;
};
Stat stat_of(const std::vector<double>& values);  // n = 0 (and zeros) for no values

// The completed runs of one simulated configuration: same protocol and same canonical params.
struct SimConfig {
  std::string protocol;
  ParamMap params;
  std::vector<std::string> runs;  // run names, in file order
  Stat iterations, time_min, wi_avg, accuracy_pct, api_calls_m;
  std::optional<Stat> speedup;    // nullopt: no summary value and no simulated BSP to compute it
  bool speedup_computed = false;  // from sim_time_s against the simulated BSP baseline
};

// A line of the comparison: a reference row with a configuration matched to it, a reference row
// that was not simulated (no sim), or a configuration that is not in the reference (no ref).
struct ComparisonRow {
  std::string label;
  std::optional<ReferenceRow> ref;
  std::optional<SimConfig> sim;
};

// A headline ratio of the paper, from the simulation and from the reference table.
struct Headline {
  enum class Unit { kTimes, kPercent, kPoints };
  std::string name;
  Unit unit = Unit::kTimes;
  std::optional<double> sim, paper;
  std::string note;  // which rows it was computed from, or why a side is missing
};

struct Comparison {
  std::vector<ComparisonRow> rows;  // reference order (each with its matches), then unmatched
  std::vector<Headline> headlines;
  std::vector<std::string> not_simulated;     // reference labels without a matching run
  std::vector<std::string> not_in_reference;  // configurations without a reference row
  std::vector<std::string> excluded;          // "run (status)" of rows whose status is not ok
  std::string baseline;  // the simulated BSP configuration computed speedups are against
};

// Groups the ok rows of `summary` into configurations (protocol + canonical params; the runs of a
// configuration are its seeds) and matches each to the reference row of the same protocol whose
// params are a subset of its own, preferring the row naming the most params, then the first.
// Speedups: the summary's speedup_vs_bsp when every run of the configuration has one, else
// mean BSP time / mean time of the configuration, against the simulated BSP configuration (the
// one matched to the reference BSP row, most runs first). Headlines: Hermes' best speedup vs BSP,
// API-call reduction of Hermes vs SSP and vs BSP, accuracy of Hermes - BSP, where "Hermes" is the
// reference Hermes row with the best speedup (the paper's chosen alpha=-1.6, beta=0.15).
Comparison compare_with_reference(const std::vector<SummaryRow>& summary,
                                  const std::vector<ReferenceRow>& reference);

// ---- output -----------------------------------------------------------------------------------

enum class TableFormat { kText, kCsv, kMarkdown };
std::optional<TableFormat> parse_table_format(std::string_view name);  // text, csv, markdown

// text: aligned table, seed ranges, headlines. markdown: the same as GitHub tables (for
// results/README.md). csv: one row per comparison line with mean, min, max and paper value of
// every metric (no headlines: they are ratios of these rows).
void write_comparison(std::ostream& out, const Comparison& comparison, TableFormat format);

// Shortest round-trip decimal text of `value` with at least `min_decimals` digits after the point
// (98.07 -> "98.07", 90.625 -> "90.625", 1 -> "1.00" for 2): the paper's numbers as printed.
std::string format_min_decimals(double value, int min_decimals);

}  // namespace hermes::metrics
