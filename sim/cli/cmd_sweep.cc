// hermes-sim sweep SCENARIO: the scenario over a grid of parameter values and seeds, every point a
// complete run, resumable, on threads and (under mpirun) on MPI ranks. Layout of the sweep
// directory: sim/sweep/sweep_dir.h.

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include "base/string_join.h"
#include "models/data/loaders.h"
#include "sim/cli/commands.h"
#include "sim/cli/gemm_kernel_choice.h"
#include "sim/cli/options.h"
#include "sim/cli/progress_options.h"
#include "sim/cli/provenance.h"
#include "sim/cli/run_output.h"
#include "sim/cli/run_scenario.h"
#include "sim/cli/sweep_dry_run.h"
#include "sim/cli/sweep_plan.h"
#include "sim/common/build_info.h"
#include "sim/common/interrupt_cleanup.h"
#include "sim/sweep/math_check.h"
#include "sim/sweep/mpi_session.h"
#include "sim/sweep/point_deadline.h"
#include "sim/sweep/point_tally.h"
#include "sim/sweep/points.h"
#include "sim/sweep/sweep_dir.h"
#include "sim/sweep/sweep_monitor.h"
#include "sim/sweep/sweep_runner.h"
#include "sim/sweep/sweep_stop.h"
#include "sim/sweep/sweep_summary.h"
#include "sim/sweep/timeout_record.h"

namespace hermes::cli {

namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

const char* const kUsage =
    "hermes-sim sweep SCENARIO --out DIR [options]\n\n"
    "Runs SCENARIO once per point of a grid: the cross product of the grid's values and the seeds\n"
    "(the first grid key varies slowest, the seed fastest). Each point is a complete run whose\n"
    "directory DIR/points/NNNN/ (summary.csv, global.csv, workers.csv, api.csv, scenario.json,\n"
    "provenance.json) appears when the point is done; DIR/summary.csv has one row per point and\n"
    "run, with a column per grid key; DIR/sweep.json records the scenario, grid, seeds and build\n"
    "(code version, math profile).\n\n"
    "The grid comes from the scenario's \"sweep\" section and from --grid: a key given on the\n"
    "command line replaces the file's values for that key, new keys are added after the file's.\n"
    "Every point runs all the scenario's runs, or those --runs names. A run equal to a run of\n"
    "another point (one no grid key changes, at every grid point of a seed) computes the same\n"
    "results: the sweep computes it once and gives the other points a copy of its results, so\n"
    "every point directory holds the bytes computing it would give (--no-reuse computes every\n"
    "run at every point). Under MPI each rank computes such a run at most once.\n\n"
    "Resume: started again with the same command, a sweep runs only the points whose directory is\n"
    "missing. It refuses a DIR started with another scenario document, grid, seeds or --runs\n"
    "(unless --force), or whose points another math profile computed (unless\n"
    "--allow-mixed-math).\n\n"
    "--dry-run checks everything a start checks (scenario, grid, DIR, the data, the resource\n"
    "estimates) and lists the points (grid values, seed, done in DIR or to run; beyond 100\n"
    "points the first and last 10, with a count of the others) and the runs of each, creating\n"
    "or changing nothing.\n\n"
    "--point-timeout SECONDS abandons a point still running after that much wall time (checked\n"
    "between the events of its runs, so the points that finish are the same bytes as without it):\n"
    "its partial output is removed, the sweep goes on with the other points, the final report and\n"
    "DIR/timed_out.json list it, and the same command runs it again.\n\n"
    "Stopping: a first Ctrl-C (SIGINT), SIGTERM or SIGHUP (the terminal closing) starts no new\n"
    "point and lets the running ones finish (their directories complete, the summary written),\n"
    "prints what is done and the command that resumes, and exits with 130 (SIGINT), 143\n"
    "(SIGTERM) or 129 (SIGHUP). A second one abandons the running points (their partial\n"
    "directories removed) and exits at once; so does a first one that comes before the points\n"
    "start (while the data loads), leaving nothing of its own behind. SIGUSR1 only ever\n"
    "stops like a first signal (exit 138): under mpirun send it to mpirun, which forwards it to\n"
    "every rank, whereas Open MPI's mpirun turns SIGINT and SIGTERM into SIGTERM then, a second\n"
    "later, SIGKILL (the next start removes what that leaves).\n\n"
    "Progress goes to stderr (a live line on a terminal, else a line every 10 s) with a line per\n"
    "finished point; --progress json writes it as JSON Lines, --quiet leaves it out.\n\n"
    "MPI: mpirun -n K hermes-sim sweep ... shares the points among the ranks (rank 0 hands them\n"
    "out one at a time, runs points too, and writes the summary); DIR must be on a file system\n"
    "every rank sees. Every rank's binary must have rank 0's math profile (unless\n"
    "--allow-mixed-math).\n\n"
    "Options";

struct Options {
  SweepRequest request;
  std::string out;
  std::size_t jobs = 0;     // 0: the default
  int threads = 1;          // --threads: of each point's math
  std::string gemm_kernel;  // --gemm-kernel
  bool force = false;
  bool allow_mixed_math = false;
  bool dry_run = false;
  bool reuse = true;                    // not --no-reuse
  std::optional<double> point_timeout;  // --point-timeout, seconds
  ProgressOptions progress;
};

// Parses the command line; false for --help.
bool parse(const Args& args, Options& o) {
  po::options_description desc(kUsage);
  std::string seeds, seed_list, runs;
  int jobs = 0;
  double max_memory_gb = 0, max_hours = 0, point_timeout = 0;
  std::string progress_format;
  desc.add_options()("help,h", "show this help")(
      "out,o", po::value<std::string>(&o.out)->required(), "the sweep directory (required)")(
      "grid", po::value<std::vector<std::string>>(&o.request.grid)->composing(),
      "KEY=FROM:TO:STEP (inclusive of TO) or KEY=V1,V2,...; KEY is a --set path such as "
      "runs.hermes.alpha (repeatable; overrides or extends the scenario's sweep.grid)")(
      "seeds", po::value<std::string>(&seeds),
      "run every grid point with K seeds: the scenario's seed, seed+1, ..., seed+K-1 "
      "(overrides sweep.seeds; default: sweep.seeds, else the scenario's seed only)")(
      "seed-list", po::value<std::string>(&seed_list),
      "explicit seeds S1,S2,... instead of --seeds");
  add_runs_option(desc, runs, " at every point",
                  "; recorded in sweep.json, a resume must name the same");
  desc.add_options()(
      "jobs,j", po::value<int>(&jobs),
      "points run at once on this machine (per rank under MPI; default: the number of cores, "
      "divided among the ranks on a node)")(
      "force",
      "discard the earlier sweep DIR holds (its points, summary and manifest, even one with "
      "another scenario or grid) and start afresh; only a sweep directory hermes-sim wrote "
      "(.hermes-sweep), never anything else")(
      "allow-mixed-math",
      "resume a sweep whose points another math profile computed (sweep.json's build), or run "
      "on MPI ranks whose binaries differ in math from rank 0's; refused without it, as the "
      "points would not be comparable byte for byte. sweep.json then lists every math under "
      "mixed_math");
  add_set_option(desc, o.request.sets, " for every point");
  desc.add_options()(
      "point-timeout", po::value<double>(&point_timeout),
      "SECONDS: abandon a point still running after this much wall time (its partial output "
      "removed; DIR/timed_out.json lists it and the same command runs it again); default: none")(
      "threads", po::value<int>(&o.threads)->default_value(1),
      "threads running the training math of each point, as run --threads (1: inline on the "
      "thread running the point; a machine then runs up to --jobs x --threads threads of math). "
      "Results are the same for every value")(
      "dry-run",
      "check everything and list the points and the runs of each, then exit without creating "
      "or changing anything")(
      "no-reuse",
      "compute every run at every point, even one equal to a run of another point (by default "
      "such a run is computed once and its results reused: the same bytes, sooner)");
  add_gemm_kernel_option(desc, o.gemm_kernel);
  add_data_dir_option(desc, o.request.data_dir);
  add_resource_options(desc, max_memory_gb, max_hours);
  add_progress_options(desc, progress_format);
  po::variables_map vm;
  const auto file = parse_options_and_argument("sweep", args, desc, vm, "scenario file",
                                               "hermes-sim sweep SCENARIO --out DIR");
  if (!file) return false;
  o.request.file = *file;
  o.request.limits = resource_limits_from(max_memory_gb, max_hours);
  o.progress = progress_options_from(vm, progress_format);
  if (vm.count("seeds")) o.request.seeds.count = sweep::parse_seed_count(seeds);
  if (vm.count("seed-list")) o.request.seeds.list = sweep::parse_seed_list(seed_list);
  if (vm.count("runs")) o.request.runs = runs;
  if (vm.count("jobs")) {
    if (jobs < 1) throw InputError("--jobs " + std::to_string(jobs) + ": must be >= 1");
    o.jobs = static_cast<std::size_t>(jobs);
  }
  check_threads(o.threads, "--threads");
  check_gemm_kernel_option(o.gemm_kernel);
  o.force = vm.count("force") > 0;
  o.allow_mixed_math = vm.count("allow-mixed-math") > 0;
  o.dry_run = vm.count("dry-run") > 0;
  o.reuse = vm.count("no-reuse") == 0;
  if (vm.count("point-timeout")) {
    sweep::check_point_timeout(point_timeout);
    o.point_timeout = point_timeout;
  }
  return true;
}

// What a signal makes the sweep say: shown whatever --progress and --quiet say, like a warning;
// in text it takes the live line's place.
void say(ProgressLog& log, std::string text) {
  if (!log.text()) {
    std::cerr << text << std::flush;
    return;
  }
  if (!text.empty() && text.back() == '\n') text.pop_back();
  log.line(text);
}

std::size_t default_jobs(const sweep::MpiSession& mpi) {
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  return std::max<std::size_t>(1, cores / static_cast<std::size_t>(mpi.ranks_on_this_node()));
}

// "2 threads", "2 ranks x 1 thread", "2 threads (2 threads of math each)".
std::string runs_on(const sweep::MpiSession& mpi, std::size_t jobs, int threads) {
  return (mpi.distributed() ? std::to_string(mpi.size()) + " ranks x " : "") +
         counted(jobs, "thread") +
         (threads > 1 ? " (" + std::to_string(threads) + " threads of math each)" : "");
}

// The summary is rebuilt from the finished points after every point: a finished point whose
// summary.csv cannot be read (a FIFO, garbage) is refused now, before any point runs.
void check_finished_summaries(const sweep::SweepDir& dir, const SweepPlan& plan) {
  try {
    sweep::sweep_summary_csv(dir, plan.definition.grid, plan.definition.points);
  } catch (const std::exception& e) {
    throw InputError(std::string(e.what()) +
                     " (a finished point's summary.csv, from which the sweep's summary is built: "
                     "remove that point's directory to run the point again)");
  }
}

// --dry-run, after the checks every start makes: DIR is checked without writing (sweep_dir.h),
// each rank looks for its data without loading it, and rank 0 lists the points.
void dry_run(const Options& o, const SweepPlan& plan, const sweep::MpiSession& mpi,
             std::size_t jobs) {
  std::vector<std::string> data_lines;
  std::set<std::string> datasets;
  for (const auto& sc : plan.combos) {
    if (!datasets.insert(data::description_key(sc.dataset.files)).second) continue;
    data_lines.push_back(
        "data: " + data::location_text(data::locate_dataset(sc.dataset.files, o.request.data_dir)));
  }
  if (mpi.rank() != 0) return;
  const sweep::SweepDir dir(o.out, source_dir());
  auto notes = dir.check(plan.manifest, o.force, o.allow_mixed_math);
  const std::size_t total = plan.definition.points.size();
  const auto done = o.force ? std::vector<bool>(total, false) : dir.finished_points(total);
  if (!o.force) check_finished_summaries(dir, plan);
  if (!o.force) {
    const sweep::TimedOutRecord record = sweep::read_timed_out(dir);
    if (!record.unreadable.empty()) {
      notes.push_back("note: " + dir.timed_out_path() + " could not be read (" + record.unreadable +
                      "): a start moves it aside to " + dir.timed_out_path() +
                      ".unreadable (or .unreadable-2, ...)");
    }
    if (const std::string note = sweep::retry_note(record.points, done); !note.empty()) {
      notes.push_back(note);
    }
  }
  for (const auto& line : data_lines) std::cout << line << '\n';
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < total; ++i) {
    if (!done[i]) todo.push_back(i);
  }
  print_dry_run(std::cout, plan, dir.root(), notes, done, runs_on(mpi, jobs, o.threads),
                runs_line(plan, todo, o.reuse));
}

int sweep(const Options& o, const sweep::MpiSession& mpi) {
  const auto wall0 = Clock::now();
  ProgressLog log = make_progress_log(o.progress);
  // Steps that can fail run on every rank and end in a collective check (on_all_ranks); no other
  // collective call happens inside a step, so a rank that failed can never leave the others
  // waiting in one.
  // First, every rank's binary must compute with rank 0's math (math_check.h).
  const BuildInfo& build = build_info();
  const std::vector<std::string> rank_maths = mpi.gather(sweep::encode_rank_math(
      {mpi.rank(), host_name(), sweep::MathBuild::of(build), build.code_version()}));
  std::vector<sweep::MathBuild> other_maths;
  mpi.on_all_ranks([&] {
    if (mpi.rank() != 0) return;
    std::vector<sweep::RankMath> ranks;
    for (const auto& text : rank_maths) ranks.push_back(sweep::decode_rank_math(text));
    if (const std::string note = sweep::rank_version_note(ranks); !note.empty()) log.note(note);
    const std::string error = sweep::rank_math_error(ranks);
    if (error.empty()) return;
    if (!o.allow_mixed_math) throw InputError(error);
    log.note("--allow-mixed-math: " + error.substr(0, error.find(": their")));
    other_maths = sweep::other_maths(ranks);
  });
  SweepPlan plan;
  mpi.on_all_ranks([&] { plan = plan_sweep(o.request); });
  // Every rank must run the same points: each reads its own copy of the files. (Their builds were
  // compared above: the manifests are compared without them.)
  const std::string sweep_of_rank0 = mpi.broadcast(sweep::without_build(plan.manifest).dump());
  mpi.on_all_ranks([&] {
    if (sweep_of_rank0 != sweep::without_build(plan.manifest).dump()) {
      throw InputError("rank " + std::to_string(mpi.rank()) + " read another sweep than rank 0 " +
                       "from " + o.request.file + " (do all ranks see the same files?)");
    }
  });
  const auto& points = plan.definition.points;
  const std::size_t jobs = o.jobs > 0 ? o.jobs : default_jobs(mpi);
  if (o.dry_run) {
    if (mpi.rank() == 0) {
      std::cout << build_line(build_info()) << std::endl;
      if (const std::string note = unvaried_runs_note(plan, o.reuse); !note.empty()) {
        log.note(note);
      }
    }
    mpi.on_all_ranks([&] { dry_run(o, plan, mpi, jobs); });
    return 0;
  }
  // Whether this command creates the sweep directory: if it then fails before any point runs, the
  // directory holds only what it wrote (marker, lock, sweep.json) and is removed again.
  const bool creates_dir = mpi.rank() == 0 && !fs::exists(fs::symlink_status(o.out));
  sweep::SweepDir dir(o.out, source_dir());
  std::vector<std::size_t> todo;
  std::size_t done_before = 0;
  std::vector<sweep::TimedOutPoint> timed_out_before;
  mpi.on_all_ranks([&] {
    if (mpi.rank() != 0) return;
    std::cout << build_line(build_info()) << std::endl;
    if (const std::string note = unvaried_runs_note(plan, o.reuse); !note.empty()) {
      log.note(note);
    }
    for (const auto& note : dir.open(plan.manifest, o.force, o.allow_mixed_math)) log.note(note);
    if (!other_maths.empty()) dir.record_mixed_maths(other_maths);
    const auto finished = dir.finished_points(points.size());
    check_finished_summaries(dir, plan);
    for (std::size_t i = 0; i < points.size(); ++i) {
      if (!finished[i]) todo.push_back(i);
    }
    const sweep::TimedOutRecord record = sweep::read_timed_out(dir);
    if (const std::string note = sweep::set_aside_unreadable(dir, record); !note.empty()) {
      log.note(note);
    }
    timed_out_before = record.points;
    if (const std::string note = sweep::retry_note(timed_out_before, finished); !note.empty()) {
      log.note(note);
    }
    done_before = points.size() - todo.size();
  });
  const bool work_left = mpi.broadcast(todo.empty() ? "0" : "1") == "1";

  // Each rank resolves, checksums and loads its own copy of the data, as `hermes-sim run` does.
  std::map<std::string, data::TrainTestSplit> datasets;
  std::map<std::string, ProvenanceJson> dataset_records;
  try {
    mpi.on_all_ranks([&] {
      if (!work_left) return;
      for (const auto& sc : plan.combos) {
        // Keyed by the whole description: points of a grid over a dataset key differ in it.
        const std::string key = data::description_key(sc.dataset.files);
        if (!datasets.count(key)) {
          const data::DataLocation location =
              data::locate_dataset(sc.dataset.files, o.request.data_dir);
          if (mpi.rank() == 0) std::cout << "data: " << data::location_text(location) << std::endl;
          dataset_records[key] = dataset_provenance(location);
          datasets[key] = data::load_dataset(location);
        }
        check_loaded_data(sc, datasets.at(key));
      }
    });
  } catch (...) {
    if (creates_dir) {
      std::error_code ec;
      fs::remove_all(dir.root(), ec);
    }
    throw;
  }
  // One kernel for every point of this process, checked on the products of all of them.
  ProvenanceJson gemm_record;
  std::vector<const scenario::Scenario*> math_points;
  for (const auto& sc : plan.combos) {
    if (needs_data(sc)) math_points.push_back(&sc);
  }
  if (work_left && !math_points.empty()) {
    const nn::GemmChoice gemm = use_gemm_kernel(o.gemm_kernel, scenario_gemm_products(math_points));
    if (mpi.rank() == 0) std::cout << "gemm kernel: " << gemm.text() << std::endl;
    gemm_record = gemm_provenance(o.gemm_kernel, gemm);
  }
  const std::string sweep_root = fs::absolute(dir.root()).lexically_normal().string();
  // Equal runs of the points are computed once (sweep/run_reuse.h). Rank 0 knows which points are
  // left; the other ranks may get any of them.
  std::optional<sweep::RunReuse<protocols::RunResult>> reuse;
  if (o.reuse) {
    std::vector<std::size_t> mine = todo;
    if (mpi.rank() != 0) {
      mine.resize(points.size());
      for (std::size_t i = 0; i < mine.size(); ++i) mine[i] = i;
    }
    reuse.emplace(plan.distinct, mine);
  }
  const auto run_point = [&](std::size_t i) -> std::size_t {
    std::optional<sweep::PointDeadline> deadline;
    std::function<void()> checkpoint;
    if (o.point_timeout) {
      deadline.emplace(*o.point_timeout);
      checkpoint = [&deadline] { deadline->check(); };
    }
    // The sweep removed stale leftovers in points/ when it opened (under its lock).
    RunOutputDir out(dir.point_dir(i, points.size()), /*force=*/false, "point directory",
                     /*clean_leftovers=*/false);
    const scenario::Scenario sc = point_scenario(plan, i);
    // A pool per point: --threads 1 runs its math on the thread that runs the point.
    parallel::ThreadPool pool(o.threads);
    Provenance provenance;
    provenance.threads = o.threads;
    provenance.gemm = gemm_record;
    provenance.datasets.push_back(dataset_records.at(data::description_key(sc.dataset.files)));
    provenance.sweep = {{"dir", sweep_root},
                        {"point", sweep::point_name(i, points.size())},
                        {"jobs", jobs},
                        {"rank", mpi.rank()},
                        {"ranks", mpi.size()}};
    std::size_t reused = 0;
    run_scenario(sc, datasets.at(data::description_key(sc.dataset.files)), out,
                 {.report = false,
                  .pool = &pool,
                  .provenance = provenance_json(provenance),
                  .checkpoint = checkpoint,
                  .reuse = reuse ? &*reuse : nullptr,
                  .point = i,
                  .runs_reused = &reused});
    out.commit();
    return reused;
  };

  // From here a first signal lets the running points finish (interrupt_cleanup.h).
  defer_first_interrupt();
  const sweep::StopFn stop = [] { return stop_signal() != 0; };
  if (mpi.rank() != 0) {
    sweep::run_points_on_ranks(mpi, {}, jobs, run_point, nullptr, stop);
    return 0;  // rank 0 reports for the whole sweep, a stop included
  }
  std::cout << sweep_line(plan, dir.root(), done_before, runs_on(mpi, jobs, o.threads)) << '\n'
            << runs_line(plan, todo, o.reuse) << std::endl;
  sweep::SweepMonitor monitor(dir, plan.definition.grid, points, done_before,
                              jobs * static_cast<std::size_t>(mpi.size()), log);
  // What the sweep says if a signal stops it: kept current as points start and end.
  const std::string resume =
      sweep::resume_text(command_line(), fs::current_path().string(), mpi.size());
  const auto state = [&](const sweep::PointTally& t) {
    sweep::SweepState st{
        dir.root(), points.size(), monitor.done(), todo.size() - t.started_points().size(), {}};
    for (const std::size_t i : t.running()) {
      st.running.push_back(sweep::point_name(i, points.size()));
    }
    return st;
  };
  bool stop_noticed = false;
  sweep::PointTally tally(
      monitor, [&] { set_interrupt_epilogue(sweep::abort_epilogue(state(tally), resume)); },
      [&] {
        if (stop_noticed || stop_signal() == 0) return;
        stop_noticed = true;
        say(log, sweep::stopping_notice(stop_signal(), state(tally), mpi.distributed(), resume));
      });
  set_interrupt_epilogue(sweep::abort_epilogue(state(tally), resume));
  sweep::run_points_on_ranks(mpi, todo, jobs, run_point, &tally, stop);
  monitor.close();
  const std::size_t rows = sweep::write_sweep_summary(dir, plan.definition.grid, points);
  // With no point done there is no summary.csv to name (write_sweep_summary writes none).
  const std::string summary = monitor.done() == 0
                                  ? "no summary.csv (no point done)"
                                  : dir.summary_path() + ": " + counted(rows, "row");
  std::cout << "sweep " << dir.root() << ": " << monitor.done() << '/' << points.size()
            << " points done (" << monitor.finished_now() << " now"
            << (monitor.runs_reused() > 0
                    ? "; " + std::to_string(monitor.runs_reused()) + " of their runs reused"
                    : "")
            << "), " << summary << " (wall " << std::fixed << std::setprecision(1)
            << std::chrono::duration<double>(Clock::now() - wall0).count() << " s)\n";
  std::vector<std::size_t> timed_out;
  for (const auto& outcome : tally.timed_out()) timed_out.push_back(outcome.index);
  sweep::write_timed_out(
      dir, sweep::timed_out_after(timed_out_before, tally.started_points(), timed_out,
                                  dir.finished_points(points.size()), o.point_timeout.value_or(0)));
  int status = 0;
  if (!timed_out.empty()) {
    std::cerr << sweep::timeouts_report(tally.timed_out(), plan.definition.grid, points, dir,
                                        *o.point_timeout);
    status = 1;
  }
  // The monitor counts the timed-out points among the failed ones: they are listed above.
  std::vector<std::string> failures;
  for (const auto& f : monitor.failures()) {
    const auto same = [&](std::size_t i) {
      return f.rfind(sweep::point_name(i, points.size()) + ": ", 0) == 0;
    };
    if (std::none_of(timed_out.begin(), timed_out.end(), same)) failures.push_back(f);
  }
  if (!failures.empty()) {
    std::cerr << counted(failures.size(), "point") << " failed (run the same command again to "
              << "retry them):\n";
    for (const auto& f : failures) std::cerr << "  " << f << '\n';
    status = 1;
  }
  if (const int sig = stop_signal(); sig != 0) {
    std::cerr << sweep::stopped_report(sig, state(tally), resume);
    return 128 + sig;  // a script sees that the sweep did not run to its end
  }
  return status;
}

}  // namespace

int cmd_sweep(const Args& args) {
  // Before any thread (or MPI) starts. SIGUSR1 asks to stop gently (interrupt_cleanup.h).
  install_interrupt_cleanup("sweep", /*sigusr1_stops=*/true);
  Options o;
  if (!parse(args, o)) return 0;
  sweep::MpiSession mpi;
  try {
    return sweep(o, mpi);
  } catch (const sweep::PeerFailed&) {
    return 2;  // the rank where it failed reports the error
  }
}

}  // namespace hermes::cli
