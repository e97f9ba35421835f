// Building RFC 6901 JSON pointers for diagnostics ("/runs/3/alpha"). Keys are escaped so that a
// key containing '/' or '~' still yields an unambiguous pointer.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace hermes {

inline std::string pointer_escape(std::string_view key) {
  std::string out;
  out.reserve(key.size());
  for (const char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

inline std::string pointer_append(const std::string& base, std::string_view key) {
  return base + "/" + pointer_escape(key);
}

inline std::string pointer_append(const std::string& base, std::size_t index) {
  return base + "/" + std::to_string(index);
}

}  // namespace hermes
