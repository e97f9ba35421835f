// Protocol names as they appear in scenario files.
#include <array>
#include <utility>

#include "sim/scenario/scenario.h"

namespace hermes::scenario {

namespace {
constexpr std::array<std::pair<Protocol, std::string_view>, 6> kProtocols = {{
    {Protocol::kBsp, "bsp"},
    {Protocol::kAsp, "asp"},
    {Protocol::kSsp, "ssp"},
    {Protocol::kEbsp, "ebsp"},
    {Protocol::kHermes, "hermes"},
    {Protocol::kDemo, "demo"},
}};
}  // namespace

std::string_view protocol_name(Protocol protocol) {
  for (const auto& [p, name] : kProtocols) {
    if (p == protocol) return name;
  }
  return "unknown";
}

std::optional<Protocol> parse_protocol(std::string_view name) {
  for (const auto& [p, n] : kProtocols) {
    if (n == name) return p;
  }
  return std::nullopt;
}

const std::vector<std::string>& protocol_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& entry : kProtocols) v.emplace_back(entry.second);
    return v;
  }();
  return names;
}

}  // namespace hermes::scenario
