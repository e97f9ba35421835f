// The one home of number <-> text conversions: parsing CSV fields and run parameters, and every
// way the tool prints a number (CSV fields, tables, messages, run names, byte counts). Exact and
// locale-independent (std::from_chars / std::to_chars, or printf where its rounding is the
// format), so outputs are byte-identical across machines. The formats differ on purpose; each
// says which outputs use it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hermes {

// `s` without leading and trailing blanks (spaces and tabs).
std::string_view trim(std::string_view s);

// The whole of `s` (blanks trimmed) as a decimal number. A leading '+' is accepted because people
// write "+5"; nan and inf parse, callers decide if they may.
std::optional<double> parse_number(std::string_view s);
std::optional<std::int64_t> parse_integer(std::string_view s);
std::optional<std::uint64_t> parse_unsigned(std::string_view s);

// Shortest text that reads back as exactly `v` ("125", "-1.6", "1e-05", "1e+06"); -0 is "0".
// Run parameters and trace arguments.
std::string shortest(double v);

// Like shortest(), except that a whole number below 1e15 is written with all its digits
// ("1000000", not "1e+06"), as a person writes it: values in messages and run names.
std::string format_number(double v);

// What format_fixed does with a negative value that rounds to zero ("-0.000").
enum class NegativeZero {
  kAsZero,  // "0.000": equal results never differ by a sign byte (CSV fields)
  kKeep,    // "-0.000", as printf's "%.3f" prints it (tables, sweep axis values)
};

// Fixed notation with `decimals` (>= 0) digits after the point; NaN and infinities are "nan",
// "inf" and "-inf". Any finite double prints, however large.
std::string format_fixed(double value, int decimals, NegativeZero zero = NegativeZero::kAsZero);

// Fixed notation with as many decimals as reading back exactly needs, but at least `min_decimals`
// (0.25 with 1 -> "0.25", 3 with 1 -> "3.0"); -0 is "0".
std::string format_min_decimals(double value, int min_decimals);

// `digits` significant digits in printf's "%.*g" ("3.88e+301", "0.53", "750"): estimates, and
// published values shown as written (6 digits, the default of "%g" and of an iostream).
std::string format_significant(double value, int digits = 6);

// "16 MB", "1.5 GB", "12 bytes": a byte count for messages, in decimal units.
std::string byte_text(double bytes);

}  // namespace hermes
