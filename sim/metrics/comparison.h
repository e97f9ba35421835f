// The join of `hermes-sim compare`: simulated runs grouped into configurations (protocol and
// params; the runs of one are its seeds), each matched to the paper's reference row, seed means
// and ranges per metric, speedups against the simulated BSP, and the paper's headline ratios
// computed from both sides.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/metrics/params_text.h"
#include "sim/metrics/summary_csv.h"

namespace hermes::metrics {

// One metric over the runs of a configuration (several seeds): mean, min and max.
struct Stat {
  double mean = 0, min = 0, max = 0;
  int n = 0;
};
Stat stat_of(const std::vector<double>& values);  // n = 0 (and zeros) for no values

// Why a run's time cannot be compared with BSP's: it diverged (its loss kept rising, or became
// non-finite) or a cap cut it; "" when it converged by the stop rule.
std::string not_comparable_reason(const SummaryRow& run);

// What a figure's row says of a run that did not end as a run should (status ok, stopped by its
// patience): its status ("diverged"), else its stop reason in short ("capped (iterations)",
// "capped (sim time)", "no events", "stop: WORD" for another); "" for one that did.
// `compare --format json` carries it as a run's "ending", so tools/plot needs no copy of the words.
std::string run_ending_tag(const SummaryRow& run);
// The scenario key of the cap that stopped `run` ("training.stop.max_iterations"), "" when no cap
// did (sim/common/run_ending.h): `compare --format json`'s "cap_key".
std::string run_cap_key(const SummaryRow& run);

// The runs of one simulated configuration: same protocol, same canonical params (every run
// parameter summary.csv records) and, in a sweep, the same values of the grid keys that are not run
// parameters; any status. The same seed twice (a run a sweep's grid does not touch, repeated at
// each point) is one run: determinism makes them the same bytes.
struct SimConfig {
  std::string protocol;
  ParamMap params;
  ParamMap setting;                 // SummaryRow::setting
  std::vector<std::string> runs;    // run names, in file order
  int repeats = 0;                  // rows left out as repeats of a run already counted
  std::vector<SummaryRow> per_run;  // the same runs in seed order (file order among equal seeds)
  Stat iterations, time_min, wi_avg, accuracy_pct, api_calls_m;
  // Iterations the workers computed (summary.csv's local_iterations): for Hermes its local
  // iterations beside its major updates, which the paper's "iterations" may count instead.
  Stat local_iterations;
  // What the runs cost (summary.csv's cost_usd; the paper gives none). nullopt when a run has no
  // cost (a summary from before the column).
  std::optional<Stat> cost_usd;
  std::optional<Stat> speedup;    // nullopt: withheld, or no simulated BSP to compute it
  bool speedup_computed = false;  // from sim_time_s against the simulated BSP baseline
  // Why no speedup is shown: a run diverged or was capped ("asp: diverged: ..."), or no converged
  // BSP run exists to compare with; "" when shown.
  std::string speedup_withheld;
  bool no_baseline = false;  // no speedup because no BSP run (converged) to compare with
  std::string status;        // "ok (patience)", "diverged (patience)", "2 ok, 1 diverged", ...

  bool comparable() const;  // every run converged by the stop rule
};

// A line of the comparison: a reference row with a configuration matched to it, a reference row
// that was not simulated (no sim), or a configuration that is not in the reference (no ref).
struct ComparisonRow {
  std::string label;
  std::optional<ReferenceRow> ref;
  std::optional<SimConfig> sim;
  // The parameters on which this row differs from another row of its protocol, beyond those its
  // label names ("beta=0.1" beside "Hermes (alpha=-1.3)"; "update_unit=chunk" beside an ASP that
  // is not the paper's); empty when nothing sets it apart.
  ParamMap differs;
};

// A headline ratio of the paper, from the simulation and from the reference table.
struct Headline {
  enum class Unit { kTimes, kPercent, kPoints };
  std::string name;
  Unit unit = Unit::kTimes;
  std::optional<double> sim, paper;
  std::string note;      // which rows it was computed from, or why a side is missing
  std::string withheld;  // why the sim side is not shown although runs exist ("" if shown)
};

// Where a run's scenario differs from the paper's (JSON pointer into the resolved documents).
struct SetupDifference {
  std::string pointer;
  std::optional<std::string> run, paper;  // the values as compact JSON; nullopt: absent
};

struct Comparison {
  std::vector<ComparisonRow> rows;  // reference order (each with its matches), then unmatched
  std::vector<Headline> headlines;
  std::vector<std::string> not_simulated;     // reference labels without a matching run
  std::vector<std::string> not_in_reference;  // configurations without a reference row
  std::string baseline;  // the simulated BSP configuration computed speedups are against
  // Filled by the caller, which knows the files: the paper's setup and what differs from it, and
  // warnings to show before the table.
  std::string summary_path, reference_path, dataset, paper_scenario_path;
  std::vector<SetupDifference> setup_differences;
  std::vector<std::string> warnings;
};

// Groups the rows of `summary` into configurations (protocol + canonical params + setting; the
// runs of a configuration are its seeds) and matches each to the reference row whose exact
// configuration (ReferenceRow::configuration, else its params over the protocol's defaults) it
// has: a Hermes run with beta 0.05 is not the paper's "Hermes (alpha=-1.3)" (beta 0.1).
// Unmatched configurations are labelled by their protocol and the parameters that are not the
// default or that the paper's rows of the protocol name ("Hermes (alpha=-1.6, beta=0.05)").
// Speedups: withheld for a configuration with a run that diverged or was capped (and then its
// reason given); else the summary's speedup_vs_bsp when every run has one, else mean BSP time /
// mean time, against the simulated BSP configuration (the one matched to the reference BSP row,
// most runs first) when that converged. Headlines are withheld likewise when a configuration they
// use is not comparable. Headlines: Hermes' best speedup vs BSP,
// API-call reduction of Hermes vs SSP and vs BSP, accuracy of Hermes - BSP, where "Hermes" is the
// reference Hermes row with the best speedup (the paper's chosen alpha=-1.6, beta=0.15).
Comparison compare_with_reference(const std::vector<SummaryRow>& summary,
                                  const std::vector<ReferenceRow>& reference);

}  // namespace hermes::metrics
