#include "sim/cli/sweep_dry_run.h"

#include <sstream>

#include "base/string_join.h"
#include "sim/config/text_table.h"

namespace hermes::cli {

std::string point_table(const SweepPlan& plan, const std::vector<bool>& done) {
  const sweep::SweepDefinition& def = plan.definition;
  config::TextTable table;
  table.group_gap = table.gap;
  table.columns.push_back({"", "point", false});
  for (const auto& axis : def.grid) table.columns.push_back({"", axis.key, true});
  table.columns.push_back({"", "seed", true});
  table.columns.push_back({"", "state", false});
  const std::size_t total = def.points.size();
  const bool all = total <= kDryRunListed;
  std::size_t hidden = 0, hidden_done = 0;
  for (const auto& p : def.points) {
    if (!all && p.index >= kDryRunEnds && p.index < total - kDryRunEnds) {
      if (p.index == kDryRunEnds) {
        table.rows.push_back(std::vector<std::string>(table.columns.size(), "..."));
      }
      ++hidden;
      hidden_done += done[p.index] ? 1 : 0;
      continue;
    }
    std::vector<std::string> row{sweep::point_name(p.index, total)};
    for (const auto& v : p.values) row.push_back(sweep::display_text(v));
    row.push_back(std::to_string(p.seed));
    row.push_back(done[p.index] ? "done" : "to run");
    table.rows.push_back(std::move(row));
  }
  std::ostringstream os;
  config::render_text(os, table);
  if (hidden > 0) {
    os << "(" << counted(hidden, "point") << " not listed, "
       << sweep::point_name(kDryRunEnds, total) << " to "
       << sweep::point_name(total - kDryRunEnds - 1, total) << ": " << hidden_done << " done, "
       << hidden - hidden_done << " to run; a dry run lists every point of a sweep of "
       << "at most " << kDryRunListed << ")\n";
  }
  return os.str();
}

void print_dry_run(std::ostream& os, const SweepPlan& plan, const std::string& out,
                   const std::vector<std::string>& dir_notes, const std::vector<bool>& done,
                   const std::string& runs_on, const std::string& runs_line) {
  for (const auto& note : dir_notes) os << note << '\n';
  std::size_t done_before = 0;
  for (const bool d : done) done_before += d ? 1 : 0;
  os << sweep_line(plan, out, done_before, runs_on) << '\n'
     << runs_line << '\n'
     << "each point runs: " << join_strings(plan.definition.runs, ", ") << '\n'
     << "largest estimate, point "
     << sweep::point_name(plan.heaviest_point, plan.definition.points.size()) << ": "
     << protocols::estimate_text(plan.heaviest) << '\n'
     << point_table(plan, done) << "dry run: nothing was created or changed\n";
}

}  // namespace hermes::cli
