// hermes-sim run SCENARIO: runs every run of a scenario and writes its results directory.
#include <chrono>
#include <iomanip>
#include <iostream>
#include <optional>

#include "models/data/loaders.h"
#include "sim/cli/commands.h"
#include "sim/cli/gemm_kernel_choice.h"
#include "sim/cli/options.h"
#include "sim/cli/progress_options.h"
#include "sim/cli/provenance.h"
#include "sim/cli/run_output.h"
#include "sim/cli/run_progress.h"
#include "sim/cli/run_scenario.h"
#include "sim/cli/run_selection.h"
#include "sim/common/build_info.h"
#include "sim/metrics/atomic_file.h"
#include "sim/metrics/chrome_trace.h"
#include "sim/parallel/thread_pool.h"
#include "sim/scenario/scenario.h"

namespace hermes::cli {

namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

int cmd_run(const Args& args) {
  install_interrupt_cleanup("run");  // before any thread starts: they inherit its signal mask
  po::options_description desc(
      "hermes-sim run SCENARIO [options]\n\nRuns every run of a scenario file and writes "
      "scenario.json, provenance.json (build, host, command line, dataset checksums), "
      "summary.csv, global.csv, workers.csv and api.csv (protocol runs) or demo_workers.csv and "
      "timeline.csv (demo runs) into the output directory");
  std::string out, data_dir, only, trace_file, progress_format, gemm_kernel;
  std::vector<std::string> sets;
  int threads = default_threads();
  double max_memory_gb = 0, max_hours = 0;
  desc.add_options()("help,h", "show this help")(
      "out,o", po::value<std::string>(&out),
      "output directory (default: outputs.dir of the scenario, else results/<name>-<timestamp> "
      "in the source tree for a build-tree binary, or ./hermes-results/<name>-<timestamp> for an "
      "installed one or with $HERMES_HOME set; hermes-sim --version says which home it uses)");
  add_set_option(desc, sets);
  desc.add_options()("force",
                     "replace an existing run directory hermes-sim wrote (it holds .hermes-run; "
                     "the new results are put in place first, then the old ones removed) and "
                     "an existing --trace file hermes-sim wrote; never anything else");
  add_runs_option(desc, only);
  desc.add_options()("trace", po::value<std::string>(&trace_file),
                     "also write the runs' timeline to FILE as Chrome trace-event JSON (Perfetto, "
                     "chrome://tracing): one process per run, one track per node");
  add_data_dir_option(desc, data_dir);
  desc.add_options()(
      "threads", po::value<int>(&threads)->default_value(threads),
      "threads running the training math (default: the machine's hardware threads; 1 runs it "
      "inline on the simulation thread). Results are the same for every value");
  add_gemm_kernel_option(desc, gemm_kernel);
  add_resource_options(desc, max_memory_gb, max_hours);
  add_progress_options(desc, progress_format);
  po::variables_map vm;
  const auto arg =
      parse_options_and_argument("run", args, desc, vm, "scenario file", "hermes-sim run SCENARIO");
  if (!arg) return 0;
  const std::string& file = *arg;
  check_threads(threads, "--threads");
  check_gemm_kernel_option(gemm_kernel);
  ProgressLog log = make_progress_log(progress_options_from(vm, progress_format));
  const bool force = vm.count("force") > 0;

  scenario::Scenario sc = scenario::load_scenario(file, sets, source_dir());
  if (!only.empty()) select_runs(sc, only, file);
  count_own_dataset(sc, data_dir);
  const auto estimate =
      check_limits(sc, file, resource_limits_from(max_memory_gb, max_hours), !trace_file.empty());
  // Every output path is checked, and the run's temporary directory created, before any work:
  // hours of simulation must never be lost to a bad path.
  std::string what = "--out";
  if (out.empty() && sc.outputs.dir) {
    out = *sc.outputs.dir;
    what = file + ": /outputs/dir";
  }
  if (out.empty()) out = default_output_dir(home_dir(), sc.name);
  std::vector<std::string> notes;
  if (!trace_file.empty()) notes = check_trace_target(trace_file, force, out);
  RunOutputDir dir(out, force, what);
  for (const auto& n : dir.notes()) notes.push_back(n);
  metrics::ChromeTrace trace;
  std::optional<metrics::AtomicFile> trace_out;
  try {
    if (!trace_file.empty()) trace_out.emplace(trace_file);
  } catch (const std::exception& e) {
    throw InputError(std::string("--trace: ") + e.what());
  }
  for (const auto& n : notes) log.note(n);
  if (protocols::is_large(estimate)) log.note("estimate: " + protocols::estimate_text(estimate));

  std::cout << build_line(build_info()) << '\n';
  Provenance provenance;
  provenance.threads = threads;
  data::TrainTestSplit data;
  if (needs_data(sc)) {
    const data::DataLocation location = data::locate_dataset(sc.dataset.files, data_dir);
    std::cout << "data: " << data::location_text(location) << std::endl;
    provenance.datasets.push_back(dataset_provenance(location));
    data = data::load_dataset(location);
    check_loaded_data(sc, data);
    const nn::GemmChoice gemm = use_gemm_kernel(gemm_kernel, scenario_gemm_products({&sc}));
    std::cout << "gemm kernel: " << gemm.text() << std::endl;
    provenance.gemm = gemm_provenance(gemm_kernel, gemm);
  } else {
    std::cout << "data: none (demo runs compute no math)" << std::endl;
  }

  parallel::ThreadPool pool(threads);
  const auto wall0 = Clock::now();
  ScenarioProgress progress(sc, log);
  const std::vector<std::string> written =
      run_scenario(sc, data, dir,
                   {.progress = &progress,
                    .pool = &pool,
                    .trace = trace_out ? &trace : nullptr,
                    .provenance = provenance_json(provenance)});
  std::size_t trace_objects = 0;
  if (trace_out) {
    trace_objects = trace.write(trace_out->stream());
    trace_out->commit();
  }
  const std::size_t notes_before = dir.notes().size();
  dir.commit();
  for (std::size_t i = notes_before; i < dir.notes().size(); ++i) log.note(dir.notes()[i]);
  progress.finished(dir.target(), written);
  std::cout << "wrote " << dir.target() << "/{";
  for (std::size_t i = 0; i < written.size(); ++i) std::cout << (i ? "," : "") << written[i];
  std::cout << "} (wall " << std::fixed << std::setprecision(1)
            << std::chrono::duration<double>(Clock::now() - wall0).count() << " s, " << threads
            << (threads == 1 ? " thread" : " threads") << ")\n";
  if (trace_out) {
    std::cout << "wrote " << trace_file << " (" << trace_objects
              << " trace events: " << trace.event_count() << " spans, instants and counters, "
              << trace_objects - trace.event_count() << " metadata naming the tracks)\n";
  }
  return 0;
}

}  // namespace hermes::cli
