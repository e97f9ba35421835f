// Azure size names as lookups compare them: Azure treats them case-insensitively, and the catalogs
// of this folder (profiles, prices) accept a size by its short or its Azure name.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace hermes::cluster {

inline char ascii_lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// ASCII case-insensitive equality ("b1ms" == "B1ms"); size names are ASCII.
inline bool equals_ignore_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  }
  return true;
}

// The names of a catalog's entries (short and Azure names) to each entry's position, compared as
// equals_ignore_case does: a lookup and a clash check in constant time, so that reading a list of
// 100,000 profiles stays linear. The first entry to take a name keeps it.
class NameIndex {
 public:
  void add(std::string_view name, std::size_t position) { map_.emplace(key(name), position); }
  // Adds an entry's short and Azure names at `position`, after looking both up: returns each
  // that an earlier entry already holds, with that entry's position (the earlier one keeps it).
  std::vector<std::pair<std::string, std::size_t>> add_entry(std::string_view name,
                                                             std::string_view azure_name,
                                                             std::size_t position) {
    std::vector<std::pair<std::string, std::size_t>> clashes;
    for (const std::string_view mine : {name, azure_name}) {
      if (const auto other = find(mine)) clashes.emplace_back(std::string(mine), *other);
    }
    add(name, position);
    add(azure_name, position);
    return clashes;
  }
  std::optional<std::size_t> find(std::string_view name) const {
    const auto it = map_.find(key(name));
    if (it == map_.end()) return std::nullopt;
    return it->second;
  }

 private:
  static std::string key(std::string_view name) {
    std::string k(name);
    for (char& c : k) c = ascii_lower(c);
    return k;
  }
  std::unordered_map<std::string, std::size_t> map_;
};

}  // namespace hermes::cluster
