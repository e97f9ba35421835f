// The "key=value;key=value" text of run parameters (see params_text.h).
#include "sim/metrics/params_text.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "base/diagnostics.h"
#include "base/number_text.h"
#include "base/string_join.h"

namespace hermes::metrics {

namespace {

bool valid_key(std::string_view key) {
  if (key.empty()) return false;
  return std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '-';
  });
}

}  // namespace

ParamMap parse_params(std::string_view params) {
  ParamMap out;
  const auto error = [&](const std::string& why) {
    return InputError("params '" + std::string(params) + "': " + why +
                      " (expected key=value;key=value)");
  };
  std::size_t pos = 0;
  while (pos <= params.size()) {
    std::size_t end = params.find(';', pos);
    if (end == std::string_view::npos) end = params.size();
    const std::string_view segment = trim(params.substr(pos, end - pos));
    pos = end + 1;
    if (segment.empty()) continue;
    const std::size_t eq = segment.find('=');
    if (eq == std::string_view::npos) {
      throw error("'" + std::string(segment) + "' has no '='");
    }
    const std::string key(trim(segment.substr(0, eq)));
    const std::string_view value = trim(segment.substr(eq + 1));
    if (!valid_key(key)) throw error("key '" + key + "' is not [A-Za-z0-9_.-]+");
    if (value.empty()) throw error("key '" + key + "' has no value");
    if (value.find('=') != std::string_view::npos) {
      throw error("value of '" + key + "' contains '='");
    }
    if (!out.emplace(key, canonical_value(value)).second) throw error("key '" + key + "' repeated");
  }
  return out;
}

std::string canonical_value(std::string_view value) {
  const auto number = parse_number(value);
  return number && std::isfinite(*number) ? shortest(*number) : std::string(trim(value));
}

std::string params_text(const ParamMap& params) {
  std::vector<std::string> parts;
  for (const auto& [k, v] : params) parts.push_back(k + "=" + v);
  return join_strings(parts, ";");
}

std::string canonical_params(std::string_view params) { return params_text(parse_params(params)); }

bool params_match(const ParamMap& reference, const ParamMap& run) {
  return std::all_of(reference.begin(), reference.end(), [&](const auto& kv) {
    const auto it = run.find(kv.first);
    return it != run.end() && it->second == kv.second;
  });
}

}  // namespace hermes::metrics
