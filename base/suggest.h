// "Did you mean ...?" for a mistyped name (a scenario key, a profile, a protocol, a run, a
// command-line option): the accepted name nearest to what was written, by edit distance, when it
// is near enough to be a typo rather than another word. One helper, so every message suggests
// alike.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hermes {

// The optimal-string-alignment (restricted Damerau-Levenshtein) distance: insertions, deletions,
// substitutions and swaps of two adjacent characters each count 1. Case-sensitive.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate nearest to `written` if it is within the typo threshold: at most 1 edit for
// names of up to 4 characters, 2 up to 8, then a third of the length (of the longer of the two),
// and fewer edits than the shorter one's length ('x' is no typo of 'y').
// Ties go to the first candidate in order; a candidate equal to `written` is never suggested
// (nothing is mistyped). A case-only difference always qualifies.
std::optional<std::string> nearest_name(std::string_view written,
                                        const std::vector<std::string>& candidates);

// "; did you mean 'X'?" for the nearest candidate, else "" (to append to a message).
std::string did_you_mean(std::string_view written, const std::vector<std::string>& candidates,
                         std::string_view quote = "'");

}  // namespace hermes
