// hermes-sim compare SUMMARY.csv: a run's summary beside the paper's comparison table.
#include <boost/program_options.hpp>

#include <iostream>

#include "base/diagnostics.h"
#include "base/string_join.h"
#include "sim/cli/commands.h"
#include "sim/cli/options.h"
#include "sim/metrics/comparison.h"
#include "sim/metrics/comparison_render.h"
#include "sim/metrics/summary_csv.h"

namespace hermes::cli {

int cmd_compare(const Args& args) {
  po::options_description desc(
      "hermes-sim compare SUMMARY.csv [options]\n\nPrints the runs of a summary.csv beside the "
      "paper's table: rows joined by protocol and params (a run may name more params than the "
      "paper), seeds averaged (ranges shown), then the paper's headline ratios from both sides");
  std::string reference;
  std::string format_name = "text";
  desc.add_options()("help,h", "show this help")(
      "reference", po::value<std::string>(&reference),
      "reference table (default: results/reference/paper-mnist.csv in the source tree)")(
      "format", po::value<std::string>(&format_name),
      "output: text (aligned), csv (one row per line, mean/min/max), markdown (for "
      "results/README.md)");
  po::variables_map vm;
  const auto arg = parse_options_and_argument("compare", args, desc, vm, "summary file",
                                              "hermes-sim compare SUMMARY.csv");
  if (!arg) return 0;
  const std::string& summary = *arg;
  const auto format = metrics::parse_table_format(format_name);
  if (!format) {
    throw InputError("--format '" + format_name + "' is not one of: text, csv, markdown");
  }
  if (reference.empty()) reference = source_dir() + "/results/reference/paper-mnist.csv";

  const auto rows = metrics::read_summary_csv(summary);
  const auto ref = metrics::read_reference_csv(reference);
  const metrics::Comparison cmp = metrics::compare_with_reference(rows, ref);
  if (*format == metrics::TableFormat::kText) {
    std::cout << "summary:   " << summary << " (" << counted(rows.size(), "row") << ")\n"
              << "reference: " << reference << "\n\n";
  }
  metrics::write_comparison(std::cout, cmp, *format);
  return 0;
}

}  // namespace hermes::cli
