#include "sim/config/json_read.h"

#include <cstdio>
#include <set>
#include <vector>

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

  bool on_event(nlohmann::ordered_json::parse_event_t event, const Json& parsed) {
    using Event = Json::parse_event_t;
    switch (event) {
      case Event::object_start:
      case Event::array_start:
        if (frames_.size() >= static_cast<std::size_t>(max_depth_)) throw TooDeep{};
        frames_.push_back({event == Event::array_start, 0, {}, {}});
        break;
      case Event::object_end:
      case Event::array_end:
        if (!frames_.empty()) frames_.pop_back();
        element_done();
        break;
      case Event::key: {
        if (frames_.empty() || !parsed.is_string()) break;
        Frame& f = frames_.back();
        f.key = parsed.get<std::string>();
        if (!f.keys.insert(f.key).second) {
          diags_.error(
              pointer(frames_.size() - 1),
              "duplicate key '" + f.key + "' (JSON keeps only the last one; remove one of them)");
        }
        break;
      }
      case Event::value:
        element_done();
        break;
    }
    return true;
  }

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

}  // namespace

std::optional<nlohmann::ordered_json> parse_json_checked(std::string_view text, Diagnostics& diags,
                                                         int max_depth) {
  Tracker tracker(diags, max_depth);
  const std::size_t errors_before = diags.count();
  try {
    auto doc = Json::parse(text.begin(), text.end(),
                           [&tracker](int /*depth*/, Json::parse_event_t event, Json& parsed) {
                             return tracker.on_event(event, parsed);
                           });
    if (diags.count() != errors_before) return std::nullopt;
    return doc;
  } catch (const TooDeep&) {
    diags.error(tracker.current_pointer(), "nested too deep: more than " +
                                               std::to_string(max_depth) +
                                               " levels of arrays and objects (accepted: at most " +
                                               std::to_string(max_depth) + ")");
  } catch (const Json::parse_error& e) {
    // e.byte is the 1-based index of the last character read, i.e. the offending one.
    const std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    const TextPosition pos = position_of(text, offset);
    diags.error("", "malformed JSON at line " + std::to_string(pos.line) + ", column " +
                        std::to_string(pos.column) + ": " + parse_error_reason(e.what()));
  } catch (const Json::out_of_range& e) {
    // 406: a number beyond a double's range ("number overflow parsing '1e400'").
    diags.error(tracker.current_pointer(),
                "number out of range: " + parse_error_reason(e.what()) +
                    " (accepted: numbers of magnitude below 1.8e308, the range of a double)");
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

}  // namespace hermes
