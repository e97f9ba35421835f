// Tidy CSV output: a header row, then one observation per row. Numbers are formatted with
// std::to_chars, which is exact and locale-independent, so outputs are byte-identical across
// machines and standard libraries for the same values.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::metrics {

class CsvWriter {
 public:
  CsvWriter(std::ostream& out, const std::vector<std::string>& columns);

  CsvWriter& field(std::string_view text);  // quoted only when it needs to be (RFC 4180)
  CsvWriter& field(std::int64_t value);
  CsvWriter& field(int value) { return field(static_cast<std::int64_t>(value)); }
  CsvWriter& field(std::uint64_t value);
  // Fixed notation with `decimals` digits after the point; NaN/inf are written as nan/inf.
  CsvWriter& field(double value, int decimals);
  CsvWriter& empty();  // a missing value
  // Ends the row; throws std::logic_error if the row has the wrong number of fields.
  void end_row();

  std::size_t rows() const { return rows_; }

 private:
  void separator();
  std::ostream& out_;
  std::size_t columns_;
  std::size_t in_row_ = 0;
  std::size_t rows_ = 0;
};

// `text` as one CSV field: as is, or quoted (RFC 4180) if it holds a comma, quote or line break.
std::string csv_field(std::string_view text);

}  // namespace hermes::metrics
