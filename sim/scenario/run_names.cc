// Run and scenario names; default run names derive from the declarations in run_params.cc.
#include "sim/scenario/run_names.h"

#include <algorithm>
#include <vector>

#include "base/number_text.h"
#include "sim/scenario/run_params.h"

namespace hermes::scenario {

bool is_valid_name(std::string_view name) {
  if (name.empty() || name == "." || name == "..") return false;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

namespace {

// format_number may produce "1e+20"; '+' is not a name character.
std::string name_number(double v) {
  std::string s = format_number(v);
  for (char& c : s) {
    if (c == '+') c = '_';
  }
  return s;
}

}  // namespace

std::string default_run_name(const RunSpec& run) {
  std::vector<const RunParam*> params = params_of(run.protocol);
  std::stable_sort(params.begin(), params.end(), [](const RunParam* a, const RunParam* b) {
    return a->name_rank < b->name_rank;
  });
  std::string name(protocol_name(run.protocol));
  for (const RunParam* p : params) {
    const bool changed = !p->is_default(run);
    switch (p->name) {
      case NameForm::kNone:
        break;
      case NameForm::kIfChanged:
        if (!changed) break;
        [[fallthrough]];
      case NameForm::kValue:
        name += std::string(p->name_text) + param_text(*p, p->value(run), name_number);
        break;
      case NameForm::kFlag:
        if (!changed) break;
        name += p->choice_name_texts.empty()
                    ? p->name_text
                    : p->choice_name_texts.at(static_cast<std::size_t>(p->value(run)));
        break;
    }
  }
  return name;
}

std::optional<std::string> default_run_name(const Json& run) {
  if (!run.is_object()) return std::nullopt;
  const auto p = run.find("protocol");
  if (p == run.end() || !p->is_string()) return std::nullopt;
  const auto protocol = parse_protocol(p->get_ref<const std::string&>());
  if (!protocol) return std::nullopt;

  RunSpec spec = default_run(*protocol);
  for (const RunParam* param : params_of(*protocol)) {
    const auto it = run.find(param->key);
    if (it == run.end()) continue;
    switch (param->type) {
      case ParamType::kBool:
        if (it->is_boolean()) param->assign(spec, it->get<bool>() ? 1 : 0);
        break;
      case ParamType::kInt:
        if (it->is_number_integer()) param->assign(spec, it->get<int>());
        break;
      case ParamType::kNumber:
        if (it->is_number()) param->assign(spec, it->get<double>());
        break;
      case ParamType::kChoice: {
        const auto c = std::find(param->choices.begin(), param->choices.end(), *it);
        if (c != param->choices.end()) {
          param->assign(spec, static_cast<double>(c - param->choices.begin()));
        }
        break;
      }
    }
  }
  return default_run_name(spec);
}

}  // namespace hermes::scenario
