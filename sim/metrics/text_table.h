// A small table of text cells rendered as aligned plain text (for a terminal) or as a GitHub
// Markdown table (for results/README.md), so that one table definition serves both outputs.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace hermes::metrics {

// Columns with the same non-empty `group` next to each other share a label line in text
// ("iterations" over "sim  paper"); in Markdown the group prefixes the name.
struct TextTable {
  struct Column {
    std::string group, name;
    bool right = true;  // right-aligned (numbers); else left-aligned
  };
  std::vector<Column> columns;
  std::vector<std::vector<std::string>> rows;  // one cell per column
};

// Aligned columns padded to their widest cell, " | " between groups, a dashed rule under the
// header, trailing blanks removed.
void render_text(std::ostream& os, const TextTable& t);

// A GitHub table; '|' inside cells is escaped.
void render_markdown(std::ostream& os, const TextTable& t);

}  // namespace hermes::metrics
