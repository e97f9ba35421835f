// The one table renderer: text cells rendered as aligned plain text (for a terminal) or as a
// GitHub Markdown table (for results/README.md), so that one table definition serves both outputs.
// Used by the comparisons (sim/metrics), the profile catalog (`hermes-sim profiles`) and the demo
// runs' table of `hermes-sim run`.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace hermes::config {

// Columns with the same non-empty `group` next to each other share a label line in text
// ("iterations" over "sim  paper"); in Markdown the group prefixes the name.
struct TextTable {
  struct Column {
    std::string group, name;
    bool right = true;      // right-aligned (numbers); else left-aligned
    std::size_t width = 0;  // at least this wide
    // Widened to its widest cell and name. If false the column is exactly `width` wide and a
    // wider cell overflows its own row only, as iostream's setw does.
    bool fit = true;
  };
  std::vector<Column> columns;
  std::vector<std::vector<std::string>> rows;  // one cell per column
  std::string indent;                          // before every line
  std::string gap = "  ";                      // between the columns of a group
  // Between groups (an ungrouped column is a group of its own); `gap` for a plain grid.
  std::string group_gap = " | ";
  bool rule = true;  // a dashed line under the header
};

// Aligned columns padded to their width, `gap` between the columns of a group and `group_gap`
// between groups, a dashed rule under the header (if `rule`), trailing blanks removed.
void render_text(std::ostream& os, const TextTable& t);

// A GitHub table; '|' inside cells is escaped.
void render_markdown(std::ostream& os, const TextTable& t);

}  // namespace hermes::config
