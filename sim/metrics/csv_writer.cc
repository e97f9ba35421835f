#include "sim/metrics/csv_writer.h"

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace hermes::metrics {

std::string format_fixed(double value, int decimals) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, decimals);
  if (res.ec != std::errc()) throw std::logic_error("number too long for CSV field");
  std::string s(buf, res.ptr);
  if (s == "-0" || s.find_first_not_of("-0.") == std::string::npos) {
    // -0.000 and 0.000 must print the same, or equal results would differ by a sign byte.
    if (!s.empty() && s[0] == '-') s.erase(0, 1);
  }
  return s;
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
