// The text of an enum's values from one table in declaration order, instead of a switch per enum
// (the same shape again and again), in both directions: enum_text prints a value, enum_parse reads
// one back from the same table, so a word read from a file cannot drift from the word written.
// Each table sits next to a static_assert that it has one entry per value, so a new value cannot
// go without its text.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace hermes {

template <class Enum, std::size_t N>
constexpr std::string_view enum_text(Enum value, const std::array<std::string_view, N>& texts) {
  const auto i = static_cast<std::size_t>(value);
  return i < N ? texts[i] : std::string_view("?");
}

// The value whose text is `text`; nullopt when no value has it (a word of another version).
template <class Enum, std::size_t N>
constexpr std::optional<Enum> enum_parse(std::string_view text,
                                         const std::array<std::string_view, N>& texts) {
  for (std::size_t i = 0; i < N; ++i) {
    if (texts[i] == text) return static_cast<Enum>(i);
  }
  return std::nullopt;
}

// The number of values of an enum whose last value is `last`.
template <class Enum>
constexpr std::size_t enum_count(Enum last) {
  return static_cast<std::size_t>(last) + 1;
}

}  // namespace hermes
