#include "sim/scenario/set_overrides.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <optional>

#include "base/suggest.h"
#include "sim/config/json_pointer.h"
#include "sim/config/json_read.h"
#include "sim/config/object_reader.h"
#include "sim/scenario/run_names.h"

namespace hermes::scenario {

namespace {

std::vector<std::string> split_path(const std::string& key) {
  std::vector<std::string> segments;
  std::size_t start = 0;
  while (true) {
    const auto dot = key.find('.', start);
    segments.push_back(
        key.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return segments;
    start = dot + 1;
  }
}

std::string join_segments(const std::vector<std::string>& segs, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to; ++i) {
    if (i > from) out += '.';
    out += segs[i];
  }
  return out;
}

// "; did you mean 'hermes-1.3'?" for segments from `k` that are a typo of an element's name:
// the longest dotted prefix that is near a name (names hold dots: "hermes-1.3").
std::string suggest_element(const std::vector<std::string>& segs, std::size_t k,
                            const std::vector<std::string>& names) {
  for (std::size_t to = segs.size(); to > k; --to) {
    const std::string text = did_you_mean(join_segments(segs, k, to), names);
    if (!text.empty()) return text;
  }
  return "";
}

// The name an array element answers to: its "name", or for an unnamed run its default name.
std::optional<std::string> element_name(const Json& element, const std::string& array_path) {
  if (!element.is_object()) return std::nullopt;
  const auto it = element.find("name");
  if (it != element.end()) {
    if (it->is_string()) return it->get<std::string>();
    return std::nullopt;
  }
  if (array_path == "/runs") return default_run_name(element);
  return std::nullopt;
}

std::optional<std::size_t> parse_index(const std::string& seg) {
  if (seg.empty()) return std::nullopt;
  std::size_t index = 0;
  const auto res = std::from_chars(seg.data(), seg.data() + seg.size(), index);
  if (res.ec != std::errc() || res.ptr != seg.data() + seg.size()) return std::nullopt;
  return index;
}

}  // namespace

Json parse_override_value(const std::string& text) {
  // The checked parser (json_read.h): a value nested too deep or holding 1e400 is not JSON here,
  // so it becomes a string, which validation then reports as the wrong type.
  Diagnostics ignored;
  auto value = parse_json_checked(text, ignored);
  if (!value) return Json(text);
  return std::move(*value);
}

bool apply_set_override(Json& doc, const std::string& arg, Diagnostics& diags) {
  return apply_set_override(doc, arg, diags, {});
}

std::vector<std::string> run_names_of(const Json& doc) {
  std::vector<std::string> names;
  const auto runs = doc.is_object() ? doc.find("runs") : doc.end();
  if (!doc.is_object() || runs == doc.end() || !runs->is_array()) return names;
  for (const auto& run : *runs) names.push_back(element_name(run, "/runs").value_or(""));
  return names;
}

bool apply_set_override(Json& doc, const std::string& arg, Diagnostics& diags,
                        const std::vector<std::string>& run_names) {
  const auto fail = [&](const std::string& path, const std::string& why) {
    diags.error(path, "--set '" + arg + "': " + why);
    return false;
  };
  // Everything a scenario holds must be writable as JSON (scenario.json), which is UTF-8: a
  // non-UTF-8 byte would otherwise only fail when the run's outputs are written.
  if (std::size_t bad = 0; !is_valid_utf8(arg, &bad)) {
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(arg[bad]));
    diags.error("", "--set '" + escape_invalid_utf8(arg) + "': not valid UTF-8 (byte " +
                        std::string(byte) + " at offset " + std::to_string(bad) +
                        "; accepted: UTF-8 text)");
    return false;
  }
  const auto eq = arg.find('=');
  if (eq == std::string::npos) return fail("", "expected key.path=value");
  const std::string key = arg.substr(0, eq);
  if (key.empty()) return fail("", "empty key path before '='");
  const std::vector<std::string> segs = split_path(key);
  if (segs.size() > static_cast<std::size_t>(kMaxJsonDepth)) {
    return fail("", "the key path has " + std::to_string(segs.size()) +
                        " segments (accepted: at most " + std::to_string(kMaxJsonDepth) + ")");
  }
  const Json value = parse_override_value(arg.substr(eq + 1));
  const std::size_t n = segs.size();

  Json* node = &doc;
  std::string path;
  std::size_t k = 0;
  while (true) {
    if (node->is_object()) {
      const std::string& seg = segs[k];
      if (seg.empty()) return fail(path, "empty key in the path (two dots, or a leading dot)");
      const auto it = node->find(seg);
      if (k + 1 == n) {
        (*node)[seg] = value;
        return true;
      }
      if (it == node->end()) {
        // Create the missing objects in one go; validation judges whether the schema has them.
        Json nested = value;
        for (std::size_t j = n - 1; j > k; --j) {
          if (segs[j].empty()) return fail(path, "empty key in the path (two dots)");
          Json wrapper = Json::object();
          wrapper[segs[j]] = std::move(nested);
          nested = std::move(wrapper);
        }
        (*node)[seg] = std::move(nested);
        return true;
      }
      path = pointer_append(path, seg);
      node = &*it;
      ++k;
      continue;
    }
    if (node->is_array()) {
      // Longest run of segments first: names may contain dots.
      std::optional<std::size_t> found;
      std::size_t used = 0;
      // A run answers first to the name it had before any override (`run_names`): setting
      // runs.hermes-1.3.alpha renames an unnamed run, and runs.hermes-1.3.beta must still find it.
      const bool runs = path == "/runs";
      for (std::size_t len = n - k; len >= 1 && !found; --len) {
        const std::string candidate = join_segments(segs, k, k + len);
        for (std::size_t i = 0; runs && i < std::min(run_names.size(), node->size()); ++i) {
          if (run_names[i] == candidate) {
            found = i;
            used = len;
            break;
          }
        }
        for (std::size_t i = 0; i < node->size() && !found; ++i) {
          if (element_name((*node)[i], path) == candidate) {
            found = i;
            used = len;
          }
        }
      }
      if (!found) {
        if (const auto index = parse_index(segs[k])) {
          if (*index >= node->size()) {
            return fail(path, "index " + segs[k] + " out of range (" + path + " has " +
                                  std::to_string(node->size()) + " elements)");
          }
          found = index;
          used = 1;
        } else if (segs[k] == "-" && k + 1 == n) {
          node->push_back(value);
          return true;
        }
      }
      if (!found) {
        std::vector<std::string> names;
        for (const auto& element : *node) {
          if (const auto name = element_name(element, path)) names.push_back(*name);
        }
        const std::string where = path.empty() ? "/" : path;
        const std::string range = node->empty() ? std::string("the array is empty")
                                                : "0.." + std::to_string(node->size() - 1);
        return fail(path, "nothing in " + where + " matches '" + join_segments(segs, k, n) +
                              "': no element is named that or a dotted prefix of it, and '" +
                              segs[k] + "' is not an index (" + range +
                              ") or '-' (append, as the last segment)" +
                              (names.empty() ? std::string() : "; names: " + join_strings(names)) +
                              suggest_element(segs, k, names));
      }
      path = pointer_append(path, *found);
      k += used;
      if (k == n) {
        (*node)[*found] = value;
        return true;
      }
      node = &(*node)[*found];
      continue;
    }
    return fail(path, (path.empty() ? std::string("the document") : path) + " is " +
                          config::describe_value(*node) +
                          ", not an object or array: cannot apply '" + join_segments(segs, k, n) +
                          "' to it");
  }
}

void apply_set_overrides(Json& doc, const std::vector<std::string>& args, Diagnostics& diags) {
  const std::vector<std::string> names = run_names_of(doc);
  for (const auto& arg : args) apply_set_override(doc, arg, diags, names);
}

}  // namespace hermes::scenario
