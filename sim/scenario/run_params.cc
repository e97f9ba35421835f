// The declarations of every protocol's run parameters (see run_params.h), and what derives from
// them that has no other home: the defaults of a run and the README's table of run keys.
#include "sim/scenario/run_params.h"

#include <algorithm>
#include <array>
#include <type_traits>

#include "base/enum_text.h"
#include "base/string_join.h"
#include "sim/policies/gup_defaults.h"
#include "sim/scenario/protocol_descriptor.h"

namespace hermes::scenario {

namespace {

// The field reached from a RunSpec through `Members` (&RunSpec::hermes, &HermesParams::alpha).
template <auto... Members>
constexpr FieldAccess field() {
  return {[](const RunSpec& run) -> double {
            const auto& f = (run.*....*Members);
            if constexpr (std::is_enum_v<std::remove_cvref_t<decltype(f)>>) {
              return static_cast<int>(f);
            } else {
              return static_cast<double>(f);
            }
          },
          [](RunSpec& run, double v) {
            auto& f = (run.*....*Members);
            using T = std::remove_reference_t<decltype(f)>;
            if constexpr (std::is_enum_v<T>) {
              f = static_cast<T>(static_cast<int>(v));
            } else {
              f = static_cast<T>(v);
            }
          }};
}

constexpr std::string_view kDynamicAllocationHelp =
    "the reference's straggler-driven chunk resizing at the PS";

std::vector<RunParam> declarations() {
  using P = ParamType;
  // The keys shared by a kind of protocol follow its trait (protocol_descriptor.cc).
  const ProtocolSet kBaselines = protocols_with(&ProtocolTraits::paper_baseline);
  const ProtocolSet kAsynchronous = protocols_with(&ProtocolTraits::applies_on_arrival);
  const ProtocolSet kHermes = protocols({Protocol::kHermes});
  return {
      {.key = "dynamic_allocation",
       .protocols = kBaselines,
       .type = P::kBool,
       .fallback = 0,
       .help = kDynamicAllocationHelp,
       .name = NameForm::kFlag,
       .name_text = "-dyn",
       .name_rank = 1,
       .column = ColumnForm::kIfChanged,
       .field = field<&RunSpec::dynamic_allocation>()},
      {.key = "barrier_timeout_s",
       .protocols = protocols({Protocol::kBsp}),
       .type = P::kNumber,
       .fallback = 0,
       .range = Range::at_least(0).up_to(1e6),
       .help = "BSP closes a round this long after its first update arrived, with the updates "
               "that are in, dropping silent workers from it (docs/churn.md); 0: waits for every "
               "live worker",
       .column = ColumnForm::kIfChanged,
       .field = field<&RunSpec::barrier_timeout_s>(),
       .recorded_if_given = true},
      {.key = "staleness",
       .protocols = protocols({Protocol::kSsp}),
       .type = P::kInt,
       .fallback = defaults::kStaleness,
       .range = Range::at_least(0),
       .help = "SSP's bound s: a worker waits while it is more than s iterations ahead of the "
               "slowest; 0 behaves as BSP",
       .name = NameForm::kValue,
       .name_text = "-",
       .column = ColumnForm::kAlways,
       .field = field<&RunSpec::staleness>()},
      {.key = "lookahead",
       .protocols = protocols({Protocol::kEbsp}),
       .type = P::kInt,
       .fallback = defaults::kLookahead,
       .range = Range::at_least(1).up_to(limits::kMaxLookahead),
       .help = "E-BSP's R: the iterations ahead its barrier placement predicts",
       .name = NameForm::kValue,
       .name_text = "-",
       .column = ColumnForm::kAlways,
       .field = field<&RunSpec::lookahead>()},
      {.key = "pull_between_barriers",
       .protocols = protocols({Protocol::kEbsp}),
       .type = P::kBool,
       .fallback = 0,
       .help = "E-BSP's workers pull the global model after each push, ASP-style, instead of "
               "training on from their own model until the next barrier",
       .name = NameForm::kFlag,
       .name_text = "-pull",
       .column = ColumnForm::kIfChanged,
       .field = field<&RunSpec::pull_between_barriers>()},
      {.key = "async_update",
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
       .field = field<&RunSpec::async_update>()},
      {.key = "server_lr",
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
       .field = field<&RunSpec::server_lr>(),
       .recorded_if_given = true,
       .applies = [](const RunSpec& r) { return r.async_update == AsyncUpdate::kServerLr; }},
      {.key = "update_unit",
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
       .field = field<&RunSpec::update_unit>(),
       .recorded_if_given = true},
      {.key = "steps_per_update",
       .protocols = kBaselines,
       .type = P::kInt,
       .fallback = 1,
       .range = Range::at_least(1).up_to(1e6),
       .help = "with `update_unit` `steps` (and only then): mini-batches per push, K",
       .name = NameForm::kIfChanged,
       .name_text = "-k",
       .column = ColumnForm::kIfChanged,
       .field = field<&RunSpec::steps_per_update>(),
       .recorded_if_given = true,
       .applies = [](const RunSpec& r) { return r.update_unit == UpdateUnit::kSteps; }},
      {.key = "evaluate_every",
       .protocols = kBaselines,
       .type = P::kInt,
       .fallback = 1,
       .range = Range::at_least(1).up_to(1e6),
       .help = "the PS evaluates the global model (and the stop rule looks at it) once this many "
               "updates have been applied since its last evaluation; 1: after every aggregation",
       .name = NameForm::kIfChanged,
       .name_text = "-e",
       .column = ColumnForm::kIfChanged,
       .field = field<&RunSpec::evaluate_every>(),
       .recorded_if_given = true},
      {.key = "alpha",
       .protocols = kHermes,
       .type = P::kNumber,
       .fallback = gup_defaults::kAlpha,
       .range = Range::below(0),
       .help = "initial z-score threshold",
       .name = NameForm::kValue,
       .column = ColumnForm::kAlways,
       .field = field<&RunSpec::hermes, &HermesParams::alpha>()},
      {.key = "beta",
       .protocols = kHermes,
       .type = P::kNumber,
       .fallback = gup_defaults::kBeta,
       .range = Range::at_least(0).under(1),
       .help = "threshold decay per minor update once the streak reaches lambda",
       .name = NameForm::kIfChanged,
       .name_text = "-b",
       .column = ColumnForm::kAlways,
       .field = field<&RunSpec::hermes, &HermesParams::beta>()},
      {.key = "lambda",
       .protocols = kHermes,
       .type = P::kInt,
       .fallback = gup_defaults::kLambda,
       .range = Range::at_least(1),
       .help = "minor-update streak before the threshold decays",
       .name = NameForm::kIfChanged,
       .name_text = "-l",
       .column = ColumnForm::kAlways,
       .field = field<&RunSpec::hermes, &HermesParams::lambda>()},
      {.key = "window",
       .protocols = kHermes,
       .type = P::kInt,
       .fallback = gup_defaults::kWindow,
       .range = Range::at_least(2).up_to(limits::kMaxWindow),
       .help = "losses in the z-score window",
       .name = NameForm::kIfChanged,
       .name_text = "-w",
       .column = ColumnForm::kAlways,
       .field = field<&RunSpec::hermes, &HermesParams::window>()},
      {.key = "variant",
       .protocols = kHermes,
       .type = P::kChoice,
       .fallback = static_cast<int>(HermesVariant::kReference),
       .choices = {"reference", "paper"},
       .help = "`reference`: the released code, cumulative updates and global model rebuilt from "
               "the initial weights; `paper`: the clean formulation",
       .name = NameForm::kFlag,
       .name_text = "-paper",
       .column = ColumnForm::kAlways,
       .field = field<&RunSpec::hermes, &HermesParams::variant>()},
      {.key = "gup",
       .protocols = kHermes,
       .type = P::kBool,
       .fallback = 1,
       .help = "the generalized update policy; false pushes every iteration",
       .name = NameForm::kFlag,
       .name_text = "-nogup",
       .column = ColumnForm::kIfChanged,
       .field = field<&RunSpec::hermes, &HermesParams::gup>()},
      {.key = "dynamic_allocation",
       .protocols = kHermes,
       .type = P::kBool,
       .fallback = 1,
       .help = kDynamicAllocationHelp,
       .name = NameForm::kFlag,
       .name_text = "-nodyn",
       .column = ColumnForm::kIfChanged,
       .field = field<&RunSpec::dynamic_allocation>()},
      {.key = "loss_weighting",
       .protocols = kHermes,
       .type = P::kBool,
       .fallback = 1,
       .help = "the PS weights updates by loss; false averages plainly",
       .name = NameForm::kFlag,
       .name_text = "-nolw",
       .column = ColumnForm::kIfChanged,
       .field = field<&RunSpec::hermes, &HermesParams::loss_weighting>()},
      {.key = "iterations",
       .protocols = protocols({Protocol::kDemo}),
       .type = P::kInt,
       .fallback = defaults::kDemoIterations,
       .range = Range::at_least(1).up_to(limits::kMaxDemoIterations),
       .help = "iterations per worker: workers only compute their chunks and send updates to the "
               "PS, no training math; for looking at timing",
       .field = field<&RunSpec::demo_iterations>()},
  };
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

std::vector<std::string_view> summary_param_keys() {
  std::vector<std::string_view> keys;
  for (const RunParam& p : run_param_table()) {
    if (p.column == ColumnForm::kNever) continue;
    if (std::find(keys.begin(), keys.end(), p.key) == keys.end()) keys.push_back(p.key);
  }
  return keys;
}

RunSpec default_run(Protocol protocol) {
  RunSpec run;
  run.protocol = protocol;
  for (const RunParam* p : params_of(protocol)) p->field.set(run, p->fallback);
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
  for (const RunParam& p : run_param_table()) {
    std::string fallback = param_text(p, p.fallback);
    if (p.type == ParamType::kChoice) fallback = "\"" + fallback + "\"";
    out += "| " + code(p.key) + " | " + protocol_list(p.protocols) + " | " + type_text(p.type) +
           " | " + code(fallback) + " | " + accepted_text(p) + " | " + name_text(p) + " | " +
           std::string(p.help) + " |\n";
  }
  return out;
}

}  // namespace hermes::scenario
