// Joining texts with a separator, for messages that list names ("accepted: a, b, c") and for
// canonical texts ("key=value;key=value"). One definition so every module lists things alike.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace hermes {

// `items` separated by `sep` ("" for no items).
inline std::string join_strings(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += sep;
    out += items[i];
  }
  return out;
}

}  // namespace hermes
