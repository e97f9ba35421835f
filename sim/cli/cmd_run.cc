// hermes-sim run SCENARIO: runs every run of a scenario and writes its results directory.
#include <boost/program_options.hpp>

#include <chrono>
#include <iomanip>
#include <iostream>

#include "sim/cli/commands.h"
#include "sim/cli/options.h"
#include "sim/cli/run_output.h"
#include "sim/metrics/atomic_file.h"
#include "sim/metrics/csv_writer.h"
#include "sim/metrics/timeline.h"
#include "sim/protocols/demo.h"
#include "sim/scenario/scenario.h"

namespace hermes::cli {

namespace {

void write_demo_summary(metrics::CsvWriter& w, const scenario::RunSpec& run,
                        const protocols::DemoResult& r) {
  for (const auto& s : r.workers) {
    w.field(run.name).field(scenario::protocol_name(run.protocol)).field(s.node).field(s.profile);
    w.field(s.iterations).field(engine::to_seconds(s.finished), 6);
    w.field(engine::to_seconds(s.compute_time), 6).field(engine::to_seconds(s.transfer_time), 6);
    w.field(s.bytes, 0);
    if (s.credits_left) {
      w.field(*s.credits_left, 4);
    } else {
      w.empty();
    }
    w.end_row();
  }
}

void print_demo_table(const scenario::RunSpec& run, const protocols::DemoResult& r) {
  std::cout << "run " << run.name << " (" << scenario::protocol_name(run.protocol)
            << "): " << r.workers.size() << " workers, simulated " << std::fixed
            << std::setprecision(3) << engine::to_seconds(r.sim_time) << " s, " << r.events
            << " events\n";
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

}  // namespace

int cmd_run(const Args& args) {
  po::options_description desc(
      "hermes-sim run SCENARIO [options]\n\nRuns every run of a scenario file and writes "
      "scenario.json, summary.csv and timeline.csv into the output directory");
  std::string out;
  std::vector<std::string> sets;
  desc.add_options()("help,h", "show this help")(
      "out,o", po::value<std::string>(&out),
      "output directory (default: outputs.dir of the scenario, else "
      "results/<name>-<timestamp>)")(
      "set", po::value<std::vector<std::string>>(&sets)->composing(),
      "override a scenario value: key.path=value (repeatable; runs.<name>.<key> addresses a "
      "run by name)")("force", "replace an existing, non-empty output directory");
  po::options_description hidden;
  std::string file;
  hidden.add_options()("scenario", po::value<std::string>(&file));
  po::positional_options_description pos;
  pos.add("scenario", 1);
  po::variables_map vm;
  if (!parse_options("run", args, desc, vm, &hidden, &pos)) return 0;
  if (file.empty()) throw InputError("no scenario file given (usage: hermes-sim run SCENARIO)");

  const scenario::Scenario sc = scenario::load_scenario(file, sets, source_dir());
  for (const auto& run : sc.runs) {
    if (run.protocol != scenario::Protocol::kDemo) {
      throw InputError(file + ": run '" + run.name + "': protocol '" +
                       std::string(scenario::protocol_name(run.protocol)) +
                       "' is specified but not simulated yet; this version runs: demo");
    }
  }
  if (out.empty()) out = sc.outputs.dir.value_or(default_output_dir(source_dir(), sc.name));
  RunOutputDir dir(out, vm.count("force") > 0);

  metrics::AtomicFile summary_file(dir.file("summary.csv"));
  metrics::CsvWriter summary(summary_file.stream(),
                             {"run", "protocol", "node", "profile", "iterations", "finished_s",
                              "compute_s", "transfer_s", "bytes", "credits_left"});
  metrics::Timeline timeline;
  const auto wall0 = std::chrono::steady_clock::now();
  for (const auto& run : sc.runs) {
    const protocols::DemoResult r =
        protocols::run_demo(sc, run, sc.outputs.timeline ? &timeline : nullptr);
    write_demo_summary(summary, run, r);
    print_demo_table(run, r);
  }
  summary_file.commit();
  if (sc.outputs.timeline) {
    metrics::AtomicFile f(dir.file("timeline.csv"));
    timeline.write_csv(f.stream());
    f.commit();
  }
  metrics::write_file_atomically(dir.file("scenario.json"), sc.document.dump(2) + "\n");
  dir.commit();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  std::cout << "wrote " << dir.target() << "/{summary.csv"
            << (sc.outputs.timeline ? ",timeline.csv" : "") << ",scenario.json} (wall "
            << std::setprecision(2) << wall << " s)\n";
  return 0;
}

}  // namespace hermes::cli
