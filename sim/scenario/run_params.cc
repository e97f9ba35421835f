// The run parameters shared by a kind of protocol (the baselines', the asynchronous ones'), the
// table that gathers them with every protocol's own (its descriptor), and what derives from the
// table that has no other home: the defaults of a run and the README's table of run keys.
#include "sim/scenario/run_params.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "base/enum_text.h"
#include "base/string_join.h"
#include "sim/scenario/compression_params.h"
#include "sim/scenario/protocol_descriptor.h"

namespace hermes::scenario {

namespace {

// The keys shared by a kind of protocol: its trait (protocol_descriptor.h) says who takes them.
std::vector<RunParam> shared_declarations() {
  using P = ParamType;
  const ProtocolSet kBaselines = protocols_with(&ProtocolTraits::paper_baseline);
  const ProtocolSet kAsynchronous = protocols_with(&ProtocolTraits::applies_on_arrival);
  return {
      {.key = "dynamic_allocation",
       .position = 10,
       .protocols = kBaselines,
       .type = P::kBool,
       .fallback = 0,
       .help = kDynamicAllocationHelp,
       .name = NameForm::kFlag,
       .name_text = "-dyn",
       .name_rank = 1,
       .column = ColumnForm::kIfChanged,
       .field = run_field<&RunSpec::dynamic_allocation>()},
      {.key = "async_update",
       .position = 60,
       .protocols = kAsynchronous,
       .type = P::kChoice,
       .fallback = static_cast<int>(AsyncUpdate::kAdd),
       .choices = {"add", "average", "server-lr"},
       .help = "the server step, how the PS applies an update on arrival: `add` the worker's "
               "whole model change (weight 1), `average` 1/n of it, `server-lr` the update's "
               "gradients times `server_lr` (see \"The server step\" below)",
       .name = NameForm::kFlag,
       .name_text = "-avg",
       .choice_name_texts = {"", "-avg", ""},  // server-lr: named by its server_lr (-slr<x>)
       .column = ColumnForm::kIfChanged,
       .field = run_field<&RunSpec::async_update>()},
      {.key = "server_lr",
       .position = 70,
       .protocols = kAsynchronous,
       .type = P::kNumber,
       .fallback = 0,
       .range = Range::at_least(0).up_to(1e3),
       .help = "with `async_update` `server-lr` (and only then, where it is required and must "
               "be > 0): the server optimiser's learning rate; the PS applies w <- w - server_lr "
               "x the sum of the update's mini-batch gradients",
       .name = NameForm::kIfChanged,
       .name_text = "-slr",
       .column = ColumnForm::kIfChanged,
       .field = run_field<&RunSpec::server_lr>(),
       .recorded_if_given = true,
       .applies = [](const RunSpec& r) { return r.async_update == AsyncUpdate::kServerLr; }},
      {.key = "update_unit",
       .position = 80,
       .protocols = kBaselines,
       .type = P::kChoice,
       .fallback = static_cast<int>(UpdateUnit::kChunk),
       .choices = {"chunk", "steps"},
       .help = "what one push is: `chunk` the change of a whole chunk's local_epochs (the Hermes "
               "setup), `steps` the gradient of `steps_per_update` mini-batches of the chunk, "
               "followed by a pull (the per-step parameter server; see \"The update unit\" below)",
       .name = NameForm::kFlag,
       .name_text = "-steps",
       .column = ColumnForm::kIfChanged,
       .field = run_field<&RunSpec::update_unit>(),
       .recorded_if_given = true},
      {.key = "steps_per_update",
       .position = 90,
       .protocols = kBaselines,
       .type = P::kInt,
       .fallback = 1,
       .range = Range::at_least(1).up_to(1e6),
       .help = "with `update_unit` `steps` (and only then): mini-batches per push, K",
       .name = NameForm::kIfChanged,
       .name_text = "-k",
       .column = ColumnForm::kIfChanged,
       .field = run_field<&RunSpec::steps_per_update>(),
       .recorded_if_given = true,
       .applies = [](const RunSpec& r) { return r.update_unit == UpdateUnit::kSteps; }},
      {.key = "evaluate_every",
       .position = 100,
       .protocols = protocols_with(&ProtocolTraits::evaluates_by_update_count),
       .type = P::kInt,
       .fallback = 1,
       .range = Range::at_least(1).up_to(1e6),
       .help = "the PS evaluates the global model (and the stop rule looks at it) once this many "
               "updates have been applied since its last evaluation; 1: after every aggregation",
       .name = NameForm::kIfChanged,
       .name_text = "-e",
       .column = ColumnForm::kIfChanged,
       .field = run_field<&RunSpec::evaluate_every>(),
       .recorded_if_given = true},
  };
}

// The shared declarations and every protocol's own, in schema order.
std::vector<RunParam> declarations() {
  std::vector<RunParam> all = shared_declarations();
  // Every training protocol compresses its pushes alike (docs/compression.md).
  for (RunParam& p : compression_params(protocols_with(&ProtocolTraits::trains))) {
    all.push_back(std::move(p));
  }
  for (const ProtocolDescriptor& d : protocol_descriptors()) {
    for (RunParam p : d.params) {
      p.protocols = protocols({d.id});
      all.push_back(std::move(p));
    }
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const RunParam& a, const RunParam& b) { return a.position < b.position; });
  return all;
}

std::string code(std::string_view text) { return "`" + std::string(text) + "`"; }

std::string protocol_list(ProtocolSet set) {
  std::vector<std::string> names;
  for (const std::string& name : protocol_names()) {
    if ((set & protocols({*parse_protocol(name)})) != 0) names.push_back(name);
  }
  return join_strings(names);
}

std::string type_text(ParamType type) {
  constexpr std::array<std::string_view, 4> kTexts{"bool", "integer", "number", "string"};
  static_assert(kTexts.size() == enum_count(ParamType::kChoice));
  return std::string(enum_text(type, kTexts));
}

std::string accepted_text(const RunParam& p) {
  switch (p.type) {
    case ParamType::kBool:
      return "`true`, `false`";
    case ParamType::kInt:
    case ParamType::kNumber:
      return p.range.describe(p.key);
    case ParamType::kChoice: {
      std::vector<std::string> quoted;
      for (const std::string& c : p.choices) quoted.push_back(code(c));
      return join_strings(quoted);
    }
  }
  return "";
}

std::string name_text(const RunParam& p) {
  const std::string part = std::string(p.name_text);
  switch (p.name) {
    case NameForm::kNone:
      return "no";
    case NameForm::kValue:
      return code(part + "<" + std::string(p.key) + ">");
    case NameForm::kIfChanged:
      return code(part + "<" + std::string(p.key) + ">") + " if not the default";
    case NameForm::kFlag: {
      if (p.choice_name_texts.empty()) return code(part) + " if not the default";
      std::vector<std::string> forms;
      for (std::size_t i = 0; i < p.choices.size(); ++i) {
        if (!p.choice_name_texts[i].empty()) {
          forms.push_back(code(std::string(p.choice_name_texts[i])) + " for " + code(p.choices[i]));
        }
      }
      return join_strings(forms);
    }
  }
  return "";
}

}  // namespace

const std::vector<RunParam>& run_param_table() {
  static const std::vector<RunParam> table = declarations();
  return table;
}

std::vector<const RunParam*> params_of(Protocol protocol) {
  std::vector<const RunParam*> out;
  for (const RunParam& p : run_param_table()) {
    if (p.taken_by(protocol)) out.push_back(&p);
  }
  return out;
}

const RunParam* param_of(Protocol protocol, std::string_view key) {
  for (const RunParam& p : run_param_table()) {
    if (p.key == key && p.taken_by(protocol)) return &p;
  }
  return nullptr;
}

namespace {

// The parameter columns of a summary: `used` says whether one of its runs uses a declaration with
// a column_used (null: none does; every declaration is used when `all`).
std::vector<std::string_view> param_keys(ProtocolSet present, bool all,
                                         const std::vector<const RunSpec*>& runs) {
  std::vector<std::string_view> keys;
  for (const RunParam& p : run_param_table()) {
    if (p.column == ColumnForm::kNever) continue;
    if (p.position == kAppended && (p.protocols & present) == 0) continue;
    if (p.column_used != nullptr && !all &&
        std::none_of(runs.begin(), runs.end(), [&p](const RunSpec* r) {
          return p.taken_by(r->protocol) && p.column_used(*r);
        })) {
      continue;
    }
    if (std::find(keys.begin(), keys.end(), p.key) == keys.end()) keys.push_back(p.key);
  }
  return keys;
}

}  // namespace

std::vector<std::string_view> summary_param_keys() { return param_keys(~ProtocolSet{}, true, {}); }

std::vector<std::string_view> summary_param_keys(ProtocolSet present) {
  return param_keys(present, false, {});
}

std::vector<std::string_view> summary_param_keys(const std::vector<const RunSpec*>& runs) {
  ProtocolSet present = 0;
  for (const RunSpec* r : runs) present |= protocols({r->protocol});
  return param_keys(present, false, runs);
}

double RunSpec::own_value(std::string_view key) const {
  const auto it = own.find(key);
  if (it == own.end()) {
    throw std::logic_error("run '" + name + "' (" + std::string(protocol_name(protocol)) +
                           ") has no parameter '" + std::string(key) + "'");
  }
  return it->second;
}

RunSpec default_run(Protocol protocol) {
  RunSpec run;
  run.protocol = protocol;
  for (const RunParam* p : params_of(protocol)) p->assign(run, p->fallback);
  return run;
}

std::string param_text(const RunParam& param, double value, std::string (*number)(double)) {
  switch (param.type) {
    case ParamType::kBool:
      return value != 0 ? "true" : "false";
    case ParamType::kInt:
      return std::to_string(static_cast<long long>(value));
    case ParamType::kNumber:
      return number(value);
    case ParamType::kChoice:
      return param.choices.at(static_cast<std::size_t>(value));
  }
  return "";
}

std::string run_keys_table() {
  std::string out =
      "| key | protocols | type | default | accepted | in a default run name | meaning |\n"
      "|---|---|---|---|---|---|---|\n";
  const auto& table = run_param_table();
  for (std::size_t i = 0; i < table.size(); ++i) {
    const RunParam& p = table[i];
    // A key several descriptors declare alike (ASP's and SSP's staleness keys) is one row.
    const auto same = [&p](const RunParam& q) {
      return q.key == p.key && q.fallback == p.fallback && q.help == p.help;
    };
    if (std::any_of(table.begin(), table.begin() + static_cast<std::ptrdiff_t>(i), same)) continue;
    ProtocolSet takers = 0;
    for (const RunParam& q : table) {
      if (same(q)) takers |= q.protocols;
    }
    std::string fallback = param_text(p, p.fallback);
    if (p.type == ParamType::kChoice) fallback = "\"" + fallback + "\"";
    out += "| " + code(p.key) + " | " + protocol_list(takers) + " | " + type_text(p.type) + " | " +
           code(fallback) + " | " + accepted_text(p) + " | " + name_text(p) + " | " +
           std::string(p.help) + " |\n";
  }
  return out;
}

}  // namespace hermes::scenario
