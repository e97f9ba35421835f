// hermes-sim compare RUN_DIR|SUMMARY.csv: a run's summary beside the paper's comparison table,
// with what keeps the two from being comparable said first: a setup that is not the paper's, a
// dataset the paper's table is not about, runs that diverged or were capped.
#include <boost/program_options.hpp>

#include <filesystem>
#include <iostream>

#include "base/diagnostics.h"
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

// The runs' scenario as `run` recorded it (scenario.json beside summary.csv), loaded again so
// that its document has the same form as the paper's; nullopt with a warning if it cannot be.
std::optional<scenario::Scenario> recorded_scenario(const std::string& summary,
                                                    std::vector<std::string>& warnings) {
  const fs::path path = fs::path(summary).parent_path() / "scenario.json";
  if (!fs::is_regular_file(path)) {
    warnings.push_back("no scenario.json beside " + summary +
                       ": whether its runs are the paper's setup is not checked");
    return std::nullopt;
  }
  try {
    return scenario::load_scenario(path.string(), {}, source_dir());
  } catch (const InputError& e) {
    warnings.push_back("the recorded " + path.string() +
                       " does not load, so the setup is not checked: " + e.what());
    return std::nullopt;
  }
}

}  // namespace

int cmd_compare(const Args& args) {
  po::options_description desc(
      "hermes-sim compare RUN_DIR|SUMMARY.csv [options]\n\nPrints the runs of a summary.csv (or "
      "RUN_DIR/summary.csv) beside the paper's table: rows joined by protocol and params (a run "
      "may name more params than the paper), seeds averaged (ranges shown), each run's status and "
      "stop reason, then the paper's headline ratios from both sides.\n\nWhat would mislead is "
      "said instead of printed: a run that diverged or was cut by a cap gets no speedup (the "
      "reason is given), a headline that needs such a run is withheld, and when the scenario "
      "(RUN_DIR/scenario.json) differs from the paper's (scenarios/paper/mnist.json: cluster, "
      "network, training, stop rule, caps) a warning lists the differences before the table. The "
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
  std::string summary = *arg;
  if (fs::is_directory(summary)) summary = (fs::path(summary) / "summary.csv").string();
  const auto format = metrics::parse_table_format(format_name);
  if (!format) {
    throw InputError("--format '" + format_name + "' is not one of: text, csv, markdown, json");
  }

  std::vector<std::string> warnings;
  const auto rows = metrics::read_summary_csv(summary);
  const std::optional<scenario::Scenario> recorded = recorded_scenario(summary, warnings);
  const std::string dataset = recorded ? recorded->dataset.name : "";
  const bool default_reference = reference.empty();
  if (default_reference && !dataset.empty() && dataset != kPaperDataset) {
    warnings.push_back("the runs train on " + dataset + "; the paper's table is " + kPaperDataset +
                       "'s, so it is not shown beside them (--reference CSV "
                       "compares with another table)");
  } else if (default_reference) {
    reference = paper_reference();
    if (paper.empty()) paper = paper_scenario();
  }
  const auto ref = reference.empty() ? std::vector<metrics::ReferenceRow>{}
                                     : metrics::read_reference_csv(reference);
  metrics::Comparison cmp = metrics::compare_with_reference(rows, ref);
  if (recorded && !paper.empty()) {
    // The paper's setup under the runs' own accounting: the accounting is how the runs are charged
    // and counted, not what they run, so only switches set apart from it count as differences.
    const std::string accounting =
        recorded->accounting == scenario::Accounting::kReleasedCode ? "released-code" : "clean";
    const scenario::Scenario paper_sc =
        scenario::load_scenario(paper, {"accounting=" + accounting}, source_dir());
    cmp.setup_differences = metrics::setup_differences(recorded->document, paper_sc.document);
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
  cmp.paper_scenario_path = recorded ? paper : "";
  cmp.warnings = warnings;
  if (*format == metrics::TableFormat::kText) {
    std::cout << "summary:   " << summary << " (" << counted(rows.size(), "row") << ")\n"
              << "reference: " << (reference.empty() ? "none" : reference) << "\n";
    if (recorded) {
      std::cout << "accounting: " << recorded->document.value("accounting", "clean") << "\n";
    }
    std::cout << "\n";
  }
  metrics::write_comparison(std::cout, cmp, *format);
  return 0;
}

}  // namespace hermes::cli
