// hermes-sim compare RUN_DIR|SUMMARY.csv: a run's summary beside the paper's comparison table,
// with what keeps the two from being comparable said first: a setup that is not the paper's, a
// dataset the paper's table is not about, runs that diverged or were capped.
#include <boost/program_options.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

#include "base/diagnostics.h"
#include "base/file_read.h"
#include "base/string_join.h"
#include "sim/cli/commands.h"
#include "sim/cli/options.h"
#include "sim/metrics/comparison.h"
#include "sim/metrics/comparison_render.h"
#include "sim/metrics/setup_check.h"
#include "sim/metrics/summary_csv.h"
#include "sim/scenario/scenario.h"

namespace hermes::cli {

namespace {

namespace fs = std::filesystem;

// The paper's table and scenario: MNIST only (the paper gives no CIFAR-10 table).
constexpr const char* kPaperDataset = "mnist";
std::string paper_reference() { return source_dir() + "/results/reference/paper-mnist.csv"; }
std::string paper_scenario() { return source_dir() + "/scenarios/paper/mnist.json"; }

// One recorded scenario.json, loaded again so that its document has the same form as the
// paper's; nullopt with a warning if it cannot be.
std::optional<scenario::Scenario> load_recorded(const fs::path& path,
                                                std::vector<std::string>& warnings) {
  try {
    return scenario::load_scenario(path.string(), {}, source_dir());
  } catch (const InputError& e) {
    warnings.push_back("the recorded " + path.string() +
                       " does not load, so the setup is not checked: " + e.what());
    return std::nullopt;
  }
}

// The scenarios the runs of `summary` were made with: the scenario.json `run` wrote beside it,
// or, for a sweep, every point's (points/NNNN/scenario.json, in point order). Empty, with a
// warning, if there is none or one does not load.
std::vector<scenario::Scenario> recorded_scenarios(const std::string& summary,
                                                   std::vector<std::string>& warnings) {
  const fs::path dir = fs::path(summary).parent_path();
  std::vector<fs::path> paths;
  if (fs::is_regular_file(dir / "scenario.json")) {
    paths.push_back(dir / "scenario.json");
  } else if (fs::is_directory(dir / "points")) {
    for (const auto& entry : fs::directory_iterator(dir / "points")) {
      if (fs::is_regular_file(entry.path() / "scenario.json")) {
        paths.push_back(entry.path() / "scenario.json");
      }
    }
    std::sort(paths.begin(), paths.end());
  }
  if (paths.empty()) {
    warnings.push_back("no scenario.json beside " + summary +
                       " (nor in its points/): whether its runs are the paper's setup is not "
                       "checked");
    return {};
  }
  std::vector<scenario::Scenario> out;
  for (const auto& path : paths) {
    auto sc = load_recorded(path, warnings);
    if (!sc) return {};
    out.push_back(std::move(*sc));
  }
  return out;
}

std::string accounting_name(const scenario::Scenario& sc) {
  return sc.accounting == scenario::Accounting::kReleasedCode ? "released-code" : "clean";
}

// The differences of every recorded scenario from the paper's, each against the paper's setup
// under the scenario's own accounting (the accounting is how runs are charged and counted, not
// what they run); each difference once, in order of first appearance.
std::vector<metrics::SetupDifference> setup_differences(
    const std::vector<scenario::Scenario>& recorded, const std::string& paper) {
  std::map<std::string, scenario::Scenario> papers;  // by accounting
  std::vector<metrics::SetupDifference> all;
  for (const auto& sc : recorded) {
    const std::string accounting = accounting_name(sc);
    auto it = papers.find(accounting);
    if (it == papers.end()) {
      it = papers
               .emplace(accounting,
                        scenario::load_scenario(paper, {"accounting=" + accounting}, source_dir()))
               .first;
    }
    for (auto& d : metrics::setup_differences(sc.document, it->second.document)) {
      const bool seen = std::any_of(all.begin(), all.end(), [&d](const auto& e) {
        return e.pointer == d.pointer && e.run == d.run && e.paper == d.paper;
      });
      if (!seen) all.push_back(std::move(d));
    }
  }
  return all;
}

// Each reference row's exact configuration (ReferenceRow::configuration): the paper scenario's
// run that stands for it, the one of its protocol whose params hold the row's, the most specific
// row first (a run with alpha=-1.6;beta=0.15 is the paper's "alpha=-1.6, beta=0.15" row, not an
// "alpha=-1.6" one); a row no run of the paper scenario stands for keeps the defaults rule.
void set_paper_configurations(std::vector<metrics::ReferenceRow>& reference,
                              const scenario::Scenario& paper) {
  for (const scenario::RunSpec& run : paper.runs) {
    const metrics::ParamMap params = metrics::configuration_of(run);
    const std::string protocol(scenario::protocol_name(run.protocol));
    metrics::ReferenceRow* best = nullptr;
    for (auto& ref : reference) {
      if (ref.protocol != protocol || !metrics::params_match(ref.params, params)) continue;
      if (best == nullptr || ref.params.size() > best->params.size()) best = &ref;
    }
    if (best != nullptr && !best->configuration) best->configuration = params;
  }
}

// A sweep's rows get their point's setting: the grid values of keys that are not run parameters,
// from the sweep's manifest (DIR/sweep.json, its "points"). Nothing for a run's summary.
void set_sweep_settings(std::vector<metrics::SummaryRow>& rows, const std::string& summary) {
  const fs::path manifest = fs::path(summary).parent_path() / "sweep.json";
  if (!fs::is_regular_file(manifest)) return;
  const nlohmann::json doc = nlohmann::json::parse(
      read_regular_file(manifest.string(), kMaxManifestBytes, "sweep manifest"), nullptr,
      /*allow_exceptions=*/false);
  std::map<std::string, metrics::ParamMap> settings;
  try {
    if (doc.is_discarded()) throw std::runtime_error("not valid JSON");
    for (const auto& point : doc.at("points")) {
      metrics::ParamMap setting;
      for (const auto& [key, value] : point.at("params").items()) {
        if (key.rfind("runs.", 0) == 0) continue;  // a run's own parameter: in its params
        setting.emplace(key, metrics::canonical_value(value.is_string() ? value.get<std::string>()
                                                                        : value.dump()));
      }
      settings.emplace(point.at("point").get<std::string>(), std::move(setting));
    }
  } catch (const std::exception& e) {
    throw InputError(manifest.string() + ": not a sweep manifest hermes-sim can read (" + e.what() +
                     ")");
  }
  for (auto& row : rows) {
    const auto it = settings.find(row.point);
    if (it != settings.end()) row.setting = it->second;
  }
}

// What `compare` reads, named when it is not there: `what` names the option ("" for the
// argument), `expected` what it should have named.
void require_file(const std::string& path, const std::string& what, const std::string& expected) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  const std::string label = (what.empty() ? "" : what + " ") + path;
  if (!fs::exists(st))
    throw InputError(label + ": no such file or directory (expected " + expected + ")");
  if (fs::is_directory(st)) throw InputError(label + ": a directory (expected " + expected + ")");
}

// The summary.csv that the argument names: the file itself, or RUN_DIR/summary.csv.
std::string summary_of(const std::string& arg) {
  constexpr const char* kExpected =
      "a run or sweep directory holding summary.csv, as `hermes-sim run` and `sweep` write, or a "
      "summary.csv file";
  std::error_code ec;
  if (!fs::is_directory(arg, ec)) {
    require_file(arg, "", kExpected);
    return arg;
  }
  const std::string summary = (fs::path(arg) / "summary.csv").string();
  if (!fs::exists(fs::status(summary, ec))) {
    throw InputError(arg + ": a directory without summary.csv (expected " + kExpected +
                     "; a run still going or interrupted has none yet)");
  }
  return summary;
}

}  // namespace

int cmd_compare(const Args& args) {
  po::options_description desc(
      "hermes-sim compare RUN_DIR|SUMMARY.csv [options]\n\nPrints the runs of a summary.csv (or "
      "RUN_DIR/summary.csv) beside the paper's table. Runs of one configuration (protocol, every "
      "run parameter and, in a sweep, the grid values that are not run parameters) are averaged "
      "as seeds (ranges and every run shown); a configuration stands beside a paper row only "
      "when it is that row's exact configuration (the paper scenario's run of it); each run's "
      "status and "
      "stop reason, then the paper's headline ratios from both sides.\n\nWhat would mislead is "
      "said instead of printed: a run that diverged or was cut by a cap gets no speedup (the "
      "reason is given), a headline that needs such a run is withheld, and when the scenario "
      "(RUN_DIR/scenario.json, or each point's of a sweep) differs from the paper's "
      "(scenarios/paper/mnist.json under the runs' own accounting: cluster, network, training, "
      "stop rule, caps, transfers) a warning lists the differences before the table. The "
      "paper's table is MNIST's: runs on another dataset are shown without it unless --reference "
      "is given");
  std::string reference;
  std::string paper;
  std::string format_name = "text";
  desc.add_options()("help,h", "show this help")(
      "reference", po::value<std::string>(&reference),
      "reference table (default: results/reference/paper-mnist.csv for MNIST runs)")(
      "paper-scenario", po::value<std::string>(&paper),
      "the scenario whose setup the reference table belongs to (default: "
      "scenarios/paper/mnist.json with the default reference; none with --reference)")(
      "format", po::value<std::string>(&format_name),
      "output: text (aligned), csv (one row per line, mean/min/max), markdown (for "
      "results/README.md), json (everything, for programs: docs/compare-json.md)");
  po::variables_map vm;
  const auto arg =
      parse_options_and_argument("compare", args, desc, vm, "run directory or summary file",
                                 "hermes-sim compare RUN_DIR|SUMMARY.csv");
  if (!arg) return 0;
  const std::string summary = summary_of(*arg);
  if (!reference.empty()) {
    require_file(reference, "--reference",
                 "a reference table CSV like "
                 "results/reference/paper-mnist.csv");
  }
  if (!paper.empty()) require_file(paper, "--paper-scenario", "a scenario file");
  const auto format = metrics::parse_table_format(format_name);
  if (!format) {
    throw InputError("--format '" + format_name + "' is not one of: text, csv, markdown, json");
  }

  std::vector<std::string> warnings;
  auto rows = metrics::read_summary_csv(summary);
  set_sweep_settings(rows, summary);
  const std::vector<scenario::Scenario> recorded = recorded_scenarios(summary, warnings);
  const std::string dataset = recorded.empty() ? "" : recorded.front().dataset.name;
  const bool default_reference = reference.empty();
  if (default_reference && !dataset.empty() && dataset != kPaperDataset) {
    warnings.push_back("the runs train on " + dataset + "; the paper's table is " + kPaperDataset +
                       "'s, so it is not shown beside them (--reference CSV "
                       "compares with another table)");
  } else if (default_reference) {
    reference = paper_reference();
    if (paper.empty()) paper = paper_scenario();
  }
  auto ref = reference.empty() ? std::vector<metrics::ReferenceRow>{}
                               : metrics::read_reference_csv(reference);
  if (!paper.empty())
    set_paper_configurations(ref, scenario::load_scenario(paper, {}, source_dir()));
  metrics::Comparison cmp = metrics::compare_with_reference(rows, ref);
  if (!recorded.empty() && !paper.empty()) {
    cmp.setup_differences = setup_differences(recorded, paper);
    if (!cmp.setup_differences.empty()) {
      warnings.insert(warnings.begin(),
                      "not the paper's setup (" + paper +
                          "): " + metrics::setup_differences_text(cmp.setup_differences) +
                          "; the paper's numbers beside these runs are no like-for-like "
                          "comparison");
    }
  }
  cmp.summary_path = summary;
  cmp.reference_path = reference;
  cmp.dataset = dataset;
  cmp.paper_scenario_path = recorded.empty() ? "" : paper;
  cmp.warnings = warnings;
  if (*format == metrics::TableFormat::kText) {
    std::cout << "summary:   " << summary << " (" << counted(rows.size(), "row") << ")\n"
              << "reference: " << (reference.empty() ? "none" : reference) << "\n";
    if (!recorded.empty()) {
      std::set<std::string> accountings;
      for (const auto& sc : recorded) accountings.insert(accounting_name(sc));
      std::cout << "accounting: "
                << join_strings(std::vector<std::string>(accountings.begin(), accountings.end()),
                                ", ")
                << "\n";
    }
    std::cout << "\n";
  }
  metrics::write_comparison(std::cout, cmp, *format);
  return 0;
}

}  // namespace hermes::cli
