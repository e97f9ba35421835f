// Running a loaded scenario: the runs one after another, then the run directory's files.
#include "sim/cli/run_scenario.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

#include "base/number_text.h"
#include "sim/config/text_table.h"
#include "sim/metrics/atomic_file.h"
#include "sim/metrics/csv_writer.h"
#include "sim/metrics/timeline.h"
#include "sim/protocols/algorithms/demo.h"
#include "sim/protocols/registry.h"
#include "sim/protocols/reporting/result_csv.h"
#include "sim/protocols/reporting/trace_recorder.h"

namespace hermes::cli {

namespace {

using Clock = std::chrono::steady_clock;

void write_demo_rows(metrics::CsvWriter& w, const scenario::RunSpec& run,
                     const protocols::DemoResult& r) {
  for (const auto& s : r.workers) {
    w.field(run.name).field(s.node).field(s.profile).field(s.iterations);
    w.field(engine::to_seconds(s.finished), 6).field(engine::to_seconds(s.compute_time), 6);
    w.field(engine::to_seconds(s.transfer_time), 6).field(s.bytes, 0);
    if (s.credits_left) {
      w.field(*s.credits_left, 4);
    } else {
      w.empty();
    }
    w.end_row();
  }
}

void print_demo_table(const scenario::RunSpec& run, const protocols::DemoResult& r) {
  std::cout << "run " << run.name << " (demo): " << r.workers.size() << " workers, simulated "
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
  for (const auto& s : r.workers) {
    const double mean =
        s.iterations > 0 ? engine::to_seconds(s.finished) / static_cast<double>(s.iterations) : 0.0;
    table.rows.push_back({s.node, s.profile, std::to_string(s.iterations),
                          fixed(engine::to_seconds(s.finished), 3), fixed(mean, 3),
                          fixed(engine::to_seconds(s.compute_time), 3),
                          fixed(engine::to_seconds(s.transfer_time), 3),
                          s.credits_left ? fixed(*s.credits_left, 2) : "-"});
  }
  config::render_text(std::cout, table);
}

// Progress of a protocol run on stderr: rewritten in place on a terminal, a plain line every
// 10 s of wall time otherwise (logs, CI). A run's length is not known in advance: it ends when
// the global loss has not improved for `patience` evaluations. The ETA is therefore a lower
// bound: the evaluations left if the loss never improves again, at the run's mean wall time per
// evaluation so far.
class Progress {
 public:
  Progress(std::string label, Clock::time_point start, int patience)
      : label_(std::move(label)),
        start_(start),
        patience_(patience),
        tty_(::isatty(STDERR_FILENO) != 0) {}

  void update(const protocols::RunResult& r, engine::SimTime now) {
    const auto wall = Clock::now();
    if (!tty_ && wall - last_ < std::chrono::seconds(10)) return;
    last_ = wall;
    const double elapsed = std::chrono::duration<double>(wall - start_).count();
    const auto evaluations = static_cast<double>(r.global.size());
    const int left = std::max(0, patience_ - r.evaluations_since_best);
    std::ostringstream os;
    os << label_ << ": simulated " << std::fixed << std::setprecision(1) << engine::to_seconds(now)
       << " s, " << r.iterations << " updates, accuracy " << std::setprecision(2)
       << 100.0 * (r.global.empty() ? 0.0 : r.global.back().accuracy) << "% (best loss "
       << std::setprecision(4) << r.best_loss << "), wall " << std::setprecision(0) << elapsed
       << " s, ETA >= " << (evaluations > 0 ? elapsed / evaluations * left : 0.0)
       << " s (if none of the next " << left << " evaluations improves the loss)";
    std::cerr << (tty_ ? "\r\033[K" : "") << os.str() << (tty_ ? "" : "\n") << std::flush;
  }
  void done() const {
    if (tty_) std::cerr << '\n';
  }

 private:
  std::string label_;
  Clock::time_point start_;
  int patience_;
  Clock::time_point last_{};
  bool tty_;
};

void print_run_line(const protocols::FinishedRun& f, double wall_s) {
  const auto& r = f.result;
  std::cout << "run " << std::left << std::setw(14) << f.spec->name << std::right << " status "
            << r.status << " (" << r.stop_reason << "), " << r.iterations << " updates, "
            << r.total_local_iterations() << " local iterations, simulated " << std::fixed
            << std::setprecision(1) << engine::to_seconds(r.sim_time) / 60.0 << " min, WI "
            << std::setprecision(2) << r.wi_avg() << ", accuracy " << 100.0 * r.accuracy_at_best
            << "%, API calls " << r.api.total() << ", wall " << std::setprecision(1) << wall_s
            << " s\n";
}

}  // namespace

void check_runnable(const scenario::Scenario& sc, const std::string& file) {
  for (const auto& run : sc.runs) {
    if (run.protocol != scenario::Protocol::kDemo && !protocols::is_simulated(run.protocol)) {
      throw InputError(file + ": run '" + run.name + "': protocol '" +
                       std::string(scenario::protocol_name(run.protocol)) +
                       "' is specified but not simulated yet; this version runs: bsp, asp, ssp, "
                       "ebsp, hermes, demo");
    }
  }
}

protocols::ResourceEstimate check_limits(const scenario::Scenario& sc, const std::string& file,
                                         const protocols::ResourceLimits& limits, bool trace) {
  Diagnostics diags(file);
  protocols::check_resources(sc, limits, trace, diags);
  diags.throw_if_errors();
  return protocols::estimate_resources(sc, trace);
}

bool needs_data(const scenario::Scenario& sc) {
  for (const auto& run : sc.runs) {
    if (run.protocol != scenario::Protocol::kDemo) return true;
  }
  return false;
}

std::vector<std::string> run_scenario(const scenario::Scenario& sc,
                                      const data::TrainTestSplit& data, const RunOutputDir& dir,
                                      const RunScenarioOptions& options) {
  // Rendered before the runs: anything that could keep it from being written (a string that is
  // not UTF-8) fails now, not after hours of simulation.
  const std::string scenario_text = sc.document.dump(2) + "\n";
  const bool any_protocol = needs_data(sc);
  bool any_demo = false;
  std::vector<protocols::FinishedRun> finished;
  std::ostringstream demo_csv;
  metrics::CsvWriter demo_rows(demo_csv, {"run", "node", "profile", "iterations", "finished_s",
                                          "compute_s", "transfer_s", "bytes", "credits_left"});
  metrics::Timeline timeline;
  for (std::size_t i = 0; i < sc.runs.size(); ++i) {
    const auto& run = sc.runs[i];
    std::optional<protocols::TraceRecorder> recorder;
    if (options.trace != nullptr) recorder.emplace(*options.trace, sc, run);
    if (run.protocol == scenario::Protocol::kDemo) {
      any_demo = true;
      const bool keep = sc.outputs.timeline || recorder;
      const auto r = protocols::run_demo(sc, run, keep ? &timeline : nullptr);
      if (recorder) recorder->add_demo_timeline(timeline);
      write_demo_rows(demo_rows, run, r);
      if (options.report) print_demo_table(run, r);
      continue;
    }
    protocols::RunObserver* observer = recorder ? &*recorder : nullptr;
    if (!options.report) {
      finished.push_back(
          {&run, protocols::run_protocol(sc, run, data, {}, options.pool, observer)});
      continue;
    }
    const auto t0 = Clock::now();
    Progress progress(
        "[" + std::to_string(i + 1) + "/" + std::to_string(sc.runs.size()) + " " + run.name + "]",
        t0, sc.training.stop.patience);
    finished.push_back(
        {&run, protocols::run_protocol(
                   sc, run, data, [&](const auto& r, auto now) { progress.update(r, now); },
                   options.pool, observer)});
    progress.done();
    print_run_line(finished.back(), std::chrono::duration<double>(Clock::now() - t0).count());
  }

  std::vector<std::string> written;
  auto write = [&](const std::string& name, const std::string& content) {
    metrics::write_file_atomically(dir.file(name), content);
    written.push_back(name);
  };
  if (any_protocol) {
    std::ostringstream summary, global, workers, api;
    protocols::write_summary_csv(summary, sc, finished);
    protocols::write_global_csv(global, finished);
    protocols::write_workers_csv(workers, sc, finished);
    protocols::write_api_csv(api, finished);
    write("summary.csv", summary.str());
    write("global.csv", global.str());
    write("workers.csv", workers.str());
    write("api.csv", api.str());
  }
  if (any_demo) {
    write("demo_workers.csv", demo_csv.str());
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
