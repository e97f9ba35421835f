// Exact, locale-independent conversions between numbers and the text of CSV fields and run
// parameters (std::from_chars / std::to_chars), shared by the params canonicaliser and the CSV
// readers of `hermes-sim compare` so that both accept and print numbers alike.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hermes::metrics {

// `s` without leading and trailing blanks (spaces and tabs).
std::string_view trim(std::string_view s);

// The whole of `s` (blanks trimmed) as a decimal number. A leading '+' is accepted because people
// write "+5"; nan and inf parse, callers decide if they may.
std::optional<double> parse_number(std::string_view s);
std::optional<std::int64_t> parse_integer(std::string_view s);
std::optional<std::uint64_t> parse_unsigned(std::string_view s);

// Shortest text that reads back as exactly `v` ("125", "-1.6", "1e-05"); -0 is "0".
std::string shortest(double v);

}  // namespace hermes::metrics
