// Parsing JSON that a person (or an attacker) wrote, with diagnostics a person can act on and
// without crashing or exhausting memory on hostile input:
//  - malformed JSON is reported with its line and column;
//  - nesting deeper than a limit is refused WHILE parsing, before a deep value is ever built:
//    nlohmann's parser is iterative, but dump(), copies and destruction of a json recurse, so a
//    20 KB file of '[' would otherwise overflow the stack;
//  - memory stays linear in the input: the parser's position is kept as one key or index per
//    level, and a JSON pointer is only built for a message;
//  - numbers beyond a double's range (1e400) are reported at their JSON pointer;
//  - duplicate object keys, which nlohmann silently collapses to the last one, are reported with
//    the pointer of the object holding them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/diagnostics.h"

namespace hermes {

// Deepest nesting of arrays and objects accepted in input files. A scenario needs 5 levels, a
// sweep manifest (which embeds a scenario) 7.
inline constexpr int kMaxJsonDepth = 64;

struct TextPosition {
  std::size_t line = 1;    // 1-based
  std::size_t column = 1;  // 1-based, in characters (UTF-8 continuation bytes do not count)
};

// Position of the byte at 0-based `offset` in `text` (offset == text.size() is the end of input).
TextPosition position_of(std::string_view text, std::size_t offset);

// Parses `text`; on any of the problems above reports into diags (at the document's root for
// malformed JSON, at the JSON pointer otherwise) and returns nullopt.
std::optional<nlohmann::ordered_json> parse_json_checked(std::string_view text, Diagnostics& diags,
                                                         int max_depth = kMaxJsonDepth);

// Whether `text` is valid UTF-8 (no overlong forms, surrogates or code points above U+10FFFF);
// if not and `bad_offset` is given, the offset of the first offending byte.
bool is_valid_utf8(std::string_view text, std::size_t* bad_offset = nullptr);

// `text` with every byte that is not part of valid UTF-8 written as \xNN, for messages.
std::string escape_invalid_utf8(std::string_view text);

// A text equal for two numbers, strings or booleans when they are equal as JSON values (1 and 1.0
// alike, as nlohmann compares them up to 2^53), to find a repeat in a list of 10,000 values
// without comparing every pair.
std::string scalar_identity(const nlohmann::ordered_json& value);

}  // namespace hermes
