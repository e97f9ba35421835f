#include "base/number_text.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace hermes {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::optional<double> parse_number(std::string_view s) {
  s = trim(s);
  if (!s.empty() && s.front() == '+') {
    s.remove_prefix(1);
    if (!s.empty() && s.front() == '-') return std::nullopt;
  }
  if (s.empty()) return std::nullopt;
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

namespace {

// A whole number of type T: the same text rules as parse_number, without sign checks beyond
// what from_chars applies (an unsigned T rejects '-').
template <typename T>
std::optional<T> parse_whole(std::string_view s) {
  s = trim(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return std::nullopt;
  T v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// -0.000 and 0.000 print the same under NegativeZero::kAsZero.
std::string drop_negative_zero(std::string s) {
  if (s == "-0" || s.find_first_not_of("-0.") == std::string::npos) {
    if (!s.empty() && s[0] == '-') s.erase(0, 1);
  }
  return s;
}

}  // namespace

std::optional<std::int64_t> parse_integer(std::string_view s) {
  return parse_whole<std::int64_t>(s);
}

std::optional<std::uint64_t> parse_unsigned(std::string_view s) {
  return parse_whole<std::uint64_t>(s);
}

std::string shortest(double v) {
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, res.ptr);
  return s == "-0" ? "0" : s;
}

std::string format_number(double v) {
  if (std::isfinite(v) && v == std::trunc(v) && std::fabs(v) < 1e15) {
    return std::to_string(static_cast<long long>(v));
  }
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

std::string format_fixed(double value, int decimals, NegativeZero zero) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (decimals < 0) throw std::logic_error("format_fixed: negative decimals");
  const auto finish = [zero](std::string s) {
    return zero == NegativeZero::kAsZero ? drop_negative_zero(std::move(s)) : s;
  };
  // Every finite double fits: at most 309 integer digits, a sign, a point and the decimals. The
  // common short case uses the stack; a long one (-1e60 with 9 decimals) a buffer of its size, so
  // no value can fail to print after a run.
  char small[64];
  auto res = std::to_chars(small, small + sizeof small, value, std::chars_format::fixed, decimals);
  if (res.ec == std::errc()) return finish(std::string(small, res.ptr));
  std::string big(static_cast<std::size_t>(decimals) + 320, '\0');
  res =
      std::to_chars(big.data(), big.data() + big.size(), value, std::chars_format::fixed, decimals);
  if (res.ec != std::errc()) throw std::logic_error("format_fixed: no room for a double");
  big.resize(static_cast<std::size_t>(res.ptr - big.data()));
  return finish(std::move(big));
}

std::string format_min_decimals(double value, int min_decimals) {
  if (!std::isfinite(value)) return format_fixed(value, 0);
  char buf[400];  // the shortest fixed text of any double: at most 309 digits, or 0.<324 digits>
  const auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed);
  std::string s(buf, res.ptr);
  if (s == "-0") s = "0";
  if (min_decimals <= 0) return s;
  std::size_t dot = s.find('.');
  if (dot == std::string::npos) {
    s += '.';
    dot = s.size() - 1;
  }
  const std::size_t decimals = s.size() - dot - 1;
  if (decimals < static_cast<std::size_t>(min_decimals)) {
    s.append(static_cast<std::size_t>(min_decimals) - decimals, '0');
  }
  return s;
}

std::string format_significant(double value, int digits) {
  char buf[64];  // "%.*g" with digits <= 17: at most 24 characters
  std::snprintf(buf, sizeof buf, "%.*g", digits, value);
  return buf;
}

std::string byte_text(double bytes) {
  const char* unit = "bytes";
  double v = bytes;
  for (const char* u : {"kB", "MB", "GB", "TB", "PB"}) {
    if (v < 1000) break;
    v /= 1000;
    unit = u;
  }
  // printf's "%.0f" / "%.1f": a negative zero cannot occur (v >= 0), so kKeep changes nothing.
  return format_fixed(v, unit[0] != 'b' && v < 10 ? 1 : 0, NegativeZero::kKeep) + " " + unit;
}

}  // namespace hermes
