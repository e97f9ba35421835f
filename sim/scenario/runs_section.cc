// "runs": the protocols to execute, each with its own parameters (declared in run_params.cc).
// Parameters of another protocol are unknown keys, so a typo such as "staleness" on a Hermes run
// cannot pass unnoticed.
#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "sim/config/json_pointer.h"
#include "sim/config/object_reader.h"
#include "sim/scenario/run_names.h"
#include "sim/scenario/run_params.h"
#include "sim/scenario/sections.h"

namespace hermes::scenario {

namespace {

struct ReadRun {
  RunSpec spec;
  bool ok = false;
  bool name_given = false;
};

// Every parameter `run.protocol` takes, in schema order; an invalid one keeps its default.
void read_params(ObjectReader& r, RunSpec& run) {
  for (const RunParam* p : params_of(run.protocol)) {
    if (p->recorded_if_given && !r.has(p->key)) {                // keeps the RunSpec's default
      if (p->field.set == nullptr) p->assign(run, p->fallback);  // an own one has none
      continue;
    }
    std::optional<double> value;
    switch (p->type) {
      case ParamType::kBool:
        value = r.boolean(p->key, p->fallback != 0);
        break;
      case ParamType::kInt:
        value = r.int32(p->key, static_cast<int>(p->fallback), p->range);
        break;
      case ParamType::kNumber:
        value = r.number(p->key, p->fallback, p->range);
        break;
      case ParamType::kChoice: {
        const std::string fallback = param_text(*p, p->fallback);
        const std::string text = r.choice(p->key, p->choices, fallback).value_or(fallback);
        value = static_cast<double>(std::find(p->choices.begin(), p->choices.end(), text) -
                                    p->choices.begin());
        break;
      }
    }
    p->assign(run, value.value_or(p->fallback));
  }
}

// Parameters that mean something only together with another's value: each error names the key
// and what it needs.
void check_combinations(ObjectReader& r, const RunSpec& run) {
  const bool steps = run.update_unit == UpdateUnit::kSteps;
  if (!steps && r.has("steps_per_update")) {
    r.error("steps_per_update",
            "used only with \"update_unit\": \"steps\" (accepted: remove "
            "it, or set update_unit \"steps\")");
  }
  if (steps && run.dynamic_allocation) {
    r.error("dynamic_allocation",
            "the dynamic allocation resizes chunks from their 5-epoch iteration times; it is "
            "not defined for \"update_unit\": \"steps\" (accepted: false with update_unit "
            "\"steps\")");
  }
  // A key read only under another's value (the staleness exponent, the compression fraction and
  // error feedback, hybrid's group size): its declaration says when.
  for (const RunParam* p : params_of(run.protocol)) {
    if (p->only_with.when.empty() || !r.has(p->key) || p->applies(run)) continue;
    r.error(std::string(p->key), "used only with " + std::string(p->only_with.when) +
                                     " (accepted: remove it, or set " +
                                     std::string(p->only_with.set) + ")");
  }
  // server_lr is accepted here, not by read_params: only for a protocol that takes it (else the
  // key is unknown, as any other key of another protocol).
  if (param_of(run.protocol, "server_lr") == nullptr) return;
  const bool server_lr = run.async_update == AsyncUpdate::kServerLr;
  // 0 is in the key's range only as the value of a run that does not use it (an invalid value,
  // reported already, reads as 0 too: only a given 0 is this error).
  const Json* lr = r.accept("server_lr");
  if (server_lr && (lr == nullptr || (lr->is_number() && lr->get<double>() == 0))) {
    r.error("server_lr",
            "async_update \"server-lr\" needs the server optimiser's learning rate "
            "(accepted: a number > 0 and <= 1000)");
  }
  if (!server_lr && r.has("server_lr")) {
    r.error("server_lr",
            "used only with \"async_update\": \"server-lr\" (accepted: remove it, "
            "or set async_update \"server-lr\")");
  }
}

}  // namespace

const ObjectDecl& run_base_decl() {
  using config::KeyType;
  static const ObjectDecl decl = [] {
    ObjectDecl d{"runs[]",
                 {{.key = "name",
                   .type = KeyType::kString,
                   .default_text = "from the protocol and parameters (ssp-125, hermes-1.3-b0.15)",
                   .accepted = std::string(kNameRule),
                   .help = "the run's name, unique in the scenario"},
                  {.key = "protocol",
                   .type = KeyType::kChoice,
                   .default_text = "required",
                   .choices = protocol_names(),
                   .help = "what the run executes"}}};
    // The parameters, once each, from their own table (run_params.cc), which the reader reads.
    for (const RunParam& p : run_param_table()) {
      std::string takers;
      std::string fallbacks;
      for (const RunParam& q : run_param_table()) {
        if (q.key != p.key) continue;
        for (std::size_t i = 0; i < protocol_names().size(); ++i) {
          if (!q.taken_by(static_cast<Protocol>(i))) continue;
          takers += (takers.empty() ? "" : ", ") + protocol_names()[i];
        }
        fallbacks += (fallbacks.empty() ? "" : "; ") + param_text(q, q.fallback);
      }
      if (d.find(p.key) != nullptr) continue;
      config::KeyDecl k{.key = p.key,
                        .default_text = fallbacks,
                        .range = p.range,
                        .choices = p.choices,
                        .accepted = "protocols " + takers,
                        .help = std::string(p.help),
                        .computed_default = true};
      switch (p.type) {
        case ParamType::kBool:
          k.type = KeyType::kBoolean;
          break;
        case ParamType::kInt:
          k.type = KeyType::kInteger;
          break;
        case ParamType::kNumber:
          k.type = KeyType::kNumber;
          break;
        case ParamType::kChoice:
          k.type = KeyType::kChoice;
          break;
      }
      d.keys.push_back(std::move(k));
    }
    return d;
  }();
  return decl;
}

namespace {

ReadRun read_run(const Json& value, const std::string& path, Diagnostics& diags, Json& out) {
  ReadRun result;
  const std::size_t errors_before = diags.count();
  ObjectReader r(value, path, diags, out, run_base_decl());
  if (!r.is_object()) return result;

  // "name" comes first in the resolved document, though a default name needs the parameters.
  out["name"] = nullptr;
  const Json* name = r.accept("name");
  if (name != nullptr) {
    result.name_given = true;
    if (name->is_string() && is_valid_name(name->get_ref<const std::string&>())) {
      result.spec.name = name->get<std::string>();
    } else {
      r.error("name", "invalid run name " + describe_value(*name) +
                          " (accepted: " + std::string(kNameRule) + ")");
    }
  }

  std::optional<std::string> protocol_text;
  if (r.accept("protocol") == nullptr) {
    r.error("protocol",
            "missing required key 'protocol' (accepted: " + join_strings(protocol_names()) + ")");
  } else {
    protocol_text = r.choice("protocol", protocol_names(), std::nullopt);
  }
  if (!protocol_text) {
    // Without a protocol the valid parameters are unknown: accept those of every protocol so
    // that only keys no protocol has are reported.
    for (const RunParam& p : run_param_table()) r.accept(p.key);
    r.finish();
    return result;
  }
  RunSpec& run = result.spec;
  run.protocol = *parse_protocol(*protocol_text);
  read_params(r, run);
  check_combinations(r, run);
  r.finish();
  if (!result.name_given) run.name = default_run_name(run);
  out["name"] = run.name;
  result.ok = diags.count() == errors_before;
  return result;
}

}  // namespace

std::vector<RunSpec> read_runs(const Json* value, Diagnostics& diags, Json& out) {
  std::vector<RunSpec> runs;
  const std::string accepted = "a non-empty array of run objects, each with a \"protocol\" (" +
                               join_strings(protocol_names()) + ")";
  if (value == nullptr) {
    diags.error("/runs", "missing required key 'runs' (accepted: " + accepted + ")");
    return runs;
  }
  if (!value->is_array()) {
    diags.error("/runs", "wrong type: expected " + accepted + ", got " + describe_value(*value));
    return runs;
  }
  if (value->empty()) {
    diags.error("/runs", "no runs: nothing to execute (accepted: " + accepted + ")");
    return runs;
  }
  out = Json::array();
  std::map<std::string, std::size_t> first_use;
  for (std::size_t i = 0; i < value->size(); ++i) {
    const std::string path = pointer_append("/runs", i);
    ReadRun run = read_run((*value)[i], path, diags, out.emplace_back(Json::object()));
    if (run.spec.name.empty()) continue;  // invalid or unknown: already reported
    const auto [it, inserted] = first_use.emplace(run.spec.name, i);
    if (!inserted) {
      diags.error(run.name_given ? pointer_append(path, "name") : path,
                  "duplicate run name '" + run.spec.name + "' (also " +
                      pointer_append("/runs", it->second) +
                      "); run names must be unique: give this run a distinct \"name\"");
    }
    runs.push_back(std::move(run.spec));
  }
  return runs;
}

}  // namespace hermes::scenario
