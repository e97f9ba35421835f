// Running a loaded scenario: the runs one after another, then the run directory's files.
#include "sim/cli/run_scenario.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "base/number_text.h"
#include "models/data/loaders.h"
#include "sim/cli/run_progress.h"
#include "sim/config/text_table.h"
#include "sim/metrics/atomic_file.h"
#include "sim/protocols/registry.h"
#include "sim/protocols/reporting/demo_csv.h"
#include "sim/protocols/reporting/result_csv.h"
#include "sim/protocols/reporting/trace_recorder.h"
#include "sim/scenario/protocol_descriptor.h"

namespace hermes::cli {

namespace {

using Clock = std::chrono::steady_clock;

void print_demo_table(const scenario::Scenario& sc, const scenario::RunSpec& spec,
                      const protocols::RunResult& r) {
  std::cout << "run " << spec.name << " (demo): " << r.activity.size() << " workers, simulated "
            << std::fixed << std::setprecision(3) << engine::to_seconds(r.sim_time) << " s, "
            << r.events << " events\n";
  // Fixed widths (a wider cell overflows its row, as the table always printed), two blanks in.
  config::TextTable table;
  table.indent = "  ";
  table.gap = "";
  table.rule = false;
  table.group_gap = table.gap;
  const auto column = [&](const char* name, bool right, std::size_t width) {
    table.columns.push_back({"", name, right, width, false});
  };
  column("node", false, 6);
  column("profile", false, 10);
  column("iters", true, 6);
  for (const char* name : {"finished_s", "mean_iter_s", "compute_s", "transfer_s"}) {
    column(name, true, 12);
  }
  column("credits", true, 10);
  const auto fixed = [](double v, int decimals) {
    return format_fixed(v, decimals, NegativeZero::kKeep);  // as std::fixed prints it
  };
  for (std::size_t w = 0; w < r.activity.size(); ++w) {
    const auto& s = r.activity[w];
    const auto& node = sc.nodes[protocols::RunContext::worker_host(w)];
    const std::int64_t iterations = r.local_iterations[w];
    const double mean =
        iterations > 0 ? engine::to_seconds(s.finished) / static_cast<double>(iterations) : 0.0;
    table.rows.push_back({node.host, node.profile.name, std::to_string(iterations),
                          fixed(engine::to_seconds(s.finished), 3), fixed(mean, 3),
                          fixed(engine::to_seconds(s.compute_time), 3),
                          fixed(engine::to_seconds(s.transfer_time), 3),
                          s.credits_left ? fixed(*s.credits_left, 2) : "-"});
  }
  config::render_text(std::cout, table);
}

// Calls RunScenarioOptions::checkpoint at every event of a run's timeline.
class CheckpointObserver final : public protocols::RunObserver {
 public:
  explicit CheckpointObserver(const std::function<void()>& check) : check_(check) {}
  void on_span(std::size_t, protocols::SpanKind, engine::SimTime, engine::SimTime,
               const protocols::EventArgs&) override {
    check_();
  }
  void on_instant(std::size_t, protocols::InstantKind, engine::SimTime,
                  const protocols::EventArgs&) override {
    check_();
  }
  void on_counter(std::size_t, protocols::CounterKind, engine::SimTime, double) override {
    check_();
  }

 private:
  const std::function<void()>& check_;
};

void print_run_line(const scenario::RunSpec& spec, const protocols::RunResult& r, double wall_s) {
  std::cout << "run " << std::left << std::setw(14) << spec.name << std::right << " status "
            << protocols::run_status_text(r.status) << " ("
            << protocols::stop_reason_text(r.stop_reason) << "), " << r.updates << " updates, "
            << r.total_local_iterations() << " local iterations, simulated " << std::fixed
            << std::setprecision(1) << engine::to_seconds(r.sim_time) / 60.0 << " min, WI "
            << std::setprecision(2) << r.wi_avg() << ", accuracy " << 100.0 * r.accuracy_at_best
            << "%, API calls " << r.api.total() << ", wall " << std::setprecision(1) << wall_s
            << " s\n";
}

}  // namespace

protocols::ResourceEstimate check_limits(const scenario::Scenario& sc, const std::string& file,
                                         const protocols::ResourceLimits& limits, bool trace) {
  Diagnostics diags(file);
  protocols::check_resources(sc, limits, trace, diags);
  diags.throw_if_errors();
  return protocols::estimate_resources(sc, trace);
}

void write_protocol_csvs(
    const scenario::Scenario& sc, const std::vector<protocols::FinishedRun>& finished,
    const std::function<void(const std::string& name, const std::string& content)>& write) {
  std::ostringstream summary, global, workers, api, nodes;
  protocols::write_summary_csv(summary, sc, finished);
  protocols::write_global_csv(global, finished);
  protocols::write_workers_csv(workers, sc, finished);
  protocols::write_api_csv(api, finished);
  protocols::write_nodes_csv(nodes, sc, finished);
  write("summary.csv", summary.str());
  write("global.csv", global.str());
  write("workers.csv", workers.str());
  write("api.csv", api.str());
  write("nodes.csv", nodes.str());
}

bool needs_data(const scenario::Scenario& sc) {
  for (const auto& run : sc.runs) {
    if (scenario::trains(run.protocol)) return true;
  }
  return false;
}

void count_own_dataset(scenario::Scenario& sc, const std::string& data_dir) {
  if (!needs_data(sc) || sc.dataset.files.builtin) return;
  const data::SampleCounts counts =
      data::count_samples(data::locate_dataset(sc.dataset.files, data_dir));
  sc.dataset.files.train_size = static_cast<std::int64_t>(counts.train);
  sc.dataset.files.test_size = static_cast<std::int64_t>(counts.test);
}

void check_loaded_data(const scenario::Scenario& sc, const data::TrainTestSplit& data) {
  if (!needs_data(sc) || !data.train) return;
  const std::string problem = scenario::chunk_size_problem(
      sc.training.chunk_size, static_cast<std::int64_t>(data.train->size()), sc.dataset.name);
  if (!problem.empty()) throw InputError("/training/chunk_size: " + problem);
}

std::vector<std::string> run_scenario(const scenario::Scenario& sc,
                                      const data::TrainTestSplit& data, const RunOutputDir& dir,
                                      const RunScenarioOptions& options) {
  // Rendered before the runs: anything that could keep it from being written (a string that is
  // not UTF-8) fails now, not after hours of simulation.
  const std::string scenario_text = sc.document.dump(2) + "\n";
  std::vector<std::optional<protocols::RunResult>> results(sc.runs.size());
  protocols::DemoTimeline timeline;
  const auto compute = [&](std::size_t i) {
    const auto& run = sc.runs[i];
    const bool demo = !scenario::trains(run.protocol);
    // The run's timeline goes to the trace (--trace) and, for a demo run, to timeline.csv.
    std::optional<protocols::TraceRecorder> recorder;
    if (options.trace != nullptr) recorder.emplace(*options.trace, sc, run);
    std::unique_ptr<protocols::RunObserver> timeline_recorder;
    if (demo && sc.outputs.timeline) timeline_recorder = timeline.recorder(sc, run);
    std::vector<protocols::RunObserver*> observers;
    if (recorder) observers.push_back(&*recorder);
    if (timeline_recorder) observers.push_back(timeline_recorder.get());
    std::optional<CheckpointObserver> checkpoint;
    if (options.checkpoint) {
      options.checkpoint();
      observers.push_back(&checkpoint.emplace(options.checkpoint));
    }
    protocols::ObserverFanOut fan_out(observers);
    protocols::RunObserver* observer = observers.empty() ? nullptr : &fan_out;

    // A demo run reports only its start and end: it computes no math and takes a moment.
    const auto t0 = Clock::now();
    ScenarioProgress* progress = options.progress;
    if (progress) progress->run_started(i);
    protocols::ProgressFn on_progress;
    if (progress && !demo) on_progress = [&](const auto& r, auto now) { progress->update(r, now); };
    results[i] = protocols::run_protocol(sc, run, data, on_progress, options.pool, observer);
    if (progress) progress->run_finished(*results[i]);
    if (!options.report) return;
    if (demo) {
      print_demo_table(sc, run, *results[i]);
    } else {
      print_run_line(run, *results[i], std::chrono::duration<double>(Clock::now() - t0).count());
    }
  };
  // A run of a sweep's point that another point of the sweep has (sweep/run_reuse.h): taken from
  // it, or computed here for it. Demo runs, which write a timeline as they run, and traced runs
  // are always computed.
  auto* reuse = options.trace == nullptr ? options.reuse : nullptr;
  std::size_t reused = 0;
  const auto compute_for_others = [&](std::size_t i) {
    try {
      compute(i);
    } catch (...) {
      reuse->abandon(options.point, i);
      throw;
    }
    reuse->fulfil(options.point, i, *results[i]);
  };
  std::vector<std::size_t> busy;  // being computed by another point: taken last
  for (std::size_t i = 0; i < sc.runs.size(); ++i) {
    if (reuse == nullptr || !scenario::trains(sc.runs[i].protocol)) {
      compute(i);
      continue;
    }
    switch (reuse->claim(options.point, i, results[i])) {
      case sweep::RunClaim::kReady:
        ++reused;
        break;
      case sweep::RunClaim::kBusy:
        busy.push_back(i);
        break;
      case sweep::RunClaim::kCompute:
        compute_for_others(i);
        break;
    }
  }
  for (const std::size_t i : busy) {
    if (reuse->wait(options.point, i, results[i], options.checkpoint) == sweep::RunClaim::kReady) {
      ++reused;
    } else {
      compute_for_others(i);
    }
  }
  if (options.runs_reused != nullptr) *options.runs_reused = reused;
  std::vector<protocols::FinishedRun> finished, demos;
  for (std::size_t i = 0; i < sc.runs.size(); ++i) {
    auto& runs = scenario::trains(sc.runs[i].protocol) ? finished : demos;
    runs.push_back({&sc.runs[i], std::move(*results[i])});
  }

  std::vector<std::string> written;
  auto write = [&](const std::string& name, const std::string& content) {
    metrics::write_file_atomically(dir.file(name), content);
    written.push_back(name);
  };
  if (!finished.empty()) write_protocol_csvs(sc, finished, write);
  if (!demos.empty()) {
    std::ostringstream demo_workers;
    protocols::write_demo_workers_csv(demo_workers, sc, demos);
    write("demo_workers.csv", demo_workers.str());
    if (sc.outputs.timeline) {
      std::ostringstream tl;
      timeline.write_csv(tl);
      write("timeline.csv", tl.str());
    }
  }
  write("scenario.json", scenario_text);
  if (!options.provenance.empty()) write("provenance.json", options.provenance);
  return written;
}

}  // namespace hermes::cli
