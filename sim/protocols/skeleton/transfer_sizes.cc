#include "sim/protocols/skeleton/transfer_sizes.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <system_error>

namespace hermes::protocols {

int python_float_repr_length(float value) {
  if (std::isnan(value)) return 3;                  // NaN
  if (std::isinf(value)) return value > 0 ? 8 : 9;  // Infinity, -Infinity
  const double v = value;
  const int sign = std::signbit(v) ? 1 : 0;
  if (v == 0) return sign + 3;  // 0.0
  // The shortest round-trip digits and the decimal exponent, from "d.ddde[+-]XX".
  char buf[64];
  const auto res =
      std::to_chars(buf, buf + sizeof buf, std::fabs(v), std::chars_format::scientific);
  const std::string_view text(buf, static_cast<std::size_t>(res.ptr - buf));
  const std::size_t e_pos = text.find('e');
  const std::string_view mantissa = text.substr(0, e_pos);
  const int digits = static_cast<int>(mantissa.size()) - (mantissa.size() > 1 ? 1 : 0);
  int exponent = 0;
  const std::string_view exp_text = text.substr(e_pos + 1);
  std::from_chars(exp_text.data() + (exp_text[0] == '+' ? 1 : 0), exp_text.data() + exp_text.size(),
                  exponent);
  if (exponent >= -4 && exponent < 16) {
    if (exponent >= 0) {
      // Integer part exponent + 1 digits; a whole number still gets ".0".
      return sign + (digits <= exponent + 1 ? exponent + 1 + 2 : digits + 1);
    }
    return sign + 2 + (-exponent - 1) + digits;  // "0." then zeros then the digits
  }
  const int exp_abs = std::abs(exponent);
  const int exp_digits = exp_abs >= 100 ? 3 : 2;
  return sign + digits + (digits > 1 ? 1 : 0) + 2 + exp_digits;  // "e+" or "e-"
}

double json_list_bytes(std::span<const float> values) {
  if (values.empty()) return 2;  // []
  double bytes = 2 + 2.0 * static_cast<double>(values.size() - 1);
  for (const float v : values) bytes += python_float_repr_length(v);
  return bytes;
}

double chunk_transfer_bytes(const scenario::TransferSpec& t, const IterationWork& work) {
  return t.chunk_encoding == scenario::ChunkEncoding::kPickleGzip
             ? work.chunk_bytes * t.chunk_gzip_ratio
             : work.chunk_bytes;
}

double update_transfer_bytes(const scenario::TransferSpec& t, std::span<const float> update) {
  return t.update_encoding == scenario::UpdateEncoding::kJson
             ? json_list_bytes(update)
             : 4.0 * static_cast<double>(update.size());
}

double model_transfer_bytes(const scenario::TransferSpec& t, const ModelCost& cost) {
  const double weights = model_bytes(cost);
  return t.model_encoding == scenario::ModelEncoding::kH5 ? weights + t.model_file_overhead_bytes
                                                          : weights;
}

}  // namespace hermes::protocols
