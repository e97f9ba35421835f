#include "sim/metrics/comparison.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <string_view>

#include "base/enum_text.h"
#include "base/number_text.h"
#include "base/string_join.h"
#include "sim/metrics/csv_writer.h"
#include "sim/scenario/protocol_descriptor.h"

namespace hermes::metrics {

Stat stat_of(const std::vector<double>& values) {
  Stat s;
  if (values.empty()) return s;
  s.n = static_cast<int>(values.size());
  s.min = *std::min_element(values.begin(), values.end());
  s.max = *std::max_element(values.begin(), values.end());
  double sum = 0;
  for (double v : values) sum += v;
  s.mean = sum / static_cast<double>(values.size());
  return s;
}

std::string not_comparable_reason(const SummaryRow& run) {
  // The words of summary.csv read back as the values that wrote them (sim/common/run_ending.h).
  const std::optional<RunStatus> status = parse_run_status(run.status);
  const std::optional<StopReason> reason = parse_stop_reason(run.stop_reason);
  if (status == RunStatus::kDiverged) {
    if (reason == StopReason::kDiverged || !std::isfinite(run.final_loss)) {
      return "diverged: its loss became non-finite";
    }
    return "diverged: loss " + format_significant(run.final_loss, 3) + " at its last evaluation, " +
           format_fixed(run.final_loss / run.loss, 1) + "x its best (" +
           format_significant(run.loss, 3) + ")";
  }
  if (!run.ok()) return "status " + run.status;
  // A stop reason of another version: nothing known against it (as for summary.csv's "").
  if (!reason || speedup_comparable(RunStatus::kOk, *reason)) return "";
  // Why the rule (sim/common/run_ending.h) refuses it, in the words of the scenario's keys.
  if (reason == StopReason::kMaxIterations) {
    return "capped at " + std::to_string(run.iterations) + " updates (" +
           std::string(stop_reason_cap_key(*reason)) + ")";
  }
  if (reason == StopReason::kMaxSimTime) {
    return "capped at " + format_fixed(run.sim_time_s, 0) + " simulated seconds (" +
           std::string(stop_reason_cap_key(*reason)) + ")";
  }
  if (reason == StopReason::kNoEvents) {
    return "ended with nothing left to simulate (" + run.stop_reason + ")";
  }
  if (reason == StopReason::kNoWorkers) {
    return "ended when every worker was gone for good (" + run.stop_reason + ")";
  }
  return "stopped by " + run.stop_reason;  // kDiverged with status ok: no such run is written
}

std::string run_ending_tag(const SummaryRow& run) {
  // Indexed by StopReason; "" where the generic "stop: WORD" says it.
  static constexpr std::array<std::string_view, 7> kShort{
      "", "", "capped (sim time)", "capped (iterations)", "diverged", "no events", "no workers"};
  static_assert(kShort.size() == enum_count(StopReason::kNoWorkers));
  if (!run.ok()) return run.status;
  const std::optional<StopReason> reason = parse_stop_reason(run.stop_reason);
  if (reason == StopReason::kPatience) return "";
  if (reason && !enum_text(*reason, kShort).empty()) return std::string(enum_text(*reason, kShort));
  return "stop: " + run.stop_reason;
}

std::string run_cap_key(const SummaryRow& run) {
  const std::optional<StopReason> reason = parse_stop_reason(run.stop_reason);
  return reason ? std::string(stop_reason_cap_key(*reason)) : "";
}

bool SimConfig::comparable() const {
  return std::all_of(per_run.begin(), per_run.end(),
                     [](const SummaryRow& r) { return not_comparable_reason(r).empty(); });
}

namespace {

struct Group {
  std::string protocol;
  ParamMap params;
  ParamMap setting;
  std::vector<const SummaryRow*> rows;
  int repeats = 0;                 // rows of a seed already in `rows`, left out
  std::optional<std::size_t> ref;  // index of the matched reference row
};

// How the paper names a protocol in its table; a protocol it does not have by its own name.
std::string display_name(const std::string& protocol) {
  const scenario::ProtocolDescriptor* d = scenario::find_protocol(protocol);
  return d ? std::string(d->label) : protocol;
}

// "alpha=-1.6, beta=0.05", as the paper writes a row's parameters.
std::string label_params(const ParamMap& params) {
  std::vector<std::string> parts;
  for (const auto& [k, v] : params) parts.push_back(k + "=" + v);
  return join_strings(parts, ", ");
}

// Whether `key` means anything in a configuration of `protocol` (RunParam::applies: a run of
// hybrid grouped by profile has no sync_group_size, whatever its default).
bool applies_in(const std::string& protocol, const ParamMap& params, const std::string& key) {
  const auto known = scenario::parse_protocol(protocol);
  const scenario::RunParam* param = known ? scenario::param_of(*known, key) : nullptr;
  if (param == nullptr || param->applies == nullptr) return true;
  scenario::RunSpec run = scenario::default_run(*known);
  for (const auto& [k, text] : params) {
    const scenario::RunParam* p = scenario::param_of(*known, k);
    if (p == nullptr) continue;
    if (p->type == scenario::ParamType::kBool) {
      p->assign(run, text == "true" ? 1 : 0);
    } else if (p->type == scenario::ParamType::kChoice) {
      const auto at = std::find(p->choices.begin(), p->choices.end(), text);
      if (at != p->choices.end()) p->assign(run, static_cast<double>(at - p->choices.begin()));
    } else if (const auto v = parse_number(text)) {
      p->assign(run, *v);
    }
  }
  return param->applies(run);
}

// The configuration a run must have to stand beside reference row `ref`.
ParamMap expected_configuration(const ReferenceRow& ref) {
  return ref.configuration ? *ref.configuration
                           : configuration_with_defaults(ref.protocol, ref.params);
}

// The value of `key` in a configuration of `protocol`, its default when the params leave it out
// ("-" when the protocol has none).
std::string value_in(const std::string& protocol, const ParamMap& params, const std::string& key) {
  const auto it = params.find(key);
  if (it != params.end()) return it->second;
  const std::string fallback = default_param_value(protocol, key);
  return fallback.empty() ? "-" : fallback;
}

// Of several configurations, the one a headline uses: most runs (the best estimate), then the
// first in the file.
std::optional<std::size_t> primary(const std::vector<Group>& groups,
                                   const std::vector<std::size_t>& candidates) {
  std::optional<std::size_t> best;
  for (std::size_t g : candidates) {
    if (!best || groups[g].rows.size() > groups[*best].rows.size()) best = g;
  }
  return best;
}

Stat stat_over(const Group& g, double (*field)(const SummaryRow&)) {
  std::vector<double> v;
  for (const SummaryRow* r : g.rows) v.push_back(field(*r));
  return stat_of(v);
}

// "ok (patience)" when every run ended alike, else the count of each ending.
std::string status_text(const std::vector<SummaryRow>& runs) {
  std::vector<std::pair<std::string, int>> counts;
  for (const SummaryRow& r : runs) {
    const std::string text =
        r.stop_reason.empty() ? r.status : r.status + " (" + r.stop_reason + ")";
    auto it =
        std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == text; });
    if (it == counts.end()) {
      counts.emplace_back(text, 1);
    } else {
      ++it->second;
    }
  }
  if (counts.size() == 1) return counts[0].first;
  std::vector<std::string> parts;
  for (const auto& [text, n] : counts) parts.push_back(std::to_string(n) + " " + text);
  return join_strings(parts, ", ");
}

SimConfig make_config(const Group& g, std::optional<double> baseline_time_s,
                      const std::string& no_baseline) {
  SimConfig c;
  c.protocol = g.protocol;
  c.params = g.params;
  c.setting = g.setting;
  c.repeats = g.repeats;
  for (const SummaryRow* r : g.rows) {
    c.runs.push_back(r->run);
    c.per_run.push_back(*r);
  }
  std::stable_sort(c.per_run.begin(), c.per_run.end(),
                   [](const SummaryRow& a, const SummaryRow& b) { return a.seed < b.seed; });
  c.status = status_text(c.per_run);
  c.iterations =
      stat_over(g, [](const SummaryRow& r) { return static_cast<double>(r.iterations); });
  c.local_iterations =
      stat_over(g, [](const SummaryRow& r) { return static_cast<double>(r.local_iterations); });
  c.time_min = stat_over(g, [](const SummaryRow& r) { return r.sim_time_s / 60.0; });
  c.wi_avg = stat_over(g, [](const SummaryRow& r) { return r.wi_avg; });
  c.accuracy_pct = stat_over(g, [](const SummaryRow& r) { return r.accuracy * 100.0; });
  c.api_calls_m =
      stat_over(g, [](const SummaryRow& r) { return static_cast<double>(r.api_calls) / 1e6; });
  if (std::all_of(g.rows.begin(), g.rows.end(),
                  [](const SummaryRow* r) { return r->cost_usd.has_value(); })) {
    c.cost_usd = stat_over(g, [](const SummaryRow& r) { return *r.cost_usd; });
  }
  for (const SummaryRow& r : c.per_run) {
    const std::string why = not_comparable_reason(r);
    if (why.empty()) continue;
    c.speedup_withheld =
        r.run + (c.per_run.size() > 1 ? " (seed " + std::to_string(r.seed) + ")" : "") + ": " + why;
    return c;
  }
  const bool all_given = std::all_of(g.rows.begin(), g.rows.end(), [](const SummaryRow* r) {
    return r->speedup_vs_bsp.has_value();
  });
  if (all_given) {
    c.speedup = stat_over(g, [](const SummaryRow& r) { return *r.speedup_vs_bsp; });
  } else if (baseline_time_s) {
    // speedup = BSP time / time, on mean times (the paper's definition applied to seed means);
    // the range divides the same BSP mean by this configuration's slowest and fastest run.
    const Stat t = stat_over(g, [](const SummaryRow& r) { return r.sim_time_s; });
    Stat s;
    s.n = t.n;
    s.mean = *baseline_time_s / t.mean;
    s.min = *baseline_time_s / t.max;
    s.max = *baseline_time_s / t.min;
    c.speedup = s;
    c.speedup_computed = true;
  } else {
    c.speedup_withheld = no_baseline;
    c.no_baseline = true;
  }
  return c;
}

// The label of a configuration no reference row matched: its protocol and the parameters that
// are not the default or that the reference's rows of the protocol name, then its setting.
// The parameters the label of a configuration no reference row matched names: those that are not
// the default, that the reference's rows of the protocol name, or that name every run of it.
ParamMap label_keys_of(const std::string& protocol, const ParamMap& params,
                       const std::vector<ReferenceRow>& reference) {
  ParamMap shown;
  for (const auto& [k, v] : params) {
    const bool named = std::any_of(reference.begin(), reference.end(), [&](const ReferenceRow& r) {
      return r.protocol == protocol && r.params.count(k) != 0;
    });
    if (named || param_names_runs(protocol, k) || default_param_value(protocol, k) != v) {
      shown.emplace(k, v);
    }
  }
  return shown;
}

std::string unmatched_label(const Group& g, const std::vector<ReferenceRow>& reference) {
  const ParamMap shown = label_keys_of(g.protocol, g.params, reference);
  std::string label = display_name(g.protocol);
  if (!shown.empty()) label += " (" + label_params(shown) + ")";
  if (!g.setting.empty()) label += " [" + label_params(g.setting) + "]";
  return label;
}

// ComparisonRow::differs of every row: per protocol, the parameters whose value (its default where
// a configuration leaves it out) is not the same in all its rows, less those a row's label names.
void mark_differences(std::vector<ComparisonRow>& rows,
                      const std::vector<ReferenceRow>& reference) {
  const auto protocol_of = [](const ComparisonRow& r) {
    return r.sim ? r.sim->protocol : r.ref->protocol;
  };
  const auto params_of = [](const ComparisonRow& r) {
    return r.sim ? r.sim->params : expected_configuration(*r.ref);
  };
  for (ComparisonRow& row : rows) {
    const std::string protocol = protocol_of(row);
    std::vector<std::string> keys;
    for (const ComparisonRow& other : rows) {
      if (protocol_of(other) != protocol) continue;
      for (const auto& kv : params_of(other)) {
        if (std::find(keys.begin(), keys.end(), kv.first) == keys.end()) keys.push_back(kv.first);
      }
    }
    const ParamMap own = params_of(row);
    const ParamMap named = row.ref ? row.ref->params : label_keys_of(protocol, own, reference);
    // A key that does not apply to a configuration has no value there ("n/a"), not its default.
    const auto value_of = [&](const ParamMap& params, const std::string& key) {
      return applies_in(protocol, params, key) ? value_in(protocol, params, key) : "n/a";
    };
    for (const std::string& key : keys) {
      if (named.count(key) != 0 || !applies_in(protocol, own, key)) continue;
      const std::string value = value_of(own, key);
      const bool differs = std::any_of(rows.begin(), rows.end(), [&](const ComparisonRow& other) {
        return protocol_of(other) == protocol && value_of(params_of(other), key) != value;
      });
      if (differs) row.differs.emplace(key, value);
    }
  }
}

std::string runs_text(std::size_t n) { return std::to_string(n) + (n == 1 ? " run" : " runs"); }

}  // namespace

Comparison compare_with_reference(const std::vector<SummaryRow>& summary,
                                  const std::vector<ReferenceRow>& reference) {
  Comparison out;
  std::vector<Group> groups;
  for (const SummaryRow& r : summary) {
    auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
      return g.protocol == r.protocol && g.params == r.params && g.setting == r.setting;
    });
    if (it == groups.end()) {
      it = groups.insert(groups.end(), Group{r.protocol, r.params, r.setting, {}, 0, {}});
    }
    const bool repeat = std::any_of(it->rows.begin(), it->rows.end(),
                                    [&](const SummaryRow* seen) { return seen->seed == r.seed; });
    if (repeat) {
      ++it->repeats;
    } else {
      it->rows.push_back(&r);
    }
  }
  for (Group& g : groups) {
    for (std::size_t i = 0; i < reference.size() && !g.ref; ++i) {
      if (reference[i].protocol == g.protocol && expected_configuration(reference[i]) == g.params) {
        g.ref = i;
      }
    }
  }
  const auto groups_of_ref = [&](std::size_t i) {
    std::vector<std::size_t> v;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      if (groups[g].ref == i) v.push_back(g);
    }
    return v;
  };
  const auto first_ref = [&](std::string_view protocol) -> std::optional<std::size_t> {
    for (std::size_t i = 0; i < reference.size(); ++i) {
      if (reference[i].protocol == protocol) return i;
    }
    return std::nullopt;
  };

  // The simulated BSP baseline for computed speedups: the BSP configuration matched to the
  // reference BSP row, else any BSP configuration; only one that converged (a diverged or capped
  // BSP time is no baseline).
  std::vector<SimConfig> configs;
  for (const Group& g : groups) configs.push_back(make_config(g, std::nullopt, ""));
  const auto converged_bsp = [&](std::vector<std::size_t> candidates) {
    candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                    [&](std::size_t g) { return !configs[g].comparable(); }),
                     candidates.end());
    return primary(groups, candidates);
  };
  const scenario::ProtocolDescriptor& reference_protocol = scenario::speedup_reference();
  const std::string bsp_name(reference_protocol.name);
  const std::optional<std::size_t> ref_bsp = first_ref(bsp_name);
  std::optional<std::size_t> base;
  if (ref_bsp) base = converged_bsp(groups_of_ref(*ref_bsp));
  std::vector<std::size_t> bsp_groups;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].protocol == bsp_name) bsp_groups.push_back(g);
  }
  if (!base) base = converged_bsp(bsp_groups);
  std::optional<double> base_time;
  if (base) {
    base_time = stat_over(groups[*base], [](const SummaryRow& r) { return r.sim_time_s; }).mean;
    out.baseline = (groups[*base].ref ? reference[*groups[*base].ref].framework
                                      : unmatched_label(groups[*base], reference)) +
                   " (" + runs_text(groups[*base].rows.size()) + ", mean " +
                   format_fixed(*base_time / 60.0, 2) + " min)";
  }
  const std::string no_baseline = "no " + std::string(reference_protocol.label) + " run " +
                                  (bsp_groups.empty() ? "" : "converged ") + "to compare with";
  configs.clear();
  for (const Group& g : groups) configs.push_back(make_config(g, base_time, no_baseline));

  for (std::size_t i = 0; i < reference.size(); ++i) {
    const std::vector<std::size_t> matched = groups_of_ref(i);
    if (matched.empty()) {
      out.rows.push_back({reference[i].framework, reference[i], std::nullopt, {}});
      out.not_simulated.push_back(reference[i].framework);
    }
    for (std::size_t g : matched) {
      // Several configurations share the row only in a sweep over a setting: name it.
      std::string label = reference[i].framework;
      if (!groups[g].setting.empty()) label += " [" + label_params(groups[g].setting) + "]";
      out.rows.push_back({label, reference[i], configs[g], {}});
    }
  }
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].ref) continue;
    out.rows.push_back({unmatched_label(groups[g], reference), std::nullopt, configs[g], {}});
  }
  mark_differences(out.rows, reference);
  // An unmatched configuration may read like a paper row ("ASP" pushing per chunk beside the
  // paper's per-step "ASP"): its label then names what sets it apart.
  for (std::size_t i = 0; i < out.rows.size(); ++i) {
    ComparisonRow& row = out.rows[i];
    if (row.ref) continue;
    const bool taken = std::any_of(out.rows.begin(), out.rows.begin() + static_cast<long>(i),
                                   [&](const ComparisonRow& r) { return r.label == row.label; });
    if (taken && !row.differs.empty()) row.label += " [" + label_params(row.differs) + "]";
    out.not_in_reference.push_back(row.label + " (" + runs_text(row.sim->runs.size()) + ")");
  }

  // ---- headlines ----
  // The paper's Hermes is its best-speedup row (13.22x: alpha=-1.6, beta=0.15); the simulated
  // side uses the configuration matched to that same row, so both sides compare one setting.
  std::optional<std::size_t> ref_hermes;
  for (std::size_t i = 0; i < reference.size(); ++i) {
    if (reference[i].protocol != "hermes") continue;
    if (!ref_hermes || reference[i].speedup_vs_bsp > reference[*ref_hermes].speedup_vs_bsp) {
      ref_hermes = i;
    }
  }
  const std::optional<std::size_t> ref_ssp = first_ref("ssp");
  // The configuration a headline uses for a protocol: the one matched to the paper's row; with
  // no reference row of the protocol (no reference table: CIFAR-10), its configuration with most
  // runs (Hermes: the one with the best speedup).
  const auto groups_of_protocol = [&](std::string_view protocol) {
    std::vector<std::size_t> v;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      if (groups[g].protocol == protocol) v.push_back(g);
    }
    return v;
  };
  const auto sim_of = [&](std::optional<std::size_t> ref,
                          std::string_view protocol) -> std::optional<std::size_t> {
    return ref ? primary(groups, groups_of_ref(*ref))
               : primary(groups, groups_of_protocol(protocol));
  };
  std::optional<std::size_t> hermes_group = sim_of(ref_hermes, "hermes");
  if (!ref_hermes) {
    for (std::size_t g : groups_of_protocol("hermes")) {
      if (configs[g].speedup && (!configs[*hermes_group].speedup ||
                                 configs[g].speedup->mean > configs[*hermes_group].speedup->mean)) {
        hermes_group = g;
      }
    }
  }
  const auto config_at = [&](std::optional<std::size_t> g) -> const SimConfig* {
    return g ? &configs[*g] : nullptr;
  };
  const SimConfig* sim_hermes = config_at(hermes_group);
  const SimConfig* sim_bsp = config_at(sim_of(ref_bsp, bsp_name));
  const SimConfig* sim_ssp = config_at(sim_of(ref_ssp, "ssp"));
  const std::string hermes_label =
      ref_hermes ? reference[*ref_hermes].framework
                 : (hermes_group ? unmatched_label(groups[*hermes_group], reference) : "Hermes");
  const auto missing = [](const char* what) { return std::string("no simulated ") + what; };
  // With a paper row, the runs must have its exact configuration to stand for it.
  const std::string hermes_missing =
      ref_hermes ? "run of the paper's " + hermes_label + " configuration" : "Hermes run";
  // A ratio of two configurations means something only if both converged.
  const auto withheld_for =
      [&](std::initializer_list<std::pair<const SimConfig*, std::string>> used) {
        std::vector<std::string> why;
        for (const auto& [c, label] : used) {
          if (c == nullptr || c->comparable()) continue;
          for (const SummaryRow& r : c->per_run) {
            if (const std::string reason = not_comparable_reason(r); !reason.empty()) {
              why.push_back(label + " " + reason);
              break;
            }
          }
        }
        return join_strings(why, "; ");
      };

  {
    Headline h{"Hermes' best speedup vs BSP", Headline::Unit::kTimes, {}, {}, {}, {}};
    std::vector<std::string> notes;
    std::optional<std::size_t> best;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      if (groups[g].protocol != "hermes" || !configs[g].speedup) continue;
      if (!best || configs[g].speedup->mean > configs[*best].speedup->mean) best = g;
    }
    if (best) {
      h.sim = configs[*best].speedup->mean;
      const std::string label = groups[*best].ref ? reference[*groups[*best].ref].framework
                                                  : unmatched_label(groups[*best], reference);
      notes.push_back("sim: " + label);
    } else {
      std::vector<std::string> why;
      for (const SimConfig& c : configs) {
        if (c.protocol == "hermes" && !c.speedup_withheld.empty() &&
            std::find(why.begin(), why.end(), c.speedup_withheld) == why.end()) {
          why.push_back(c.speedup_withheld);
        }
      }
      h.withheld = join_strings(why, "; ");
      notes.push_back(missing("Hermes run with a speedup"));
    }
    if (ref_hermes) {
      h.paper = reference[*ref_hermes].speedup_vs_bsp;
      notes.push_back("paper: " + hermes_label);
    }
    h.note = join_strings(notes, "; ");
    out.headlines.push_back(h);
  }
  const auto reduction = [&](const char* base_name, std::optional<std::size_t> ref_base,
                             const SimConfig* sim_base) {
    Headline h{"API calls: 1 - Hermes/" + std::string(base_name),
               Headline::Unit::kPercent,
               {},
               {},
               hermes_label + " vs " + base_name,
               {}};
    if (ref_hermes && ref_base && reference[*ref_base].api_calls_m > 0) {
      h.paper = 1.0 - reference[*ref_hermes].api_calls_m / reference[*ref_base].api_calls_m;
    }
    h.withheld = withheld_for({{sim_hermes, hermes_label}, {sim_base, base_name}});
    if (sim_hermes && sim_base && sim_base->api_calls_m.mean > 0) {
      if (h.withheld.empty())
        h.sim = 1.0 - sim_hermes->api_calls_m.mean / sim_base->api_calls_m.mean;
    } else {
      h.note += "; " + missing(sim_hermes ? base_name : hermes_missing.c_str());
    }
    return h;
  };
  out.headlines.push_back(reduction("SSP", ref_ssp, sim_ssp));
  out.headlines.push_back(reduction("BSP", ref_bsp, sim_bsp));
  {
    Headline h{"accuracy: Hermes - BSP (points)",
               Headline::Unit::kPoints,
               {},
               {},
               hermes_label + " vs BSP",
               {}};
    if (ref_hermes && ref_bsp) {
      h.paper = reference[*ref_hermes].accuracy_pct - reference[*ref_bsp].accuracy_pct;
    }
    h.withheld = withheld_for({{sim_hermes, hermes_label}, {sim_bsp, "BSP"}});
    if (sim_hermes && sim_bsp) {
      if (h.withheld.empty()) h.sim = sim_hermes->accuracy_pct.mean - sim_bsp->accuracy_pct.mean;
    } else {
      h.note += "; " + missing(sim_hermes ? "BSP" : hermes_missing.c_str());
    }
    out.headlines.push_back(h);
  }
  return out;
}

}  // namespace hermes::metrics
