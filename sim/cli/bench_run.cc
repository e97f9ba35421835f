// hermes-sim bench run SCENARIO: how fast the simulator runs a fixed scenario, and where the time
// goes. Figures go to stdout; the run files are written, to time them, into a temporary directory
// that is removed at once.
//
// For each count of --threads-list every run of the scenario runs once, and per run and in total
// the bench prints:
//   wall       wall-clock seconds
//   speedup    wall of the same run at the first thread count / this wall
//   math%      time inside the math tasks (training, evaluations), summed over threads, / (wall x
//              threads): how busy the threads were with math
//   sim%       the simulation thread's own time (events, transfers, protocol logic, copies):
//              wall minus its math and its waits, / wall. The overhead of the simulator
//   wait%      the simulation thread blocked on a result another thread was computing, / wall
//   ovh%       CPU time outside the math tasks / process CPU time: the overhead measured in CPU
//              time, which other load on the machine does not inflate
//   it/s       simulated local iterations per wall second
//   limit      the math-bound time: the run's training and evaluation FLOPs as the simulator
//              charges them / (GEMM GFLOP/s measured here on the model's training shapes x threads)
//   wall/lim   how close the run is to that limit
//   GF/s/thr   FLOPs / CPU seconds inside the math tasks: the math's own speed per thread, to
//              compare with the GEMM rate (independent of other load on the machine)
//   cpu/wall   process CPU seconds / wall: how much of the machine the bench actually got
//   peak MB    ru_maxrss: the process's peak resident memory so far (dataset included)
// Then where the time went at each thread count, for all runs together, in seconds of thread
// time and as shares of the work (train + eval + sim + io):
//   train      the workers' training tasks (their local loss evaluations included)
//   eval       evaluations of the global model on the test set (on the pool or the PS's thread)
//   sim        the simulation thread's own time, as sim% above
//   io         rendering and writing the run's CSVs and scenario.json
//   wait       the simulation thread blocked on a result; idle% the pool's threads with nothing
//              to run, / ((wall + io) x threads)
// Then the worker scaling: the scenario's worker groups repeated to each count of --workers-list,
// every run capped at --updates-per-worker PS updates per worker with patience off, at the last
// thread count: wall time per GFLOP of math should stay flat as the cluster grows.
#include <sys/resource.h>

#include <boost/program_options.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "base/diagnostics.h"
#include "models/data/loaders.h"
#include "models/nn/bench.h"
#include "sim/cli/commands.h"
#include "sim/cli/gemm_kernel_choice.h"
#include "sim/cli/options.h"
#include "sim/cli/run_scenario.h"
#include "sim/cli/run_selection.h"
#include "sim/metrics/atomic_file.h"
#include "sim/parallel/thread_pool.h"
#include "sim/protocols/registry.h"
#include "sim/protocols/skeleton/workload.h"
#include "sim/scenario/protocol_descriptor.h"

namespace hermes::cli {

namespace {

using Clock = std::chrono::steady_clock;

double seconds(const timeval& tv) {
  return static_cast<double>(tv.tv_sec) + 1e-6 * static_cast<double>(tv.tv_usec);
}

rusage usage() {
  rusage ru{};
  ::getrusage(RUSAGE_SELF, &ru);
  return ru;
}

double process_cpu_seconds() {
  const rusage ru = usage();
  return seconds(ru.ru_utime) + seconds(ru.ru_stime);
}

double peak_rss_mb() { return static_cast<double>(usage().ru_maxrss) / 1024.0; }

// One run, or the sum of several, at one thread count.
struct Sample {
  std::string name;
  int threads = 1;
  double wall = 0;
  double cpu = 0;  // process CPU seconds (user + system)
  parallel::PoolStats pool;
  std::int64_t local_iterations = 0;
  double flops = 0;  // training + evaluation, as charged
  double io = 0;     // wall seconds rendering and writing the run files (the total only)

  void add(const Sample& o) {
    wall += o.wall;
    cpu += o.cpu;
    pool.task_seconds += o.pool.task_seconds;
    pool.task_cpu_seconds += o.pool.task_cpu_seconds;
    pool.caller_task_seconds += o.pool.caller_task_seconds;
    pool.wait_seconds += o.pool.wait_seconds;
    pool.tasks += o.pool.tasks;
    pool.training_seconds += o.pool.training_seconds;
    pool.evaluation_seconds += o.pool.evaluation_seconds;
    local_iterations += o.local_iterations;
    flops += o.flops;
  }
  double math_share() const { return pool.task_seconds / (wall * threads); }
  double sim_seconds() const { return wall - pool.caller_task_seconds - pool.wait_seconds; }
  double sim_share() const { return sim_seconds() / wall; }
  double wait_share() const { return pool.wait_seconds / wall; }
  double overhead_cpu_share() const { return (cpu - pool.task_cpu_seconds) / cpu; }
  double limit(double gemm_gflops) const { return flops / (gemm_gflops * 1e9 * threads); }
};

// Appends the run's result to `finished`.
Sample run_one(const scenario::Scenario& sc, const scenario::RunSpec& run,
               const data::TrainTestSplit& data, parallel::ThreadPool& pool,
               std::vector<protocols::FinishedRun>& finished) {
  const parallel::PoolStats stats0 = pool.stats();
  const double cpu0 = process_cpu_seconds();
  const auto t0 = Clock::now();
  protocols::RunResult r = protocols::run_protocol(sc, run, data, {}, &pool);
  Sample s;
  s.name = run.name;
  s.threads = pool.threads();
  s.wall = std::chrono::duration<double>(Clock::now() - t0).count();
  s.cpu = process_cpu_seconds() - cpu0;
  s.pool = pool.stats() - stats0;
  s.local_iterations = r.total_local_iterations();
  s.flops = r.train_flops + r.eval_flops;
  finished.push_back({&run, std::move(r)});
  return s;
}

// Wall seconds to render the runs' CSVs and scenario.json, as `hermes-sim run` does, and write
// them into a fresh temporary directory; removes the files it wrote and the directory.
double time_output(const scenario::Scenario& sc,
                   const std::vector<protocols::FinishedRun>& finished) {
  namespace fs = std::filesystem;
  std::string pattern = (fs::temp_directory_path() / "hermes-bench-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("bench run: cannot make a temporary directory " + pattern);
  }
  const fs::path dir = pattern;
  std::vector<fs::path> written;
  const auto write = [&](const std::string& name, const std::string& content) {
    written.push_back(dir / name);
    metrics::write_file_atomically(written.back().string(), content);
  };
  const auto t0 = Clock::now();
  try {
    write_protocol_csvs(sc, finished, write);
    write("scenario.json", sc.document.dump(2) + "\n");
  } catch (...) {
    for (const fs::path& p : written) fs::remove(p);
    fs::remove(dir);
    throw;
  }
  const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
  for (const fs::path& p : written) fs::remove(p);
  fs::remove(dir);
  return wall;
}

// Every run of the scenario; returns their total (name "all").
Sample run_all(const scenario::Scenario& sc, const data::TrainTestSplit& data, int threads,
               const std::function<void(const Sample&)>& each) {
  parallel::ThreadPool pool(threads);
  Sample total;
  total.name = "all";
  total.threads = threads;
  std::vector<protocols::FinishedRun> finished;
  for (const auto& run : sc.runs) {
    const Sample s = run_one(sc, run, data, pool, finished);
    each(s);
    total.add(s);
  }
  total.io = time_output(sc, finished);
  return total;
}

std::vector<int> parse_counts(const std::string& text, const std::string& option, int lo, int hi) {
  std::vector<int> out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) {
    std::size_t used = 0;
    int v = 0;
    try {
      v = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size() || v < lo || v > hi) {
      throw InputError(option + ": '" + item + "' is not accepted (accepted: comma-separated " +
                       "integers " + std::to_string(lo) + " .. " + std::to_string(hi) + ")");
    }
    out.push_back(v);
  }
  return out;
}

void print_run_header() {
  std::cout << std::left << std::setw(18) << "run" << std::right << std::setw(4) << "thr"
            << std::setw(8) << "iters" << std::setw(9) << "GFLOP" << std::setw(9) << "wall_s"
            << std::setw(8) << "speedup" << std::setw(7) << "math%" << std::setw(6) << "sim%"
            << std::setw(7) << "wait%" << std::setw(6) << "ovh%" << std::setw(8) << "it/s"
            << std::setw(9) << "limit_s" << std::setw(9) << "wall/lim" << std::setw(10)
            << "GF/s/thr" << std::setw(9) << "cpu/wall" << std::setw(9) << "peak_MB" << '\n';
}

// `first`: the same run at the first thread count.
void print_run_row(const Sample& s, const Sample& first, double gemm_gflops) {
  std::cout << std::left << std::setw(18) << s.name << std::right << std::fixed << std::setw(4)
            << s.threads << std::setw(8) << s.local_iterations << std::setw(9)
            << std::setprecision(0) << s.flops * 1e-9 << std::setw(9) << std::setprecision(1)
            << s.wall << std::setw(8) << std::setprecision(2) << first.wall / s.wall << std::setw(7)
            << std::setprecision(1) << 100.0 * s.math_share() << std::setw(6)
            << 100.0 * s.sim_share() << std::setw(7) << 100.0 * s.wait_share() << std::setw(6)
            << 100.0 * s.overhead_cpu_share() << std::setw(8) << std::setprecision(2)
            << static_cast<double>(s.local_iterations) / s.wall << std::setw(9)
            << std::setprecision(1) << s.limit(gemm_gflops) << std::setw(9) << std::setprecision(2)
            << s.wall / s.limit(gemm_gflops) << std::setw(10) << std::setprecision(1)
            << s.flops * 1e-9 / s.pool.task_cpu_seconds << std::setw(9) << std::setprecision(2)
            << s.cpu / s.wall << std::setw(9) << std::setprecision(0) << peak_rss_mb() << std::endl;
}

void print_time_shares(const std::vector<Sample>& totals, double gemm_gflops) {
  std::cout << "\nwhere the time goes (all runs): seconds of thread time, shares of the work\n"
            << std::right << std::setw(4) << "thr" << std::setw(9) << "train_s" << std::setw(8)
            << "eval_s" << std::setw(7) << "sim_s" << std::setw(7) << "io_s" << std::setw(8)
            << "train%" << std::setw(7) << "eval%" << std::setw(6) << "sim%" << std::setw(6)
            << "io%" << std::setw(8) << "wait_s" << std::setw(7) << "idle%" << std::setw(9)
            << "wall_s" << std::setw(9) << "limit_s" << std::setw(9) << "wall/lim" << '\n';
  for (const Sample& s : totals) {
    // Protocol runs submit no task of kind kOther; were there any, they would count as training.
    const double other = s.pool.task_seconds - s.pool.training_seconds - s.pool.evaluation_seconds;
    const double work = s.pool.task_seconds + s.sim_seconds() + s.io;
    const double wall = s.wall + s.io;
    const double idle = wall * s.threads - work - s.pool.wait_seconds;
    const auto pct = [&](double v) { return 100.0 * v / work; };
    std::cout << std::fixed << std::setw(4) << s.threads << std::setprecision(3) << std::setw(9)
              << s.pool.training_seconds + other << std::setw(8) << s.pool.evaluation_seconds
              << std::setw(7) << s.sim_seconds() << std::setw(7) << s.io << std::setprecision(1)
              << std::setw(8) << pct(s.pool.training_seconds + other) << std::setw(7)
              << pct(s.pool.evaluation_seconds) << std::setw(6) << std::setprecision(2)
              << pct(s.sim_seconds()) << std::setw(6) << pct(s.io) << std::setw(8)
              << s.pool.wait_seconds << std::setprecision(1) << std::setw(7)
              << 100.0 * idle / (wall * s.threads) << std::setprecision(2) << std::setw(9) << wall
              << std::setw(9) << s.limit(gemm_gflops) << std::setw(9) << wall / s.limit(gemm_gflops)
              << '\n';
  }
}

// The scenario with its worker groups repeated to `workers` and its runs capped.
scenario::Scenario scaled(const std::string& file, std::vector<std::string> sets,
                          const scenario::Scenario& base, int workers, int updates_per_worker) {
  const int n = static_cast<int>(base.worker_count());
  if (workers % n != 0) {
    throw InputError("--workers-list: " + std::to_string(workers) + " is not a multiple of the " +
                     std::to_string(n) + " workers of " + file +
                     " (the scaled clusters repeat its worker groups)");
  }
  std::vector<int> counts;
  for (const auto& node : base.nodes) {
    if (node.is_ps()) continue;
    if (static_cast<std::size_t>(node.group) >= counts.size()) counts.resize(node.group + 1, 0);
    ++counts[static_cast<std::size_t>(node.group)];
  }
  for (std::size_t g = 0; g < counts.size(); ++g) {
    if (counts[g] > 0) {
      sets.push_back("cluster.workers." + std::to_string(g) +
                     ".count=" + std::to_string(counts[g] * (workers / n)));
    }
  }
  sets.push_back("training.stop.max_iterations=" +
                 std::to_string(static_cast<std::int64_t>(updates_per_worker) * workers));
  sets.push_back("training.stop.patience=1000000000");
  return scenario::load_scenario(file, sets, source_dir());
}

}  // namespace

int bench_run(const Args& args) {
  po::options_description desc(
      "hermes-sim bench run SCENARIO [options]\n\nRuns every run of a scenario at each thread "
      "count (no output files) and prints wall time, the shares of math, simulation and waiting, "
      "iterations per second, the speedup, the math-bound limit (FLOPs / GEMM rate x threads) "
      "and peak memory; then the wall time of shortened runs on clusters of growing size");
  std::string threads_list, workers_list, only, data_dir;
  std::vector<std::string> sets;
  int updates_per_worker = 0, gemm_repeats = 0;
  desc.add_options()("help,h", "show this help")(
      "threads-list", po::value<std::string>(&threads_list)->default_value("1,2"),
      "comma-separated thread counts to run the scenario with")(
      "workers-list", po::value<std::string>(&workers_list)->default_value("12,48,192"),
      "comma-separated cluster sizes for the scaling runs, multiples of the scenario's worker "
      "count ('' skips them)")("updates-per-worker",
                               po::value<int>(&updates_per_worker)->default_value(1),
                               "scaling runs stop after this many PS updates per worker")(
      "gemm-repeats", po::value<int>(&gemm_repeats)->default_value(5),
      "timed runs of the GEMM rate measurement (the median is used)");
  add_runs_option(desc, only);
  add_set_option(desc, sets);
  add_data_dir_option(desc, data_dir);
  po::variables_map vm;
  const auto arg = parse_options_and_argument("bench run", args, desc, vm, "scenario file",
                                              "hermes-sim bench run SCENARIO");
  if (!arg) return 0;
  const std::string& file = *arg;
  const std::vector<int> thread_counts = parse_counts(threads_list, "--threads-list", 1, 1024);
  if (thread_counts.empty()) throw InputError("--threads-list: no thread count given");
  const std::vector<int> worker_counts = parse_counts(workers_list, "--workers-list", 1, 100000);
  if (updates_per_worker < 1) throw InputError("--updates-per-worker must be >= 1");
  if (gemm_repeats < 1) throw InputError("--gemm-repeats must be >= 1");

  scenario::Scenario sc = scenario::load_scenario(file, sets, source_dir());
  if (!only.empty()) select_runs(sc, only, file);
  for (const auto& run : sc.runs) {
    if (!scenario::trains(run.protocol)) {
      throw InputError(file + ": run '" + run.name +
                       "': bench run times protocol runs only (not demo); pick runs with --runs");
    }
  }
  // Validate the scaled clusters before spending minutes on the first part.
  for (int w : worker_counts) scaled(file, sets, sc, w, updates_per_worker);

  const data::DataLocation location = data::locate_dataset(sc.dataset.files, data_dir);
  std::cout << "data: " << data::location_text(location) << std::endl;
  const data::TrainTestSplit data = data::load_dataset(location);
  const nn::GemmChoice kernel = use_gemm_kernel("auto", scenario_gemm_products({&sc}));
  std::cout << "gemm kernel: " << kernel.text() << std::endl;
  const nn::Timing gemm =
      nn::bench_gemms(protocols::scenario_model_spec(sc), sc.training.batch_size, gemm_repeats, 0.2,
                      nn::default_gemm_engine());
  const double gemm_gflops = gemm.gflops();
  std::cout << "bench run " << file << ": " << sc.runs.size() << " runs, " << sc.worker_count()
            << " workers, " << sc.dataset.name << "/" << sc.model.name << "; "
            << std::thread::hardware_concurrency() << " hardware threads\n"
            << "GEMM rate: " << std::fixed << std::setprecision(1) << gemm_gflops
            << " GFLOP/s per thread (the model's batch-" << sc.training.batch_size
            << " training GEMMs, thread CPU time, median of " << gemm_repeats << ")\n"
            << "after loading the data: peak " << std::setprecision(0) << peak_rss_mb()
            << " MB\n\n";

  print_run_header();
  std::map<std::string, Sample> first;  // by run name, at the first thread count
  std::vector<Sample> totals;
  for (int threads : thread_counts) {
    auto row = [&](const Sample& s) {
      if (threads == thread_counts.front()) first[s.name] = s;
      print_run_row(s, first[s.name], gemm_gflops);
    };
    totals.push_back(run_all(sc, data, threads, row));
    row(totals.back());
  }
  print_time_shares(totals, gemm_gflops);

  if (worker_counts.empty()) return 0;
  const int threads = thread_counts.back();
  std::cout << "\nscaling: worker groups repeated, runs capped at " << updates_per_worker
            << " PS update(s) per worker, patience off, " << threads << " threads\n";
  std::cout << std::right << std::setw(8) << "workers" << std::setw(9) << "iters" << std::setw(9)
            << "GFLOP" << std::setw(9) << "wall_s" << std::setw(11) << "ms/GFLOP" << std::setw(8)
            << "growth" << std::setw(7) << "math%" << std::setw(6) << "sim%" << std::setw(7)
            << "wait%" << std::setw(6) << "ovh%" << std::setw(9) << "wall/lim" << std::setw(9)
            << "cpu/wall" << std::setw(9) << "peak_MB" << '\n';
  double first_ms_per_gflop = 0;
  for (int w : worker_counts) {
    scenario::Scenario big = scaled(file, sets, sc, w, updates_per_worker);
    if (!only.empty()) select_runs(big, only, file);
    const Sample s = run_all(big, data, threads, [](const Sample&) {});
    const double ms_per_gflop = 1e3 * s.wall / (s.flops * 1e-9);
    if (first_ms_per_gflop == 0) first_ms_per_gflop = ms_per_gflop;
    std::cout << std::setw(8) << w << std::setw(9) << s.local_iterations << std::setw(9)
              << std::setprecision(0) << s.flops * 1e-9 << std::setw(9) << std::setprecision(1)
              << s.wall << std::setw(11) << std::setprecision(2) << ms_per_gflop << std::setw(8)
              << ms_per_gflop / first_ms_per_gflop << std::setw(7) << std::setprecision(1)
              << 100.0 * s.math_share() << std::setw(6) << 100.0 * s.sim_share() << std::setw(7)
              << 100.0 * s.wait_share() << std::setw(6) << 100.0 * s.overhead_cpu_share()
              << std::setw(9) << std::setprecision(2) << s.wall / s.limit(gemm_gflops)
              << std::setw(9) << s.cpu / s.wall << std::setw(9) << std::setprecision(0)
              << peak_rss_mb() << std::endl;
  }
  return 0;
}

}  // namespace hermes::cli
