#include "sim/scenario/json_text.h"

#include "base/file_read.h"

namespace hermes::scenario {

std::optional<nlohmann::ordered_json> parse_json_text(std::string_view text, Diagnostics& diags) {
  return parse_json_checked(text, diags);
}

std::optional<std::string> read_text_file(const std::string& path, Diagnostics& diags) {
  try {
    return read_regular_file(path, kMaxScenarioBytes, "scenario file");
  } catch (const InputError& e) {
    diags.error("", e.what());
    return std::nullopt;
  }
}

}  // namespace hermes::scenario
