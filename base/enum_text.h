// The text of an enum's values from one table in declaration order, instead of a switch per enum
// (the same shape again and again). Each table sits next to a static_assert that it has one entry
// per value, so a new value cannot go without its text.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace hermes {

template <class Enum, std::size_t N>
constexpr std::string_view enum_text(Enum value, const std::array<std::string_view, N>& texts) {
  const auto i = static_cast<std::size_t>(value);
  return i < N ? texts[i] : std::string_view("?");
}

// The number of values of an enum whose last value is `last`.
template <class Enum>
constexpr std::size_t enum_count(Enum last) {
  return static_cast<std::size_t>(last) + 1;
}

}  // namespace hermes
