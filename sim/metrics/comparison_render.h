// Printing a Comparison (see comparison.h) for `hermes-sim compare`: an aligned text table for the
// terminal, the same as Markdown for results/README.md, or tidy CSV for further analysis.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "sim/metrics/comparison.h"

namespace hermes::metrics {

enum class TableFormat { kText, kCsv, kMarkdown, kJson };
// text, csv, markdown, json
std::optional<TableFormat> parse_table_format(std::string_view name);

// text: warnings, aligned table, seed ranges, headlines. markdown: the same as GitHub tables (for
// results/README.md). csv: one row per comparison line with mean, min, max and paper value of
// every metric (no headlines: they are ratios of these rows). json: comparison_json (tools/plot
// draws comparison.png from it).
void write_comparison(std::ostream& out, const Comparison& comparison, TableFormat format);

// A headline value as the tables print it: "13.22x", "39.8%", "+0.25"; "-" for none.
std::string headline_text(const std::optional<double>& value, Headline::Unit unit);

// Everything of a comparison as one JSON document (schema: docs/compare-json.md).
nlohmann::ordered_json comparison_json(const Comparison& comparison);

}  // namespace hermes::metrics
