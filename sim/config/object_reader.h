// Reading one JSON object of a configuration file (a scenario section, a profile of the catalog)
// field by field, with every problem reported (not thrown) at its JSON pointer in one wording:
// "<pointer>: <problem> (accepted: <values>)". Each accessor declares its key as accepted;
// finish() then reports every other key as unknown, listing the accepted ones. Resolved values
// (defaults included) are copied to an output object in schema order (for a scenario, this becomes
// Scenario::document).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/diagnostics.h"
#include "base/file_read.h"
// format_number: the reader prints numbers in it, and so do the messages its users add.
#include "base/number_text.h"
#include "base/string_join.h"
#include "sim/config/json_read.h"

namespace hermes::config {

using Json = nlohmann::ordered_json;

struct ObjectDecl;  // key_table.h

// Numeric bounds, each side optional and inclusive or exclusive.
struct Range {
  std::optional<double> lo;
  bool lo_inclusive = true;
  std::optional<double> hi;
  bool hi_inclusive = true;

  static Range any() { return {}; }
  static Range at_least(double v) { return {v, true, std::nullopt, true}; }
  static Range above(double v) { return {v, false, std::nullopt, true}; }
  static Range below(double v) { return {std::nullopt, true, v, false}; }
  Range& up_to(double v) {
    hi = v;
    hi_inclusive = true;
    return *this;
  }
  Range& under(double v) {
    hi = v;
    hi_inclusive = false;
    return *this;
  }

  bool contains(double v) const;
  // e.g. "beta in [0, 1)", "alpha < 0", "chunk_size >= 1".
  std::string describe(std::string_view key) const;
};

// A short rendering of a JSON value for messages: its type and (truncated) text.
std::string describe_value(const Json& value);

// An empty object, for reading an absent optional section with all its defaults.
const Json& empty_object();

class ObjectReader {
 public:
  // `value` is the object found at JSON pointer `path`. If value is not an object the reader
  // reports that once and every accessor returns nullopt (or its default) without further messages.
  // `value` and `out` must outlive the reader.
  ObjectReader(const Json& value, std::string path, Diagnostics& diags, Json& out);
  // The same for an object whose keys `decl` declares (key_table.h; it must outlive the reader):
  // reading a key it does not declare, or with another type, range, choices or default, throws
  // std::logic_error (a programming error, never the user's).
  ObjectReader(const Json& value, std::string path, Diagnostics& diags, Json& out,
               const ObjectDecl& decl);
  // Declares the keys after construction (an object whose keys depend on one of its values: an
  // event's "kind").
  void declare(const ObjectDecl& decl) { decl_ = &decl; }

  bool is_object() const { return object_ != nullptr; }
  const std::string& path() const { return path_; }
  std::string path_of(std::string_view key) const;
  Diagnostics& diags() { return diags_; }
  Json& out() { return out_; }

  // Declares `key` accepted and returns its value, nullptr if absent. The caller validates it.
  const Json* accept(std::string_view key);
  bool has(std::string_view key) const;

  // Accessors. When the key is absent: the default (copied to out) if one is given, else a
  // "missing required key" error and nullopt. When present but invalid: an error and nullopt.
  std::optional<std::string> string(std::string_view key, std::optional<std::string> fallback);
  std::optional<std::string> choice(std::string_view key, const std::vector<std::string>& accepted,
                                    std::optional<std::string> fallback);
  std::optional<std::int64_t> integer(std::string_view key, std::optional<std::int64_t> fallback,
                                      Range range);
  // integer() limited to int's range as well.
  std::optional<int> int32(std::string_view key, std::optional<int> fallback, Range range);
  std::optional<double> number(std::string_view key, std::optional<double> fallback, Range range);
  std::optional<bool> boolean(std::string_view key, std::optional<bool> fallback);

  // Reports "<key>: <message>" at the key's pointer.
  void error(std::string_view key, std::string message);
  void missing(std::string_view key);
  void wrong_type(std::string_view key, std::string_view expected, const Json& got);

  // Reports every key that no accessor declared. Call once, after all reads.
  void finish();

  // Tests: records "<decl path>.<key>" into `sink` (null: stops) for every declared key a reader
  // with a declaration accepts, present or not. Not thread-safe.
  static void record_declared_reads(std::set<std::string>* sink);

 private:
  // Throws std::logic_error unless the declaration (if any) declares `key` with this type, and
  // (when given) this range, these choices and this default text.
  void check_declared(std::string_view key, int type, const std::optional<std::string>& fallback,
                      const Range* range, const std::vector<std::string>* choices) const;
  const ObjectDecl* decl_ = nullptr;
  const Json* object_ = nullptr;
  std::string path_;
  Diagnostics& diags_;
  Json& out_;
  std::vector<std::string> accepted_;
};

// Helpers shared by the data files read with ObjectReader (the profile catalog, the price list).

// Reads the object `value` at `path` with `read(ObjectReader&)`, which returns what it built, then
// reports the object's unknown keys. The result only if nothing was reported meanwhile (a
// non-object included): an entry with an error is left out, not used half-read.
template <typename Read>
auto read_object(const Json& value, const std::string& path, Diagnostics& diags, Read read)
    -> std::optional<decltype(read(std::declval<ObjectReader&>()))> {
  const std::size_t errors_before = diags.count();
  Json resolved;
  ObjectReader r(value, path, diags, resolved);
  if (!r.is_object()) return std::nullopt;
  auto built = read(r);
  r.finish();
  if (diags.count() != errors_before) return std::nullopt;
  return built;
}

// A required string that must not be empty (names, descriptions): nullopt, reported, otherwise.
std::optional<std::string> non_empty_string(ObjectReader& r, std::string_view key);

// Loads a data file: a regular file of at most `max_bytes` (`what` names its kind in messages),
// parsed with a depth limit (json_read.h), then read by `parse(document, diags)`. A hostile file is
// an error naming it, never a hang, a crash or a huge allocation. Throws InputError naming the file
// and every problem. With `text`, stores there the bytes that were parsed.
template <typename Parse>
auto load_data_file(const std::string& path, std::uint64_t max_bytes, std::string_view what,
                    Parse parse, std::string* text = nullptr) {
  std::string bytes = read_regular_file(path, max_bytes, what);
  Diagnostics diags(path);
  const auto doc = parse_json_checked(bytes, diags);
  diags.throw_if_errors();
  auto loaded = parse(*doc, diags);
  diags.throw_if_errors();
  if (text != nullptr) *text = std::move(bytes);
  return loaded;
}

// An array of strings (about and notes lists) at `path`, appended to `out`; every element that is
// not a string is reported.
void read_string_list(const Json& value, const std::string& path, std::vector<std::string>& out,
                      Diagnostics& diags);

}  // namespace hermes::config
