#include "sim/scenario/json_text.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include "sim/common/json_pointer.h"

namespace hermes::scenario {

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

// Strips nlohmann's "[json.exception.parse_error.101] parse error at line L, column C: " prefix:
// we print our own position, computed from the byte offset.
std::string parse_error_reason(const std::string& what) {
  const std::string marker = ": ";
  const auto bracket = what.find("] ");
  if (bracket == std::string::npos) return what;
  const auto colon = what.find(marker, bracket);
  if (colon == std::string::npos) return what.substr(bracket + 2);
  return what.substr(colon + marker.size());
}

// Tracks where the parser is (as a JSON pointer) so that duplicate keys can be reported.
class DuplicateKeyFinder {
 public:
  explicit DuplicateKeyFinder(Diagnostics& diags) : diags_(diags) {}

  bool on_event(nlohmann::ordered_json::parse_event_t event, const nlohmann::ordered_json& parsed) {
    using Event = nlohmann::ordered_json::parse_event_t;
    switch (event) {
      case Event::object_start:
      case Event::array_start:
        frames_.push_back({event == Event::array_start, 0, {}, {}, child_path()});
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
          diags_.error(f.path, "duplicate key '" + f.key +
                                   "' (JSON keeps only the last one; remove one of them)");
        }
        break;
      }
      case Event::value:
        element_done();
        break;
    }
    return true;
  }

 private:
  struct Frame {
    bool is_array;
    std::size_t index;
    std::string key;
    std::set<std::string> keys;
    std::string path;
  };

  std::string child_path() const {
    if (frames_.empty()) return "";
    const Frame& f = frames_.back();
    return f.is_array ? pointer_append(f.path, f.index) : pointer_append(f.path, f.key);
  }
  void element_done() {
    if (!frames_.empty() && frames_.back().is_array) ++frames_.back().index;
  }

  Diagnostics& diags_;
  std::vector<Frame> frames_;
};

}  // namespace

std::optional<nlohmann::ordered_json> parse_json_text(std::string_view text, Diagnostics& diags) {
  DuplicateKeyFinder finder(diags);
  const std::size_t errors_before = diags.count();
  try {
    auto doc = nlohmann::ordered_json::parse(
        text.begin(), text.end(),
        [&finder](int /*depth*/, nlohmann::ordered_json::parse_event_t event,
                  nlohmann::ordered_json& parsed) { return finder.on_event(event, parsed); });
    if (diags.count() != errors_before) return std::nullopt;
    return doc;
  } catch (const nlohmann::ordered_json::parse_error& e) {
    // e.byte is the 1-based index of the last character read, i.e. the offending one.
    const std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    const TextPosition pos = position_of(text, offset);
    diags.error("", "malformed JSON at line " + std::to_string(pos.line) + ", column " +
                        std::to_string(pos.column) + ": " + parse_error_reason(e.what()));
    return std::nullopt;
  }
}

std::optional<std::string> read_text_file(const std::string& path, Diagnostics& diags) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    diags.error("", "'" + path + "' is a directory, not a scenario file");
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diags.error("", "cannot open file '" + path + "'");
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    diags.error("", "cannot read file '" + path + "'");
    return std::nullopt;
  }
  return text.str();
}

}  // namespace hermes::scenario
