// `hermes-sim compare --format json`: the whole comparison for programs (tools/plot draws
// comparison.png from it, so the matching of runs to the paper's rows lives in C++ only). Schema:
// docs/compare-json.md.
#include <cmath>
#include <optional>
#include <string>

#include "sim/metrics/comparison_render.h"

namespace hermes::metrics {

namespace {

using Json = nlohmann::ordered_json;

Json number_or_null(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

Json text_or_null(const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); }

// A parameter value as JSON: numbers and booleans as such, other text as strings.
Json param_value(const std::string& text) {
  if (text == "true") return true;
  if (text == "false") return false;
  const Json parsed = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  return parsed.is_number() ? parsed : Json(text);
}

Json params_json(const ParamMap& params) {
  Json out = Json::object();
  for (const auto& [key, value] : params) out[key] = param_value(value);
  return out;
}

Json stat_json(const Stat& s) {
  return {{"mean", number_or_null(s.mean)},
          {"min", number_or_null(s.min)},
          {"max", number_or_null(s.max)}};
}

Json run_json(const SummaryRow& r) {
  return {{"run", r.run},
          {"point", text_or_null(r.point)},
          {"seed", r.seed},
          {"status", r.status},
          {"stop_reason", r.stop_reason},
          {"ending", text_or_null(run_ending_tag(r))},
          {"cap_key", text_or_null(run_cap_key(r))},
          {"iterations", r.iterations},
          {"local_iterations", r.local_iterations},
          {"training_time_min", number_or_null(r.sim_time_s / 60.0)},
          {"wi_avg", number_or_null(r.wi_avg)},
          {"accuracy_pct", number_or_null(r.accuracy * 100.0)},
          {"final_loss", number_or_null(r.final_loss)},
          {"api_calls_m", number_or_null(static_cast<double>(r.api_calls) / 1e6)},
          {"speedup_vs_bsp", r.speedup_vs_bsp ? Json(*r.speedup_vs_bsp) : Json(nullptr)},
          {"cost_usd", r.cost_usd ? Json(*r.cost_usd) : Json(nullptr)}};
}

Json paper_json(const ReferenceRow& ref) {
  return {{"framework", ref.framework},
          {"iterations", ref.iterations},
          {"training_time_min", ref.training_time_min},
          {"wi_avg", ref.wi_avg},
          {"accuracy_pct", ref.accuracy_pct},
          {"api_calls_m", ref.api_calls_m},
          {"speedup_vs_bsp", ref.speedup_vs_bsp}};
}

Json configuration_json(const ComparisonRow& row) {
  Json c;
  c["label"] = row.label;
  const SimConfig* sim = row.sim ? &*row.sim : nullptr;
  c["protocol"] = sim ? sim->protocol : row.ref->protocol;
  c["params"] = params_json(sim ? sim->params : row.ref->params);
  c["setting"] = params_json(sim ? sim->setting : ParamMap{});
  c["differs"] = params_json(row.differs);
  c["status"] = sim ? Json(sim->status) : Json(nullptr);
  Json runs = Json::array();
  if (sim) {
    for (const SummaryRow& r : sim->per_run) runs.push_back(run_json(r));
  }
  c["runs"] = runs;
  if (sim) {
    c["sim"] = {{"iterations", stat_json(sim->iterations)},
                {"local_iterations", stat_json(sim->local_iterations)},
                {"training_time_min", stat_json(sim->time_min)},
                {"wi_avg", stat_json(sim->wi_avg)},
                {"accuracy_pct", stat_json(sim->accuracy_pct)},
                {"api_calls_m", stat_json(sim->api_calls_m)},
                {"speedup_vs_bsp", sim->speedup ? stat_json(*sim->speedup) : Json(nullptr)},
                {"cost_usd", sim->cost_usd ? stat_json(*sim->cost_usd) : Json(nullptr)}};
    c["speedup_computed"] = sim->speedup_computed;
    c["speedup_withheld"] = text_or_null(sim->speedup_withheld);
  } else {
    c["sim"] = nullptr;
    c["speedup_computed"] = false;
    c["speedup_withheld"] = nullptr;
  }
  c["paper"] = row.ref ? paper_json(*row.ref) : Json(nullptr);
  return c;
}

}  // namespace

Json comparison_json(const Comparison& cmp) {
  Json setup_differences = Json::array();
  for (const SetupDifference& d : cmp.setup_differences) {
    setup_differences.push_back({{"pointer", d.pointer},
                                 {"run", d.run ? Json::parse(*d.run) : Json(nullptr)},
                                 {"paper", d.paper ? Json::parse(*d.paper) : Json(nullptr)}});
  }
  Json configurations = Json::array();
  for (const ComparisonRow& row : cmp.rows) configurations.push_back(configuration_json(row));
  Json headlines = Json::array();
  for (const Headline& h : cmp.headlines) {
    const bool sim = h.sim && h.withheld.empty();
    headlines.push_back({{"name", h.name},
                         {"sim", sim ? Json(headline_text(h.sim, h.unit)) : Json(nullptr)},
                         {"paper", h.paper ? Json(headline_text(h.paper, h.unit)) : Json(nullptr)},
                         {"withheld", text_or_null(h.withheld)},
                         {"note", h.note}});
  }
  return {{"summary", cmp.summary_path},
          {"reference", text_or_null(cmp.reference_path)},
          {"dataset", text_or_null(cmp.dataset)},
          {"setup",
           {{"paper_scenario", text_or_null(cmp.paper_scenario_path)},
            {"differences", setup_differences}}},
          {"warnings", cmp.warnings},
          {"baseline", text_or_null(cmp.baseline)},
          {"configurations", configurations},
          {"headlines", headlines}};
}

}  // namespace hermes::metrics
