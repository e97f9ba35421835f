// The .npy header parser: a Python dict literal read by a small recursive-descent parser.
#include "models/data/npy.h"

#include <cstring>
#include <string_view>
#include <utility>

#include "base/diagnostics.h"
#include "base/number_text.h"

namespace hermes::data {

std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string out = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    out += (i > 0 ? ", " : "") + std::to_string(shape[i]);
  }
  return out + (shape.size() == 1 ? ",)" : ")");
}

std::uint64_t read_le(const std::uint8_t* p, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = n; i-- > 0;) v = v << 8 | p[i];
  return v;
}

namespace {

struct NpyHeader {
  std::string descr;  // "<f4", "|u1"
  bool fortran_order = false;
  std::vector<std::uint64_t> shape;
};

// The header is a Python dict literal, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,
// 3), }": read with a small recursive-descent parser (strings, True/False, tuples of integers).
class HeaderParser {
 public:
  HeaderParser(std::string_view text, std::string where) : s_(text), where_(std::move(where)) {}

  NpyHeader parse() {
    NpyHeader h;
    bool seen[3] = {false, false, false};
    expect('{');
    while (!peek('}')) {
      const std::string key = quoted();
      expect(':');
      if (key == "descr") {
        if (peek('[')) {
          throw InputError(where_ + ": a structured dtype (a list of fields); accepted: plain " +
                           "numeric arrays");
        }
        h.descr = quoted();
        seen[0] = true;
      } else if (key == "fortran_order") {
        h.fortran_order = boolean();
        seen[1] = true;
      } else if (key == "shape") {
        h.shape = tuple();
        seen[2] = true;
      } else {
        fail("unexpected key '" + key + "'");
      }
      if (!peek(',')) break;
      ++i_;
    }
    expect('}');
    skip();
    if (i_ != s_.size()) fail("text after the dict");
    if (!seen[0] || !seen[1] || !seen[2]) fail("missing 'descr', 'fortran_order' or 'shape'");
    return h;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    std::string text(s_.substr(0, 200));
    for (char& c : text) c = (c == '\n' || c == '\r') ? ' ' : c;
    throw InputError(where_ + ": corrupt .npy header (" + what + " at character " +
                     std::to_string(i_) + "): " + text +
                     "; expected {'descr': ..., 'fortran_order': ..., 'shape': (...)}");
  }
  void skip() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
      ++i_;
  }
  bool peek(char c) {
    skip();
    return i_ < s_.size() && s_[i_] == c;
  }
  void expect(char c) {
    if (!peek(c)) fail(std::string("expected '") + c + "'");
    ++i_;
  }
  // '...' or "...": the keys and descrs NumPy writes need no escapes.
  std::string quoted() {
    skip();
    if (i_ >= s_.size() || (s_[i_] != '\'' && s_[i_] != '"')) fail("expected a string");
    const char q = s_[i_++];
    const std::size_t end = s_.find(q, i_);
    if (end == std::string_view::npos) fail("unterminated string");
    std::string out(s_.substr(i_, end - i_));
    i_ = end + 1;
    return out;
  }
  bool boolean() {
    skip();
    for (const auto& [word, value] : {std::pair{"True", true}, std::pair{"False", false}}) {
      if (s_.substr(i_, std::strlen(word)) == word) {
        i_ += std::strlen(word);
        return value;
      }
    }
    fail("expected True or False");
  }
  // Digits, with Python 2's long suffix L accepted (old NumPy wrote "(3L, 4L)").
  std::uint64_t integer() {
    skip();
    std::uint64_t v = 0;
    const std::size_t start = i_;
    for (; i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9'; ++i_) {
      const auto digit = static_cast<std::uint64_t>(s_[i_] - '0');
      if (v > (UINT64_MAX - digit) / 10) fail("dimension too large");
      v = v * 10 + digit;
    }
    if (i_ == start) fail("expected a non-negative integer");
    if (i_ < s_.size() && s_[i_] == 'L') ++i_;
    return v;
  }
  std::vector<std::uint64_t> tuple() {
    std::vector<std::uint64_t> out;
    expect('(');
    while (!peek(')')) {
      out.push_back(integer());
      if (!peek(',')) break;
      ++i_;
    }
    expect(')');
    return out;
  }

  std::string_view s_;
  std::string where_;
  std::size_t i_ = 0;
};

// NumPy's kind letters beyond the accepted ones, for messages: " (bool)".
std::string kind_text(char kind) {
  static constexpr std::pair<char, const char*> kNames[] = {
      {'b', "bool"}, {'c', "complex"},    {'O', "Python objects"}, {'S', "bytes"},
      {'U', "str"},  {'V', "structured"}, {'M', "datetime"},       {'m', "timedelta"}};
  for (const auto& [k, name] : kNames) {
    if (k == kind) return std::string(" (") + name + ")";
  }
  return "";
}

// The header and the exact data size of an .npy array; `accepted` says in messages which dtypes
// the caller takes, `ok` decides (kind, itemsize).
}  // namespace

Npy parse_npy(const std::vector<std::uint8_t>& b, const std::string& where,
              bool (*ok)(char kind, std::size_t itemsize), const std::string& accepted) {
  static constexpr std::uint8_t kMagic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
  if (b.size() < 10 || std::memcmp(b.data(), kMagic, 6) != 0) {
    throw InputError(where + ": not a .npy array (it does not start with \"\\x93NUMPY\"), as " +
                     "np.savez writes each array");
  }
  std::size_t prefix = 0;
  std::size_t header_len = 0;
  if (b[6] == 1 && b[7] == 0) {
    prefix = 10;
    header_len = static_cast<std::size_t>(read_le(b.data() + 8, 2));
  } else if ((b[6] == 2 || b[6] == 3) && b[7] == 0 && b.size() >= 12) {
    prefix = 12;
    header_len = static_cast<std::size_t>(read_le(b.data() + 8, 4));
  } else {
    throw InputError(where + ": .npy format version " + std::to_string(b[6]) + "." +
                     std::to_string(b[7]) + " is not accepted; accepted: 1.0, 2.0 and 3.0");
  }
  if (b.size() - prefix < header_len) {
    throw InputError(where + ": truncated .npy array: its header is " + std::to_string(header_len) +
                     " bytes, the entry holds " + std::to_string(b.size() - prefix) +
                     " after the magic string");
  }
  const std::string_view text(reinterpret_cast<const char*>(b.data()) + prefix, header_len);
  NpyHeader h = HeaderParser(text, where).parse();

  Npy a;
  a.descr = h.descr;
  a.shape = std::move(h.shape);
  a.data_offset = prefix + header_len;
  // descr: a byte-order character ('<', '>', '|'), a kind letter, the item size in bytes.
  const std::string& d = a.descr;
  if (d.size() >= 2 && (d[0] == '<' || d[0] == '>' || d[0] == '|')) {
    a.kind = d[1];  // object arrays are '|O', without a size
    const auto size = parse_unsigned(std::string_view(d).substr(2));
    a.itemsize = size && *size <= 16 ? static_cast<std::size_t>(*size) : 0;
  }
  if (a.itemsize > 1 && d[0] == '>' && ok(a.kind, a.itemsize)) {
    throw InputError(where + ": dtype '" + d + "' is big-endian; accepted: " + accepted +
                     ", little-endian (write x.astype(x.dtype.newbyteorder('<')))");
  }
  if (a.itemsize == 0 || !ok(a.kind, a.itemsize) || (a.itemsize > 1 && d[0] != '<')) {
    throw InputError(where + ": dtype '" + d + "'" + kind_text(a.kind) +
                     " is not accepted; accepted: " + accepted);
  }
  if (h.fortran_order) {
    throw InputError(where +
                     ": fortran_order is True (a Fortran-ordered array); accepted: C "
                     "order (save np.ascontiguousarray(x))");
  }
  // The data must be exactly shape's product times the item size: a short entry is truncated,
  // a longer one not what its header says.
  std::uint64_t need = a.itemsize;
  bool huge = false;
  std::uint64_t count = 1;
  for (const std::uint64_t dim : a.shape) {
    huge = huge || (dim != 0 && (count > UINT64_MAX / dim || need > UINT64_MAX / dim));
    if (!huge) {
      count *= dim;
      need *= dim;
    }
  }
  const std::uint64_t have = b.size() - a.data_offset;
  if (huge || need != have) {
    throw InputError(where + ": holds " + std::to_string(have) + " data bytes, its header's " +
                     "shape " + shape_text(a.shape) + " and dtype '" + d + "' need " +
                     (huge ? "more than 2^64" : std::to_string(need)) +
                     (need > have || huge ? " (truncated?)" : ""));
  }
  a.count = static_cast<std::size_t>(count);
  return a;
}

}  // namespace hermes::data
