// hermes_sim._core: the command line's own scenario loading, checks and run pipeline, callable from
// Python (python/hermes_sim/__init__.py wraps it and turns the CSVs into pandas DataFrames).
//
// A run does what `hermes-sim run` does, in this process: the same loader and checks (the same
// messages, raised as hermes_sim.InputError), the same dataset resolution, GEMM kernel choice and
// thread pool, and the same writers, so the files of a run directory are the command line's. The
// GIL is released while the runs compute. Ctrl-C: Python's own SIGINT handler only sets a flag
// while the GIL is released; the run looks at it between events (PyErr_CheckSignals) and stops,
// and the unfinished run directory is removed (RunOutputDir), so nothing is half-written; the
// KeyboardInterrupt then reaches the caller.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "base/build_tree.h"
#include "base/diagnostics.h"
#include "models/data/loaders.h"
#include "models/nn/layer_plan.h"
#include "sim/cli/commands.h"
#include "sim/cli/gemm_kernel_choice.h"
#include "sim/cli/options.h"
#include "sim/cli/provenance.h"
#include "sim/cli/run_output.h"
#include "sim/cli/run_progress.h"
#include "sim/cli/run_scenario.h"
#include "sim/cli/run_selection.h"
#include "sim/common/build_info.h"
#include "sim/common/progress_log.h"
#include "sim/protocols/skeleton/workload.h"
#include "sim/scenario/scenario.h"

namespace py = pybind11;

namespace hermes::python {
namespace {

// The scenario from a file (`path`) or from JSON text (`text`, e.g. a Python dict dumped), named
// `origin` in messages; relative file names in text are looked for in `base_dir` first.
scenario::Scenario load(const std::optional<std::string>& path,
                        const std::optional<std::string>& text, const std::string& origin,
                        const std::string& base_dir, const std::vector<std::string>& overrides) {
  if (path) return scenario::load_scenario(*path, overrides, cli::source_dir());
  Diagnostics diags(origin);
  auto sc = scenario::check_scenario_text(*text, overrides, cli::source_dir(), diags, nullptr,
                                          std::filesystem::absolute(base_dir).string());
  diags.throw_if_errors();
  if (!sc) throw InputError(origin + ": invalid scenario");
  return std::move(*sc);
}

py::dict describe(const scenario::Scenario& sc) {
  py::dict d;
  d["name"] = sc.name;
  py::list runs;
  for (const auto& r : sc.runs) runs.append(r.name);
  d["runs"] = runs;
  d["workers"] = sc.worker_count();
  d["dataset"] = sc.dataset.name;
  d["model"] = sc.model.name;
  // The model's layers and parameter count, as planned from the scenario (no data needed).
  const auto plans = nn::plan_layers(protocols::scenario_model_spec(sc));
  py::list layers;
  for (const nn::LayerPlan& p : plans) layers.append(p.name);
  d["layers"] = layers;
  d["params"] = nn::plan_totals(plans).params;
  return d;
}

py::dict validate(const std::optional<std::string>& path, const std::optional<std::string>& text,
                  const std::string& origin, const std::string& base_dir,
                  const std::vector<std::string>& overrides) {
  return describe(load(path, text, origin, base_dir, overrides));
}

// Thrown from the run's checkpoint when Python has a KeyboardInterrupt (or another exception from
// a signal handler) pending; the Python error stays set for the caller.
struct Interrupted {};

// A complete progress line at a time to `progress`, as a JSON text (docs/progress.md's events).
class ProgressRelay {
 public:
  explicit ProgressRelay(py::object callback) : callback_(std::move(callback)) {}
  std::ostream& stream() { return buffer_; }
  // Needs the GIL.
  void deliver() {
    std::string text = buffer_.str();
    const std::size_t end = text.rfind('\n');
    if (end == std::string::npos) return;
    buffer_.str(text.substr(end + 1));
    buffer_.seekp(0, std::ios::end);
    if (callback_.is_none()) return;
    std::istringstream lines(text.substr(0, end));
    for (std::string line; std::getline(lines, line);) callback_(line);
  }

 private:
  py::object callback_;
  std::ostringstream buffer_;
};

py::dict run(const std::optional<std::string>& path, const std::optional<std::string>& text,
             const std::string& origin, const std::string& base_dir,
             const std::vector<std::string>& overrides, const std::string& runs, int threads,
             const std::optional<std::string>& out, bool force, const std::string& data_dir,
             double max_memory_gb, double max_hours, const std::string& gemm_kernel,
             py::object progress) {
  cli::check_threads(threads, "threads");
  cli::check_gemm_kernel_option(gemm_kernel);
  scenario::Scenario sc = load(path, text, origin, base_dir, overrides);
  if (!runs.empty()) cli::select_runs(sc, runs, origin);
  cli::count_own_dataset(sc, data_dir);
  cli::check_limits(sc, origin, cli::resource_limits_from(max_memory_gb, max_hours), false);

  // Without `out`, the files go to a directory of our own under the temporary directory, read
  // back and removed with it.
  std::optional<std::filesystem::path> scratch;
  std::string target;
  if (out) {
    target = *out;
  } else {
    std::string pattern = (std::filesystem::temp_directory_path() / "hermes-py-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw std::runtime_error("cannot make a temporary directory " + pattern);
    }
    scratch = pattern;
    target = (*scratch / "run").string();
  }
  struct ScratchRemoval {
    std::optional<std::filesystem::path>& dir;
    ~ScratchRemoval() {
      std::error_code ec;
      if (dir) std::filesystem::remove_all(*dir, ec);
    }
  } scratch_removal{scratch};

  py::dict files;
  ProgressRelay relay(progress);
  bool interrupted = false;
  {
    cli::RunOutputDir dir(target, force, "out");
    cli::Provenance provenance;
    provenance.threads = threads;
    data::TrainTestSplit data;
    if (cli::needs_data(sc)) {
      const data::DataLocation location = data::locate_dataset(sc.dataset.files, data_dir);
      provenance.datasets.push_back(cli::dataset_provenance(location));
      data = data::load_dataset(location);
      cli::check_loaded_data(sc, data);
      const nn::GemmChoice gemm =
          cli::use_gemm_kernel(gemm_kernel, cli::scenario_gemm_products({&sc}));
      provenance.gemm = cli::gemm_provenance(gemm_kernel, gemm);
    }
    ProgressLog log(relay.stream(), ProgressFormat::kJson, true, false);
    std::vector<std::string> written;
    {
      py::gil_scoped_release release;
      parallel::ThreadPool pool(threads);
      cli::ScenarioProgress scenario_progress(sc, log);
      // Between events: every 1024th, a look at Python's signals and the progress lines.
      std::uint64_t events = 0;
      const std::function<void()> checkpoint = [&] {
        if (++events % 1024 != 0) return;
        py::gil_scoped_acquire acquire;
        relay.deliver();
        if (PyErr_CheckSignals() != 0) throw Interrupted{};
      };
      try {
        written = cli::run_scenario(sc, data, dir,
                                    {.report = false,
                                     .progress = &scenario_progress,
                                     .pool = &pool,
                                     .provenance = cli::provenance_json(provenance),
                                     .checkpoint = checkpoint});
        scenario_progress.finished(out ? dir.target() : "", written);
      } catch (const Interrupted&) {
        interrupted = true;
      }
    }
    if (interrupted) throw py::error_already_set();
    for (const std::string& name : written) {
      std::ifstream in(dir.file(name), std::ios::binary);
      std::ostringstream content;
      content << in.rdbuf();
      files[py::str(name)] = py::bytes(content.str());
    }
    if (out) dir.commit();
  }
  relay.deliver();
  py::dict result;
  result["files"] = files;
  result["out"] = out ? py::object(py::str(*out)) : py::object(py::none());
  result["scenario"] = describe(sc);
  return result;
}

// `hermes-sim compare TARGET --format json` (docs/compare-json.md) in this process: its JSON text.
std::string compare_json(const std::string& target, const std::string& reference,
                         const std::string& paper_scenario) {
  cli::Args args{target, "--format", "json"};
  if (!reference.empty()) args.insert(args.end(), {"--reference", reference});
  if (!paper_scenario.empty()) args.insert(args.end(), {"--paper-scenario", paper_scenario});
  std::ostringstream text;
  std::streambuf* const previous = std::cout.rdbuf(text.rdbuf());
  try {
    cli::cmd_compare(args);
  } catch (...) {
    std::cout.rdbuf(previous);
    throw;
  }
  std::cout.rdbuf(previous);
  return text.str();
}

}  // namespace
}  // namespace hermes::python

PYBIND11_MODULE(_core, m) {
  using namespace hermes::python;
  m.doc() = "hermes-sim's scenario checks and runs (wrapped by the hermes_sim package)";
  // The loader's and the checks' messages (file, JSON path, accepted values) as they are.
  py::register_exception<hermes::InputError>(m, "InputError", PyExc_ValueError);
  m.def("validate", &validate, py::arg("path"), py::arg("text"), py::arg("origin"),
        py::arg("base_dir"), py::arg("overrides"));
  m.def("run", &run, py::arg("path"), py::arg("text"), py::arg("origin"), py::arg("base_dir"),
        py::arg("overrides"), py::arg("runs"), py::arg("threads"), py::arg("out"), py::arg("force"),
        py::arg("data_dir"), py::arg("max_memory_gb"), py::arg("max_hours"), py::arg("gemm_kernel"),
        py::arg("progress"));
  m.def("compare_json", &compare_json, py::arg("target"), py::arg("reference"),
        py::arg("paper_scenario"));
  m.def("default_threads", &hermes::cli::default_threads);
  // The home (scenarios/, results/reference/, tools/hermes_plot), as `hermes-sim --version` says.
  m.def("home", &hermes::cli::source_dir);
  m.def("set_program_dir", &hermes::set_program_dir, py::arg("dir"));
  m.def("version", [] { return hermes::build_line(hermes::build_info()); });
  m.attr("DEFAULT_MAX_MEMORY_GB") = hermes::protocols::ResourceLimits{}.max_memory_bytes / 1e9;
  m.attr("DEFAULT_MAX_HOURS") = hermes::protocols::ResourceLimits{}.max_hours;
}
