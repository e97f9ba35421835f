#include "sim/metrics/csv_writer.h"

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace hermes::metrics {

namespace {

// -0.000 and 0.000 must print the same, or equal results would differ by a sign byte.
std::string normalise_zero(std::string s) {
  if (s == "-0" || s.find_first_not_of("-0.") == std::string::npos) {
    if (!s.empty() && s[0] == '-') s.erase(0, 1);
  }
  return s;
}

}  // namespace

std::string format_fixed(double value, int decimals) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (decimals < 0) throw std::logic_error("format_fixed: negative decimals");
  // Every finite double fits: at most 309 integer digits, a sign, a point and the decimals. The
  // common short case uses the stack; a long one (-1e60 with 9 decimals) a buffer of its size, so
  // no value can fail to print after a run.
  char small[64];
  auto res = std::to_chars(small, small + sizeof small, value, std::chars_format::fixed, decimals);
  if (res.ec == std::errc()) return normalise_zero(std::string(small, res.ptr));
  std::string big(static_cast<std::size_t>(decimals) + 320, '\0');
  res =
      std::to_chars(big.data(), big.data() + big.size(), value, std::chars_format::fixed, decimals);
  if (res.ec != std::errc()) throw std::logic_error("format_fixed: no room for a double");
  big.resize(static_cast<std::size_t>(res.ptr - big.data()));
  return normalise_zero(std::move(big));
}

CsvWriter::CsvWriter(std::ostream& out, const std::vector<std::string>& columns)
    : out_(out), columns_(columns.size()) {
  for (const auto& c : columns) field(c);
  end_row();
  rows_ = 0;  // the header is not a row of data
}

void CsvWriter::separator() {
  if (in_row_ >= columns_) throw std::logic_error("CSV row has more fields than columns");
  if (in_row_++ > 0) out_ << ',';
}

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (char ch : text) {
    if (ch == '"') quoted += '"';
    quoted += ch;
  }
  return quoted + '"';
}

CsvWriter& CsvWriter::field(std::string_view text) {
  separator();
  out_ << csv_field(text);
  return *this;
}

CsvWriter& CsvWriter::field(std::int64_t value) {
  separator();
  out_ << value;
  return *this;
}

CsvWriter& CsvWriter::field(std::uint64_t value) {
  separator();
  out_ << value;
  return *this;
}

CsvWriter& CsvWriter::field(double value, int decimals) {
  separator();
  out_ << format_fixed(value, decimals);
  return *this;
}

CsvWriter& CsvWriter::empty() {
  separator();
  return *this;
}

void CsvWriter::end_row() {
  if (in_row_ != columns_) {
    throw std::logic_error("CSV row has " + std::to_string(in_row_) + " fields, expected " +
                           std::to_string(columns_));
  }
  out_ << '\n';
  in_row_ = 0;
  ++rows_;
}

}  // namespace hermes::metrics
