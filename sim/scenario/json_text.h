// Parsing scenario text into JSON with diagnostics a person can act on: malformed JSON is
// reported with its line and column, and duplicate object keys (which nlohmann would silently
// collapse to the last one) are reported with the pointer of the object holding them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "sim/common/diagnostics.h"

namespace hermes::scenario {

struct TextPosition {
  std::size_t line = 1;    // 1-based
  std::size_t column = 1;  // 1-based, in characters (UTF-8 continuation bytes do not count)
};

// Position of the byte at 0-based `offset` in `text` (offset == text.size() is the end of input).
TextPosition position_of(std::string_view text, std::size_t offset);

// Parses `text`; on malformed JSON or duplicate keys reports into diags and returns nullopt.
std::optional<nlohmann::ordered_json> parse_json_text(std::string_view text, Diagnostics& diags);

// Reads a whole file; reports "cannot read" into diags and returns nullopt on failure.
std::optional<std::string> read_text_file(const std::string& path, Diagnostics& diags);

}  // namespace hermes::scenario
