// Azure size names as lookups compare them: Azure treats them case-insensitively, and the catalogs
// of this folder (profiles, prices) accept a size by its short or its Azure name.
#pragma once

#include <cstddef>
#include <string_view>

namespace hermes::cluster {

// ASCII case-insensitive equality ("b1ms" == "B1ms"); size names are ASCII.
inline bool equals_ignore_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  const auto lower = [](char c) {
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  };
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

}  // namespace hermes::cluster
