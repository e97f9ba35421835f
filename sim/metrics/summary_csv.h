// The two inputs of `hermes-sim compare`, read with the Fast C++ CSV Parser: summary.csv (one row
// per simulated run, as the simulator writes it) and the reference table (the paper's comparison
// table, results/reference/paper-mnist.csv). Both are validated field by field so that a bad file
// is reported by line, row and column rather than compared wrongly.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/common/run_ending.h"
#include "sim/metrics/params_text.h"

namespace hermes::scenario {
struct RunSpec;
}

namespace hermes::metrics {

// ---- summary.csv ------------------------------------------------------------------------------

// The parameter columns of summary.csv, in schema order: one per run parameter that has a column
// (scenario::summary_param_keys(): the shared keys and every protocol's own, from their
// declarations). A cell is the run's value, or empty when the run's protocol does not take the
// parameter. A summary has these but the columns of later protocols none of its runs has
// (scenario::summary_param_keys(present)); a reader finds any of them.
const std::vector<std::string_view>& summary_param_columns();
// At most this many parameter columns are read back: fccp reads a number of columns fixed at
// compile time (tests/metrics/summary_csv_test.cc checks that the declarations fit).
inline constexpr std::size_t kMaxSummaryParamColumns = 64;

// Columns of summary.csv, in the order the simulator writes them: the run, its parameters, its
// seed and outcome, its metrics. Extra columns are ignored; a missing column is an error, except
// speedup_vs_bsp, cost_usd and the parameter columns added since 2026-12-01 (absent = empty in
// every row).
inline constexpr std::array<std::string_view, 2> kSummaryRunColumns = {"run", "protocol"};
inline constexpr std::array<std::string_view, 15> kSummaryResultColumns = {
    "seed",       "status", "stop_reason",   "iterations",     "local_iterations",
    "sim_time_s", "wi_avg", "accuracy",      "loss",           "final_loss",
    "api_calls",  "bytes",  "major_updates", "speedup_vs_bsp", "cost_usd"};
inline constexpr std::size_t kSummaryParamsAt = kSummaryRunColumns.size();  // first parameter
// Written after those (2026-12-01, docs/churn.md): what outages cost a run, and when it reached
// outputs.target_accuracy (empty without one, or if never). Not read back: a summary of before
// them has none.
inline constexpr std::array<std::string_view, 5> kSummaryChurnColumns = {
    "lost_iterations", "wasted_compute_s", "dropped_updates", "downtime_s", "time_to_target_s"};

// Every column of summary.csv as the simulator writes it but the churn ones: the run, its
// parameters (`params`; without: every parameter column), its seed, outcome and metrics.
std::vector<std::string> summary_columns();
std::vector<std::string> summary_columns(const std::vector<std::string_view>& params);

struct SummaryRow {
  std::string run;
  std::string protocol;  // bsp, asp, ssp, ebsp, hermes, ...
  // The configuration: the parameters that name it (scenario::ColumnForm: kAlways ones, kIfChanged
  // ones when not the default), canonical. Runs with equal protocol and params are one
  // configuration's seeds; the paper's rows are matched on them.
  ParamMap params;
  ParamMap param_values;  // every non-empty parameter column, canonical
  std::uint64_t seed = 0;
  std::string status;  // "ok" or why the run did not complete
  std::string stop_reason;
  std::int64_t iterations = 0;        // updates applied by the PS (Hermes: major updates)
  std::int64_t local_iterations = 0;  // iterations computed by all workers
  double sim_time_s = 0;              // simulated training time until the stop rule fired
  double wi_avg = 0;                  // worker independence index, averaged over workers
  double accuracy = 0;                // global test accuracy, a fraction in [0, 1]
  double loss = 0;                    // best global test loss (may be nan for a diverged run)
  double final_loss = 0;              // global test loss at the last evaluation (nan: none)
  std::int64_t api_calls = 0;         // requests answered by the PS control service
  double bytes = 0;                   // bytes moved over the network
  std::int64_t major_updates = 0;
  std::optional<double> speedup_vs_bsp;  // empty: computed by the comparison
  std::optional<double> cost_usd;        // what the nodes cost; empty: a summary from before it
  // A sweep's summary: the row's point (its `point` column, "" in a run's summary) and the values
  // of the point's grid keys that are not run parameters (`cluster.workers.0.count`, ...; keys
  // under `runs.` change a run's own parameters, which `params` holds). Filled by the caller from
  // the sweep's manifest (sweep.json); runs at points that differ in them are different
  // configurations.
  std::string point;
  ParamMap setting;
  int line = 0;  // line in the file, for messages

  // The run completed ("ok", sim/common/run_ending.h): only then are its numeric fields required.
  // Every other status (diverged, or a word of another tool: failed, timeout, ...) may leave them
  // empty, and excludes the row from speedups.
  bool ok() const { return parse_run_status(status) == RunStatus::kOk; }
};

// The configuration `params` of a run of `protocol` with parameter values `values` (every
// non-empty parameter column): those its protocol's declarations name a configuration by (kAlways
// ones, kIfChanged ones that differ from the default). A protocol hermes-sim does not know keeps
// them all.
ParamMap configuration_params(std::string_view protocol, const ParamMap& values);

// The full configuration of a reference row that names only `named` (the parameters the paper
// varied): `named` over the protocol's defaults, in configuration_params' form. The paper's BSP
// row, which names none, is BSP with every default.
ParamMap configuration_with_defaults(std::string_view protocol, const ParamMap& named);

// The summary.csv cell of run parameter `key` for `run`: its value (numbers rounded to 6 decimals,
// then canonical like every params text), or "" when its protocol does not take the parameter or
// it does not apply to the run (scenario::RunParam::applies).
std::string param_cell(const scenario::RunSpec& run, std::string_view key);

// The configuration (SummaryRow::params) a summary.csv row of `run` reads back as.
ParamMap configuration_of(const scenario::RunSpec& run);

// Whether a run of `protocol` is always named by `key` (alpha, staleness, lookahead: the
// parameters a default run name carries whatever their value).
bool param_names_runs(std::string_view protocol, std::string_view key);

// The default value of `key` for `protocol`, canonical ("" if the protocol does not take it).
std::string default_param_value(std::string_view protocol, std::string_view key);

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
  // The exact configuration (SummaryRow::params form) a run must have to stand beside this row:
  // the paper scenario's run of this row when the caller knows it (scenarios/paper/mnist.json's
  // readings of the paper: per-step baselines, ...), else `params` over the protocol's defaults.
  std::optional<ParamMap> configuration;
  int line = 0;
};

// Reads a reference table (every column required, extra columns ignored). Throws InputError.
std::vector<ReferenceRow> read_reference_csv(const std::string& path);

}  // namespace hermes::metrics
