// Parsing scenario text into JSON with diagnostics a person can act on: malformed JSON is
// reported with its line and column, duplicate object keys (which nlohmann would silently
// collapse to the last one), nesting deeper than kMaxJsonDepth and numbers beyond a double's range
// with their JSON pointer (the parser itself: sim/config/json_read.h).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/diagnostics.h"
#include "sim/config/json_read.h"

namespace hermes::scenario {

using hermes::position_of;
using hermes::TextPosition;

// Parses `text`; on malformed JSON, duplicate keys, too deep nesting or an out-of-range number
// reports into diags and returns nullopt.
std::optional<nlohmann::ordered_json> parse_json_text(std::string_view text, Diagnostics& diags);

// Reads a whole scenario file (a regular file of at most kMaxScenarioBytes, file_read.h); reports
// why not into diags (with the system's reason) and returns nullopt on failure.
std::optional<std::string> read_text_file(const std::string& path, Diagnostics& diags);

}  // namespace hermes::scenario
