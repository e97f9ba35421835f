// Running a loaded scenario and writing its run directory: what `hermes-sim run` does after
// parsing its options, and what `hermes-sim sweep` does for every point.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "models/data/dataset.h"
#include "sim/cli/run_output.h"
#include "sim/metrics/chrome_trace.h"
#include "sim/parallel/thread_pool.h"
#include "sim/protocols/reporting/result_csv.h"
#include "sim/protocols/skeleton/resources.h"
#include "sim/protocols/skeleton/run_result.h"
#include "sim/scenario/scenario.h"
#include "sim/sweep/run_reuse.h"

namespace hermes::cli {

class ScenarioProgress;  // run_progress.h

struct RunScenarioOptions {
  // A result line (or table, for demo runs) per run on stdout. Off for the points of a sweep,
  // which has its own progress.
  bool report = true;
  // Told as runs start, progress and end (stderr); null: no progress (the points of a sweep).
  ScenarioProgress* progress = nullptr;
  // Runs the training math (null: on the calling thread).
  parallel::ThreadPool* pool = nullptr;
  // Receives every run's timeline (`--trace`), one process per run; null: no timeline.
  metrics::ChromeTrace* trace = nullptr;
  // The text of provenance.json (provenance.h), written last; empty: none.
  std::string provenance;
  // Called before each run and at every event of a run's timeline (each compute, transfer and PS
  // job); it may throw to abandon the runs (a sweep point's --point-timeout). It only looks, so
  // the results do not depend on it. Empty: none.
  std::function<void()> checkpoint = {};
  // The results a sweep's points share (sim/sweep/run_reuse.h) and this point's index among
  // them: a protocol run equal to one of another point is computed once. Null: every run is
  // computed (and always with `trace`).
  sweep::RunReuse<protocols::RunResult>* reuse = nullptr;
  std::size_t point = 0;
  // Receives how many runs were taken from another point's (not computed); may be null.
  std::size_t* runs_reused = nullptr;
};

// Checks the durations and the estimated memory and time of `sc` against `limits`
// (sim/protocols/skeleton/resources.h); throws InputError naming `file`, the JSON paths and the
// option that raises a limit. Returns the estimate.
protocols::ResourceEstimate check_limits(const scenario::Scenario& sc, const std::string& file,
                                         const protocols::ResourceLimits& limits, bool trace);

// Renders the protocol runs' CSVs and hands each to `write` in order: summary.csv, global.csv,
// workers.csv, api.csv, nodes.csv.
void write_protocol_csvs(
    const scenario::Scenario& sc, const std::vector<protocols::FinishedRun>& finished,
    const std::function<void(const std::string& name, const std::string& content)>& write);

// Whether any run needs the dataset (every protocol run; demo runs compute no math).
bool needs_data(const scenario::Scenario& sc);

// Before the limits are checked: for runs that need the data and a scenario's own dataset, locates
// it as the run will (`data_dir`: --data-dir) and counts its train and test samples from its files
// without loading them (data::count_samples) into sc.dataset.files, so that check_limits refuses a
// chunk larger than its training set and estimates memory and time with its real size. Built-in
// datasets know their sizes. Throws InputError (a dataset not found, a file it would refuse).
void count_own_dataset(scenario::Scenario& sc, const std::string& data_dir);

// What only the loaded data tells, checked before any run starts: a chunk no larger than the
// training set (a scenario's own dataset does not say its size). Throws InputError naming
// /training/chunk_size and the dataset.
void check_loaded_data(const scenario::Scenario& sc, const data::TrainTestSplit& data);

// Runs every run of `sc` in file order on `data` (unused if !needs_data(sc)) and writes into `dir`
// (not committed): summary.csv, global.csv, workers.csv, api.csv (protocol runs) and/or
// demo_workers.csv, timeline.csv (demo runs), then scenario.json and provenance.json. Returns the
// names of the files written, in order.
std::vector<std::string> run_scenario(const scenario::Scenario& sc,
                                      const data::TrainTestSplit& data, const RunOutputDir& dir,
                                      const RunScenarioOptions& options = {});

}  // namespace hermes::cli
