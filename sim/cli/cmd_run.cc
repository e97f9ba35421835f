// hermes-sim run SCENARIO: runs every run of a scenario and writes its results directory.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "models/data/loaders.h"
#include "sim/cli/commands.h"
#include "sim/cli/options.h"
#include "sim/cli/run_output.h"
#include "sim/cli/run_selection.h"
#include "sim/metrics/atomic_file.h"
#include "sim/metrics/csv_writer.h"
#include "sim/metrics/timeline.h"
#include "sim/parallel/thread_pool.h"
#include "sim/protocols/demo.h"
#include "sim/protocols/protocol_run.h"
#include "sim/protocols/result_csv.h"
#include "sim/scenario/scenario.h"

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
  std::cout << "  " << std::left << std::setw(6) << "node" << std::setw(10) << "profile"
            << std::right << std::setw(6) << "iters" << std::setw(12) << "finished_s"
            << std::setw(12) << "mean_iter_s" << std::setw(12) << "compute_s" << std::setw(12)
            << "transfer_s" << std::setw(10) << "credits" << '\n';
  for (const auto& s : r.workers) {
    const double mean =
        s.iterations > 0 ? engine::to_seconds(s.finished) / static_cast<double>(s.iterations) : 0.0;
    std::cout << "  " << std::left << std::setw(6) << s.node << std::setw(10) << s.profile
              << std::right << std::setw(6) << s.iterations << std::setw(12) << std::setprecision(3)
              << engine::to_seconds(s.finished) << std::setw(12) << mean << std::setw(12)
              << engine::to_seconds(s.compute_time) << std::setw(12)
              << engine::to_seconds(s.transfer_time) << std::setw(10);
    if (s.credits_left) {
      std::cout << std::setprecision(2) << *s.credits_left;
    } else {
      std::cout << "-";
    }
    std::cout << '\n';
  }
}

// Progress of a protocol run on stderr: rewritten in place on a terminal, a plain line every
// 10 s of wall time otherwise (logs, CI).
class Progress {
 public:
  Progress(std::string label, Clock::time_point start)
      : label_(std::move(label)), start_(start), tty_(::isatty(STDERR_FILENO) != 0) {}

  void update(const protocols::RunResult& r, engine::SimTime now) {
    const auto wall = Clock::now();
    if (!tty_ && wall - last_ < std::chrono::seconds(10)) return;
    last_ = wall;
    std::ostringstream os;
    os << label_ << ": simulated " << std::fixed << std::setprecision(1) << engine::to_seconds(now)
       << " s, " << r.iterations << " updates, accuracy " << std::setprecision(2)
       << 100.0 * (r.global.empty() ? 0.0 : r.global.back().accuracy) << "% (best loss "
       << std::setprecision(4) << r.best_loss << "), wall " << std::setprecision(0)
       << std::chrono::duration<double>(wall - start_).count() << " s";
    std::cerr << (tty_ ? "\r\033[K" : "") << os.str() << (tty_ ? "" : "\n") << std::flush;
  }
  void done() const {
    if (tty_) std::cerr << '\n';
  }

 private:
  std::string label_;
  Clock::time_point start_;
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

int cmd_run(const Args& args) {
  po::options_description desc(
      "hermes-sim run SCENARIO [options]\n\nRuns every run of a scenario file and writes "
      "scenario.json, summary.csv, global.csv and workers.csv (protocol runs) or "
      "demo_workers.csv and timeline.csv (demo runs) into the output directory");
  std::string out, data_dir, only;
  std::vector<std::string> sets;
  int threads = default_threads();
  desc.add_options()("help,h", "show this help")(
      "out,o", po::value<std::string>(&out),
      "output directory (default: outputs.dir of the scenario, else "
      "results/<name>-<timestamp>)")(
      "set", po::value<std::vector<std::string>>(&sets)->composing(),
      "override a scenario value: key.path=value (repeatable; runs.<name>.<key> addresses a "
      "run by name)")("force", "replace an existing, non-empty output directory")(
      "runs", po::value<std::string>(&only),
      "comma-separated names of the runs to execute (default: all, in file order)")(
      "data-dir", po::value<std::string>(&data_dir),
      "directory holding the dataset (default: $HERMES_DATA_DIR, <repo>/data, "
      "<repo>/../shared/data)")(
      "threads", po::value<int>(&threads)->default_value(threads),
      "threads running the training math (default: the machine's hardware threads; 1 runs it "
      "inline on the simulation thread). Results are the same for every value");
  po::variables_map vm;
  const auto arg =
      parse_options_and_argument("run", args, desc, vm, "scenario file", "hermes-sim run SCENARIO");
  if (!arg) return 0;
  const std::string& file = *arg;
  check_threads(threads, "--threads");

  scenario::Scenario sc = scenario::load_scenario(file, sets, source_dir());
  if (!only.empty()) select_runs(sc, only, file);
  bool any_protocol = false, any_demo = false;
  for (const auto& run : sc.runs) {
    const bool demo = run.protocol == scenario::Protocol::kDemo;
    any_demo |= demo;
    any_protocol |= !demo;
    if (!demo && !protocols::is_simulated(run.protocol)) {
      throw InputError(file + ": run '" + run.name + "': protocol '" +
                       std::string(scenario::protocol_name(run.protocol)) +
                       "' is specified but not simulated yet; this version runs: bsp, asp, ssp, "
                       "ebsp, hermes, demo");
    }
  }
  if (out.empty()) out = sc.outputs.dir.value_or(default_output_dir(source_dir(), sc.name));
  RunOutputDir dir(out, vm.count("force") > 0);

  data::TrainTestSplit data;
  if (any_protocol) data = data::load_dataset(sc.dataset.name, data_dir);

  parallel::ThreadPool pool(threads);
  const auto wall0 = Clock::now();
  std::vector<protocols::FinishedRun> finished;
  std::ostringstream demo_csv;
  metrics::CsvWriter demo_rows(demo_csv, {"run", "node", "profile", "iterations", "finished_s",
                                          "compute_s", "transfer_s", "bytes", "credits_left"});
  metrics::Timeline timeline;
  for (std::size_t i = 0; i < sc.runs.size(); ++i) {
    const auto& run = sc.runs[i];
    if (run.protocol == scenario::Protocol::kDemo) {
      const auto r = protocols::run_demo(sc, run, sc.outputs.timeline ? &timeline : nullptr);
      write_demo_rows(demo_rows, run, r);
      print_demo_table(run, r);
      continue;
    }
    const auto t0 = Clock::now();
    Progress progress(
        "[" + std::to_string(i + 1) + "/" + std::to_string(sc.runs.size()) + " " + run.name + "]",
        t0);
    finished.push_back(
        {&run,
         protocols::run_protocol(
             sc, run, data, [&](const auto& r, auto now) { progress.update(r, now); }, &pool)});
    progress.done();
    print_run_line(finished.back(), std::chrono::duration<double>(Clock::now() - t0).count());
  }

  std::vector<std::string> written;
  auto write = [&](const std::string& name, const std::string& content) {
    metrics::write_file_atomically(dir.file(name), content);
    written.push_back(name);
  };
  if (any_protocol) {
    std::ostringstream summary, global, workers;
    protocols::write_summary_csv(summary, sc, finished);
    protocols::write_global_csv(global, finished);
    protocols::write_workers_csv(workers, sc, finished);
    write("summary.csv", summary.str());
    write("global.csv", global.str());
    write("workers.csv", workers.str());
  }
  if (any_demo) {
    write("demo_workers.csv", demo_csv.str());
    if (sc.outputs.timeline) {
      std::ostringstream tl;
      timeline.write_csv(tl);
      write("timeline.csv", tl.str());
    }
  }
  write("scenario.json", sc.document.dump(2) + "\n");
  dir.commit();
  std::cout << "wrote " << dir.target() << "/{";
  for (std::size_t i = 0; i < written.size(); ++i) std::cout << (i ? "," : "") << written[i];
  std::cout << "} (wall " << std::fixed << std::setprecision(1)
            << std::chrono::duration<double>(Clock::now() - wall0).count() << " s, " << threads
            << (threads == 1 ? " thread" : " threads") << ")\n";
  return 0;
}

}  // namespace hermes::cli
