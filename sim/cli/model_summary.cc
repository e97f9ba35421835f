#include "sim/cli/model_summary.h"

#include "base/number_text.h"
#include "models/nn/layer_plan.h"
#include "sim/config/text_table.h"
#include "sim/protocols/skeleton/workload.h"

namespace hermes::cli {

void print_model_summary(std::ostream& os, const scenario::Scenario& sc,
                         const std::string& prefix) {
  if (sc.model.is_preset()) return;
  // Counts print exactly; sizes and MFLOPs, derived in binary floating point (4e-6 x 26762 is
  // 0.10704799999999999), with 6 significant digits.
  const nn::ModelSpec spec = protocols::scenario_model_spec(sc);
  const auto plans = nn::plan_layers(spec);
  const nn::ModelPlanTotals totals = nn::plan_totals(plans);
  os << prefix << "model " << spec.name << " on " << sc.dataset.name << " (" << spec.input.str()
     << " samples, " << spec.num_classes
     << " classes): " << format_number(static_cast<double>(totals.params)) << " parameters ("
     << format_significant(4e-6 * static_cast<double>(totals.params)) << " MB as float32), "
     << format_significant(totals.flops_forward / 1e6) << " MFLOPs per sample forward, "
     << format_significant(totals.flops_train / 1e6) << " trained\n";
  config::TextTable t;
  t.columns = {{"", "#"}, {"", "layer", false}, {"", "output"}, {"", "params"}, {"", "MFLOPs fwd"}};
  t.group_gap = "  ";
  t.indent = "  ";
  for (std::size_t i = 0; i < plans.size(); ++i) {
    t.rows.push_back({std::to_string(i), plans[i].name, plans[i].out.str(),
                      std::to_string(plans[i].params),
                      format_significant(plans[i].flops_forward / 1e6)});
  }
  render_text(os, t);
}

}  // namespace hermes::cli
