#include "sim/scenario/run_names.h"

#include <type_traits>

#include "base/number_text.h"

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
  std::string name(protocol_name(run.protocol));
  switch (run.protocol) {
    case Protocol::kBsp:
    case Protocol::kAsp:
      break;
    case Protocol::kSsp:
      name += "-" + std::to_string(run.staleness);
      break;
    case Protocol::kEbsp:
      name += "-" + std::to_string(run.lookahead);
      break;
    case Protocol::kHermes: {
      const HermesParams& h = run.hermes;
      name += name_number(h.alpha);
      if (h.beta != defaults::kBeta) name += "-b" + name_number(h.beta);
      if (h.lambda != defaults::kLambda) name += "-l" + std::to_string(h.lambda);
      if (h.window != defaults::kWindow) name += "-w" + std::to_string(h.window);
      if (h.variant == HermesVariant::kPaper) name += "-paper";
      if (!h.gup) name += "-nogup";
      if (!run.dynamic_allocation) name += "-nodyn";
      if (!h.loss_weighting) name += "-nolw";
      return name;
    }
    case Protocol::kDemo:
      return name;
  }
  if (run.async_update == AsyncUpdate::kAverage) name += "-avg";
  if (run.dynamic_allocation) name += "-dyn";
  return name;
}

std::optional<std::string> default_run_name(const Json& run) {
  if (!run.is_object()) return std::nullopt;
  const auto p = run.find("protocol");
  if (p == run.end() || !p->is_string()) return std::nullopt;
  const auto protocol = parse_protocol(p->get_ref<const std::string&>());
  if (!protocol) return std::nullopt;

  RunSpec spec;
  spec.protocol = *protocol;
  spec.dynamic_allocation = *protocol == Protocol::kHermes;
  const auto get = [&run](const char* key, auto& field) {
    using T = std::remove_reference_t<decltype(field)>;
    const auto it = run.find(key);
    if (it == run.end()) return;
    if constexpr (std::is_same_v<T, bool>) {
      if (it->is_boolean()) field = it->template get<bool>();
    } else if constexpr (std::is_same_v<T, int>) {
      if (it->is_number_integer()) field = it->template get<int>();
    } else {
      if (it->is_number()) field = it->template get<double>();
    }
  };
  get("dynamic_allocation", spec.dynamic_allocation);
  get("staleness", spec.staleness);
  get("lookahead", spec.lookahead);
  get("alpha", spec.hermes.alpha);
  get("beta", spec.hermes.beta);
  get("lambda", spec.hermes.lambda);
  get("window", spec.hermes.window);
  get("gup", spec.hermes.gup);
  get("loss_weighting", spec.hermes.loss_weighting);
  const auto a = run.find("async_update");
  if (a != run.end() && *a == "average") spec.async_update = AsyncUpdate::kAverage;
  const auto v = run.find("variant");
  if (v != run.end() && *v == "paper") spec.hermes.variant = HermesVariant::kPaper;
  return default_run_name(spec);
}

}  // namespace hermes::scenario
