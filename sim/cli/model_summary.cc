#include "sim/cli/model_summary.h"

#include "base/number_text.h"
#include "models/nn/layer_plan.h"
#include "sim/config/text_table.h"
#include "sim/protocols/skeleton/workload.h"

namespace hermes::cli {

namespace {

// Height x width x channels, as Keras prints an image's shape; one number for a vector.
std::string shape_text(const nn::Shape& s) {
  if (s.h == 1 && s.w == 1) return std::to_string(s.c);
  return std::to_string(s.h) + "x" + std::to_string(s.w) + "x" + std::to_string(s.c);
}

}  // namespace

void print_model_summary(std::ostream& os, const scenario::Scenario& sc,
                         const std::string& prefix) {
  if (sc.model.is_preset()) return;
  const nn::ModelSpec spec = protocols::scenario_model_spec(sc);
  const auto plans = nn::plan_layers(spec);
  const nn::ModelPlanTotals totals = nn::plan_totals(plans);
  os << prefix << "model " << spec.name << " on " << sc.dataset.name << " ("
     << shape_text(nn::Shape{spec.input.c, spec.input.h, spec.input.w}) << " samples, "
     << spec.num_classes << " classes): " << format_number(static_cast<double>(totals.params))
     << " parameters (" << format_number(4e-6 * static_cast<double>(totals.params))
     << " MB as float32), " << format_number(totals.flops_forward / 1e6)
     << " MFLOPs per sample forward, " << format_number(totals.flops_train / 1e6) << " trained\n";
  config::TextTable t;
  t.columns = {{"", "#"}, {"", "layer", false}, {"", "output"}, {"", "params"}, {"", "MFLOPs fwd"}};
  t.group_gap = "  ";
  t.indent = "  ";
  for (std::size_t i = 0; i < plans.size(); ++i) {
    t.rows.push_back({std::to_string(i), plans[i].name, shape_text(plans[i].out),
                      std::to_string(plans[i].params),
                      format_number(plans[i].flops_forward / 1e6)});
  }
  render_text(os, t);
}

}  // namespace hermes::cli
