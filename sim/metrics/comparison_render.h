// Printing a Comparison (see comparison.h) for `hermes-sim compare`: an aligned text table for the
// terminal, the same as Markdown for results/README.md, or tidy CSV for further analysis.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "sim/metrics/comparison.h"

namespace hermes::metrics {

enum class TableFormat { kText, kCsv, kMarkdown };
std::optional<TableFormat> parse_table_format(std::string_view name);  // text, csv, markdown

// text: aligned table, seed ranges, headlines. markdown: the same as GitHub tables (for
// results/README.md). csv: one row per comparison line with mean, min, max and paper value of
// every metric (no headlines: they are ratios of these rows).
void write_comparison(std::ostream& out, const Comparison& comparison, TableFormat format);

}  // namespace hermes::metrics
