// The mutations both hostile corpora draw from (hostile_corpus_test.cc for the scenario reader,
// hostile_files_test.cc for the files and options added since): truncations, byte flips,
// deletions and duplications of a text; hostile JSON values at a document's keys; hostile CSV
// cells. Deterministic: every choice comes from the RandomStream passed in.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/random.h"

namespace hermes::fuzz {

using Json = nlohmann::ordered_json;
using Mutant = std::pair<std::string, std::string>;  // (label, text)

inline std::size_t pick(RandomStream& rng, std::size_t n) {
  return static_cast<std::size_t>(rng.uniform_int(n));
}

inline std::string nested(int depth, const std::string& open, const std::string& close,
                          const std::string& core = "1") {
  std::string s;
  for (int i = 0; i < depth; ++i) s += open;
  s += core;
  for (int i = 0; i < depth; ++i) s += close;
  return s;
}

// Cuts of `text` at k/(cuts+1) of its length, then `rounds` x (a byte flip, a deletion of up to
// 40 bytes, a duplication of up to 60 bytes elsewhere), each labelled after `name`.
inline std::vector<Mutant> byte_mutations(const std::string& name, const std::string& text,
                                          RandomStream& rng, std::size_t cuts, int rounds) {
  std::vector<Mutant> out;
  for (std::size_t k = 1; k <= cuts; ++k) {
    out.emplace_back(name + " cut at " + std::to_string(k) + "/" + std::to_string(cuts + 1),
                     text.substr(0, text.size() * k / (cuts + 1)));
  }
  const char hostile_bytes[] = {'\xFF', '\0', '"', '[', '{', '}', ']', ',', ':', '\\', '\xC3'};
  for (int i = 0; i < rounds; ++i) {
    std::string t = text;
    t[pick(rng, t.size())] = hostile_bytes[pick(rng, sizeof hostile_bytes)];
    out.emplace_back(name + " byte flip " + std::to_string(i), t);
    std::string d = text;
    const std::size_t at = pick(rng, d.size());
    d.erase(at, pick(rng, 40) + 1);
    out.emplace_back(name + " deletion " + std::to_string(i), d);
    std::string u = text;
    const std::size_t from = pick(rng, u.size());
    u.insert(pick(rng, u.size()), u.substr(from, pick(rng, 60) + 1));
    out.emplace_back(name + " duplication " + std::to_string(i), u);
  }
  return out;
}

// Values written as JSON text in place of a value: extremes, wrong types, deep nesting.
inline const std::vector<std::string>& hostile_values() {
  static const std::vector<std::string> values = {
      "1e400",
      "-1e400",
      "1e308",
      "-1e308",
      "1e-320",
      "-0",
      "0",
      "-1",
      "18446744073709551616",
      "9223372036854775808",
      "-9223372036854775809",
      "1.5",
      "\"\"",
      "\"x\"",
      "null",
      "true",
      "[]",
      "{}",
      nested(60, "[", "]"),
      nested(70, "[", "]"),
      nested(5000, "{\"a\":", "}"),
      "\"" + std::string(100000, 'a') + "\"",
      "\"\\u0000\"",
      "\"\\ud800\"",
      "\"/\"",
      "\".\"",
      "\"..\"",
      "1e15",
      "1e-300",
      "2147483648",
      "100000000",
  };
  return values;
}

// Every pointer to a value inside `v` (containers included), in document order.
inline void pointers(const Json& v, const std::string& at, std::vector<std::string>& out) {
  out.push_back(at);
  if (v.is_object()) {
    for (const auto& [k, child] : v.items()) pointers(child, at + "/" + k, out);
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i) pointers(v[i], at + "/" + std::to_string(i), out);
  }
}

// `doc` as text with the JSON text `value` at `pointer` (as text, so that the parser sees it too).
inline std::string with_value_at(Json doc, const std::string& pointer, const std::string& value) {
  doc[Json::json_pointer(pointer)] = "@@HOSTILE@@";
  std::string t = doc.dump(1);
  t.replace(t.find("\"@@HOSTILE@@\""), 13, value);
  return t;
}

// `count` texts of `doc`, each with a hostile value at one of the pointers `at` (picked at
// random), labelled "<name> <pointer>=<value>".
inline std::vector<Mutant> value_mutations_at(const std::string& name, const Json& doc,
                                              const std::vector<std::string>& at, RandomStream& rng,
                                              int count) {
  std::vector<Mutant> out;
  for (int i = 0; i < count; ++i) {
    const std::string& ptr = at[pick(rng, at.size())];
    const std::string& value = hostile_values()[pick(rng, hostile_values().size())];
    out.emplace_back(name + " " + ptr + "=" + value.substr(0, 30), with_value_at(doc, ptr, value));
  }
  return out;
}

// The same at any of `doc`'s keys (the document itself aside).
inline std::vector<Mutant> value_mutations(const std::string& name, const Json& doc,
                                           RandomStream& rng, int count) {
  std::vector<std::string> at;
  pointers(doc, "", at);
  at.erase(at.begin());
  return value_mutations_at(name, doc, at, rng, count);
}

// Cells a CSV reader must refuse or take: numbers out of range, wrong types, quotes, separators,
// bad UTF-8, huge fields.
inline const std::vector<std::string>& hostile_cells() {
  static const std::vector<std::string> cells = {
      "",
      "x",
      "nan",
      "-inf",
      "inf",
      "-1",
      "-0",
      "0",
      "1e400",
      "1e-320",
      "1e308",
      "18446744073709551616",
      "0x10",
      "1000000001",
      "w99",
      "w-1",
      "ps",
      " w2 ",
      "\xFF\xFE",
      "\"w2\"",
      "\"",
      "1,2",
      "a\tb",
      std::string(100000, '9'),
      std::string(5000, 'a'),
      "crash",
      "eviction",
      "\\",
  };
  return cells;
}

// `text` (a CSV whose '#' lines are comments) with a hostile cell in place of field `field` of
// line `line` among its non-comment lines (both taken modulo what the text has).
inline std::string with_cell(const std::string& text, std::size_t line, std::size_t field,
                             const std::string& cell) {
  std::vector<std::size_t> starts;
  for (std::size_t at = 0; at < text.size();) {
    if (text[at] != '#') starts.push_back(at);
    const std::size_t nl = text.find('\n', at);
    at = nl == std::string::npos ? text.size() : nl + 1;
  }
  if (starts.empty()) return text + cell;
  const std::size_t begin = starts[line % starts.size()];
  std::size_t end = text.find('\n', begin);
  if (end == std::string::npos) end = text.size();
  std::vector<std::pair<std::size_t, std::size_t>> fields;  // [from, to) of each field
  for (std::size_t from = begin;;) {
    const std::size_t comma = text.find(',', from);
    const std::size_t to = comma == std::string::npos || comma > end ? end : comma;
    fields.emplace_back(from, to);
    if (to == end) break;
    from = to + 1;
  }
  const auto [from, to] = fields[field % fields.size()];
  return text.substr(0, from) + cell + text.substr(to);
}

}  // namespace hermes::fuzz
