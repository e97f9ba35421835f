#include "sim/config/json_read.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "base/number_text.h"
#include "sim/config/json_pointer.h"

namespace hermes {

TextPosition position_of(std::string_view text, std::size_t offset) {
  TextPosition pos;
  const std::size_t end = offset < text.size() ? offset : text.size();
  for (std::size_t i = 0; i < end; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++pos.line;
      pos.column = 1;
    } else if ((c & 0xC0U) != 0x80U) {  // count a multi-byte character once
      ++pos.column;
    }
  }
  return pos;
}

namespace {

using Json = nlohmann::ordered_json;

// Strips nlohmann's "[json.exception.parse_error.101] parse error at line L, column C: " prefix:
// we print our own position, computed from the byte offset. The rest quotes the bytes last read,
// which may be the invalid UTF-8 at fault: escaped, so that the message itself is valid text.
std::string parse_error_reason(const std::string& what) {
  const std::string marker = ": ";
  const auto bracket = what.find("] ");
  if (bracket == std::string::npos) return escape_invalid_utf8(what);
  const auto colon = what.find(marker, bracket);
  if (colon == std::string::npos) return escape_invalid_utf8(what.substr(bracket + 2));
  return escape_invalid_utf8(what.substr(colon + marker.size()));
}

// Thrown from the parser callback to stop at a value nested too deep.
struct TooDeep {};

// Follows the parser through the document: the open arrays and objects, the key or index being
// read in each, and the keys each object has had so far. One frame per level, holding only its
// own key, so memory is linear in the input whatever the depth.
class Tracker {
 public:
  Tracker(Diagnostics& diags, int max_depth) : diags_(diags), max_depth_(max_depth) {}

  void open(bool is_array) {
    if (frames_.size() >= static_cast<std::size_t>(max_depth_)) throw TooDeep{};
    frames_.push_back({is_array, 0, {}, {}});
  }
  void close() {
    if (!frames_.empty()) frames_.pop_back();
    element_done();
  }
  void key(const std::string& key) {
    if (frames_.empty()) return;
    Frame& f = frames_.back();
    f.key = key;
    if (!f.keys.insert(f.key).second) {
      diags_.error(
          pointer(frames_.size() - 1),
          "duplicate key '" + f.key + "' (JSON keeps only the last one; remove one of them)");
    }
  }
  void value() { element_done(); }

  // Pointer of the value being read now: the open containers and the current key or index.
  std::string current_pointer() const { return pointer(frames_.size()); }
  std::size_t depth() const { return frames_.size(); }

 private:
  struct Frame {
    bool is_array;
    std::size_t index;
    std::string key;
    std::set<std::string> keys;
  };

  // Pointer through the first `levels` frames (each contributing its current key or index).
  std::string pointer(std::size_t levels) const {
    std::string p;
    for (std::size_t i = 0; i < levels && i < frames_.size(); ++i) {
      p = frames_[i].is_array ? pointer_append(p, frames_[i].index)
                              : pointer_append(p, frames_[i].key);
    }
    return p;
  }
  void element_done() {
    if (!frames_.empty() && frames_.back().is_array) ++frames_.back().index;
  }

  Diagnostics& diags_;
  int max_depth_;
  std::vector<Frame> frames_;
};

// Builds the document from nlohmann's SAX events, as its own DOM parser would, but appends each
// key of an object instead of looking it up first: an ordered_json object is a vector, and its
// parser's lookup made reading an object of n keys take n^2 / 2 comparisons (100,000 profiles
// in a price list: minutes). The Tracker reports a repeated key, and then no document is
// returned, so appending never leaves one with two equal keys.
class DomBuilder {
 public:
  using number_integer_t = Json::number_integer_t;
  using number_unsigned_t = Json::number_unsigned_t;
  using number_float_t = Json::number_float_t;
  using string_t = Json::string_t;
  using binary_t = Json::binary_t;

  explicit DomBuilder(Tracker& tracker) : tracker_(tracker) {}

  bool null() { return scalar(Json(nullptr)); }
  bool boolean(bool v) { return scalar(Json(v)); }
  bool number_integer(number_integer_t v) { return scalar(Json(v)); }
  bool number_unsigned(number_unsigned_t v) { return scalar(Json(v)); }
  bool number_float(number_float_t v, const string_t& /*text*/) { return scalar(Json(v)); }
  bool string(string_t& v) { return scalar(Json(std::move(v))); }
  bool binary(binary_t& v) { return scalar(Json::binary(std::move(v))); }
  bool start_object(std::size_t /*size*/) {
    tracker_.open(false);
    open_.push_back(put(Json::object()));
    return true;
  }
  bool key(string_t& k) {
    tracker_.key(k);
    key_ = std::move(k);
    return true;
  }
  bool end_object() {
    open_.pop_back();
    tracker_.close();
    return true;
  }
  bool start_array(std::size_t /*size*/) {
    tracker_.open(true);
    open_.push_back(put(Json::array()));
    return true;
  }
  bool end_array() {
    open_.pop_back();
    tracker_.close();
    return true;
  }
  bool parse_error(std::size_t position, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& ex) {
    error_.emplace(Error{ex.id, position, ex.what()});
    return false;
  }

  struct Error {
    int id;             // nlohmann's: 101 malformed, 406 number overflow, ...
    std::size_t bytes;  // read up to and including the offending one
    std::string what;
  };
  const std::optional<Error>& error() const { return error_; }
  Json& root() { return root_; }

 private:
  bool scalar(Json v) {
    put(std::move(v));
    tracker_.value();
    return true;
  }
  // Places v as the next element of the innermost open container (or as the root); returns where
  // it now is. Only the innermost container grows while it is open, so the pointers to the open
  // ones (each the last element of its parent) stay valid.
  Json* put(Json v) {
    if (open_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Json& parent = *open_.back();
    if (parent.is_array()) {
      auto& elements = parent.get_ref<Json::array_t&>();
      elements.push_back(std::move(v));
      return &elements.back();
    }
    auto& members = static_cast<Json::object_t::Container&>(parent.get_ref<Json::object_t&>());
    members.emplace_back(std::move(key_), std::move(v));
    return &members.back().second;
  }

  Tracker& tracker_;
  Json root_;
  std::vector<Json*> open_;
  std::string key_;
  std::optional<Error> error_;
};

}  // namespace

std::optional<nlohmann::ordered_json> parse_json_checked(std::string_view text, Diagnostics& diags,
                                                         int max_depth) {
  Tracker tracker(diags, max_depth);
  DomBuilder builder(tracker);
  const std::size_t errors_before = diags.count();
  try {
    const bool ok = Json::sax_parse(text.begin(), text.end(), &builder, Json::input_format_t::json,
                                    /*strict=*/true);
    if (!ok && builder.error()) {
      const DomBuilder::Error& e = *builder.error();
      if (e.id == 406) {
        // A number beyond a double's range ("number overflow parsing '1e400'").
        diags.error(tracker.current_pointer(),
                    "number out of range: " + parse_error_reason(e.what) +
                        " (accepted: numbers of magnitude below 1.8e308, the range of a double)");
      } else if (e.id >= 100 && e.id < 200) {
        // e.bytes counts the characters read, the offending one last.
        const std::size_t offset = e.bytes > 0 ? e.bytes - 1 : 0;
        const TextPosition pos = position_of(text, offset);
        diags.error("", "malformed JSON at line " + std::to_string(pos.line) + ", column " +
                            std::to_string(pos.column) + ": " + parse_error_reason(e.what));
      } else {
        diags.error(tracker.current_pointer(), "invalid JSON: " + parse_error_reason(e.what));
      }
      return std::nullopt;
    }
    if (!ok || diags.count() != errors_before) return std::nullopt;
    return std::move(builder.root());
  } catch (const TooDeep&) {
    diags.error(tracker.current_pointer(), "nested too deep: more than " +
                                               std::to_string(max_depth) +
                                               " levels of arrays and objects (accepted: at most " +
                                               std::to_string(max_depth) + ")");
  } catch (const Json::exception& e) {
    diags.error(tracker.current_pointer(), "invalid JSON: " + parse_error_reason(e.what()));
  }
  return std::nullopt;
}

std::string escape_invalid_utf8(std::string_view text) {
  std::string out;
  std::size_t bad = 0;
  while (!is_valid_utf8(text, &bad)) {
    out.append(text.substr(0, bad));
    char hex[8];
    std::snprintf(hex, sizeof hex, "\\x%02X", static_cast<unsigned char>(text[bad]));
    out += hex;
    text.remove_prefix(bad + 1);
  }
  return out.append(text);
}

bool is_valid_utf8(std::string_view text, std::size_t* bad_offset) {
  std::size_t i = 0;
  const auto fail = [&]() {
    if (bad_offset != nullptr) *bad_offset = i;
    return false;
  };
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t len = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
      cp = c & 0x1FU;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      cp = c & 0x0FU;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      cp = c & 0x07U;
    } else {
      return fail();
    }
    if (i + len > text.size()) return fail();
    for (std::size_t k = 1; k < len; ++k) {
      const auto cc = static_cast<unsigned char>(text[i + k]);
      if ((cc & 0xC0U) != 0x80U) return fail();
      cp = (cp << 6) | (cc & 0x3FU);
    }
    const bool overlong = (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
    if (overlong || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return fail();
    i += len;
  }
  return true;
}

std::string scalar_identity(const nlohmann::ordered_json& value) {
  if (value.is_string()) return "s" + value.get<std::string>();
  // 0.0 and -0.0 compare equal.
  if (value.is_number_float()) return "n" + shortest(value.get<double>() + 0.0);
  if (value.is_number_integer()) {
    // Exact in a double up to 2^53: written as the double 1.0 is; beyond, as its digits.
    constexpr std::uint64_t kExact = std::uint64_t{1} << 53;
    const bool exact = value.is_number_unsigned()
                           ? value.get<std::uint64_t>() <= kExact
                           : value.get<std::int64_t>() >= -static_cast<std::int64_t>(kExact) &&
                                 value.get<std::int64_t>() <= static_cast<std::int64_t>(kExact);
    if (exact) return "n" + shortest(value.get<double>() + 0.0);
    return "i" + value.dump();
  }
  return "o" + value.dump();
}

}  // namespace hermes
