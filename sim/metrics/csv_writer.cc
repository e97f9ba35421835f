#include "sim/metrics/csv_writer.h"

#include <stdexcept>

#include "base/number_text.h"

namespace hermes::metrics {

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
