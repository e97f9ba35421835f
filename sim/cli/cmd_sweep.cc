// hermes-sim sweep SCENARIO: the scenario over a grid of parameter values and seeds, every point a
// complete run, resumable, on threads and (under mpirun) on MPI ranks. Layout of the sweep
// directory: sim/sweep/sweep_dir.h.

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <thread>

#include "base/string_join.h"
#include "models/data/loaders.h"
#include "sim/cli/commands.h"
#include "sim/cli/options.h"
#include "sim/cli/progress_options.h"
#include "sim/cli/provenance.h"
#include "sim/cli/run_output.h"
#include "sim/cli/run_scenario.h"
#include "sim/cli/sweep_plan.h"
#include "sim/common/build_info.h"
#include "sim/sweep/math_check.h"
#include "sim/sweep/mpi_session.h"
#include "sim/sweep/points.h"
#include "sim/sweep/sweep_dir.h"
#include "sim/sweep/sweep_monitor.h"
#include "sim/sweep/sweep_runner.h"
#include "sim/sweep/sweep_summary.h"

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
    "command line replaces the file's values for that key, new keys are added after the file's.\n\n"
    "Resume: started again with the same command, a sweep runs only the points whose directory is\n"
    "missing. It refuses a DIR started with another scenario document, grid or seeds (unless\n"
    "--force), or whose points another math profile computed (unless --allow-mixed-math).\n\n"
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
  std::string data_dir;
  std::size_t jobs = 0;  // 0: the default
  bool force = false;
  bool allow_mixed_math = false;
  ProgressOptions progress;
};

// Parses the command line; false for --help.
bool parse(const Args& args, Options& o) {
  po::options_description desc(kUsage);
  std::int64_t seeds = 0;
  std::string seed_list;
  int jobs = 0;
  double max_memory_gb = 0, max_hours = 0;
  std::string progress_format;
  desc.add_options()("help,h", "show this help")(
      "out,o", po::value<std::string>(&o.out)->required(), "the sweep directory (required)")(
      "grid", po::value<std::vector<std::string>>(&o.request.grid)->composing(),
      "KEY=FROM:TO:STEP (inclusive of TO) or KEY=V1,V2,...; KEY is a --set path such as "
      "runs.hermes.alpha (repeatable; overrides or extends the scenario's sweep.grid)")(
      "seeds", po::value<std::int64_t>(&seeds),
      "run every grid point with K seeds: the scenario's seed, seed+1, ..., seed+K-1 "
      "(overrides sweep.seeds; default: sweep.seeds, else the scenario's seed only)")(
      "seed-list", po::value<std::string>(&seed_list),
      "explicit seeds S1,S2,... instead of --seeds")(
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
      "mixed_math")("set", po::value<std::vector<std::string>>(&o.request.sets)->composing(),
                    "override a scenario value for every point: key.path=value (repeatable)")(
      "data-dir", po::value<std::string>(&o.data_dir),
      "directory holding the dataset, the only place looked at when given (default: "
      "$HERMES_DATA_DIR alone if set, else <repo>/data, then <repo>/../shared/data)");
  add_resource_options(desc, max_memory_gb, max_hours);
  add_progress_options(desc, progress_format);
  po::variables_map vm;
  const auto file = parse_options_and_argument("sweep", args, desc, vm, "scenario file",
                                               "hermes-sim sweep SCENARIO --out DIR");
  if (!file) return false;
  o.request.file = *file;
  o.request.limits = resource_limits_from(max_memory_gb, max_hours);
  o.progress = progress_options_from(vm, progress_format);
  if (vm.count("seeds")) o.request.seeds.count = seeds;
  if (vm.count("seed-list")) o.request.seeds.list = sweep::parse_seed_list(seed_list);
  if (vm.count("jobs")) {
    if (jobs < 1) throw InputError("--jobs " + std::to_string(jobs) + ": must be >= 1");
    o.jobs = static_cast<std::size_t>(jobs);
  }
  o.force = vm.count("force") > 0;
  o.allow_mixed_math = vm.count("allow-mixed-math") > 0;
  return true;
}

std::size_t default_jobs(const sweep::MpiSession& mpi) {
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  return std::max<std::size_t>(1, cores / static_cast<std::size_t>(mpi.ranks_on_this_node()));
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
  // Whether this command creates the sweep directory: if it then fails before any point runs, the
  // directory holds only what it wrote (marker, lock, sweep.json) and is removed again.
  const bool creates_dir = mpi.rank() == 0 && !fs::exists(fs::symlink_status(o.out));
  sweep::SweepDir dir(o.out, source_dir());
  std::vector<std::size_t> todo;
  std::size_t done_before = 0;
  mpi.on_all_ranks([&] {
    if (mpi.rank() != 0) return;
    std::cout << build_line(build_info()) << std::endl;
    for (const auto& note : dir.open(plan.manifest, o.force, o.allow_mixed_math)) log.note(note);
    if (!other_maths.empty()) dir.record_mixed_maths(other_maths);
    const auto finished = dir.finished_points(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
      if (!finished[i]) todo.push_back(i);
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
      for (const auto& sc : plan.points) {
        const std::string& name = sc.dataset.name;
        if (datasets.count(name)) continue;
        const data::DataLocation location = data::locate_dataset(name, o.data_dir);
        if (mpi.rank() == 0) std::cout << "data: " << data::location_text(location) << std::endl;
        dataset_records[name] = dataset_provenance(location);
        datasets[name] = data::load_dataset(location);
      }
    });
  } catch (...) {
    if (creates_dir) {
      std::error_code ec;
      fs::remove_all(dir.root(), ec);
    }
    throw;
  }
  const std::size_t jobs = o.jobs > 0 ? o.jobs : default_jobs(mpi);
  const std::string sweep_root = fs::absolute(dir.root()).lexically_normal().string();
  const auto run_point = [&](std::size_t i) {
    // The sweep removed stale leftovers in points/ when it opened (under its lock).
    RunOutputDir out(dir.point_dir(i, points.size()), /*force=*/false, "point directory",
                     /*clean_leftovers=*/false);
    const scenario::Scenario& sc = plan.points[i];
    Provenance provenance;  // threads 1: a point's math runs on the thread that runs the point
    provenance.datasets.push_back(dataset_records.at(sc.dataset.name));
    provenance.sweep = {{"dir", sweep_root},
                        {"point", sweep::point_name(i, points.size())},
                        {"jobs", jobs},
                        {"rank", mpi.rank()},
                        {"ranks", mpi.size()}};
    run_scenario(sc, datasets.at(sc.dataset.name), out,
                 {.report = false, .provenance = provenance_json(provenance)});
    out.commit();
  };

  if (mpi.rank() != 0) {
    sweep::run_points_on_ranks(mpi, {}, jobs, run_point, nullptr);
    return 0;
  }
  std::cout << "sweep " << dir.root() << ": " << counted(points.size(), "point") << " ("
            << counted(plan.definition.grid.size(), "grid key") << " x "
            << counted(plan.definition.seeds.size(), "seed") << "), " << done_before
            << " done before, " << todo.size() << " to run on "
            << (mpi.distributed() ? std::to_string(mpi.size()) + " ranks x " : "") << jobs
            << (jobs == 1 ? " thread" : " threads") << std::endl;
  sweep::SweepMonitor monitor(dir, plan.definition.grid, points, done_before,
                              jobs * static_cast<std::size_t>(mpi.size()), log);
  sweep::run_points_on_ranks(mpi, todo, jobs, run_point, &monitor);
  monitor.close();
  const std::size_t rows = sweep::write_sweep_summary(dir, plan.definition.grid, points);
  std::cout << "sweep " << dir.root() << ": " << monitor.done() << '/' << points.size()
            << " points done (" << monitor.finished_now() << " now), " << dir.summary_path() << ": "
            << counted(rows, "row") << " (wall " << std::fixed << std::setprecision(1)
            << std::chrono::duration<double>(Clock::now() - wall0).count() << " s)\n";
  if (!monitor.failures().empty()) {
    std::cerr << counted(monitor.failures().size(), "point")
              << " failed (run the same command again to "
              << "retry them):\n";
    for (const auto& f : monitor.failures()) std::cerr << "  " << f << '\n';
    return 1;
  }
  return 0;
}

}  // namespace

int cmd_sweep(const Args& args) {
  install_interrupt_cleanup("sweep");  // before any thread (or MPI) starts
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
