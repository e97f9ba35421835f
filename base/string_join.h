// Joining texts with a separator, for messages that list names ("accepted: a, b, c") and for
// canonical texts ("key=value;key=value"), and counting nouns ("1 point", "2 points"). One
// definition so every module lists and counts things alike.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace hermes {

// `items` separated by `sep` ("" for no items); ", " lists names in messages.
inline std::string join_strings(const std::vector<std::string>& items,
                                std::string_view sep = ", ") {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += sep;
    out += items[i];
  }
  return out;
}

// "1 point", "9 points": `n` and `noun`, with an "s" unless n is 1 (the nouns of our messages
// all take a plain "s").
inline std::string counted(std::size_t n, std::string_view noun) {
  return std::to_string(n) + " " + std::string(noun) + (n == 1 ? "" : "s");
}

}  // namespace hermes
