#include "base/suggest.h"

#include <algorithm>
#include <cctype>

namespace hermes {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size(), m = b.size();
  // Three rows: the one before the previous is needed for a swap.
  std::vector<std::size_t> before(m + 1), prev(m + 1), cur(m + 1);
  for (std::size_t j = 0; j <= m; ++j) prev[j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        cur[j] = std::min(cur[j], before[j - 2] + 1);
      }
    }
    std::swap(before, prev);
    std::swap(prev, cur);
  }
  return prev[m];
}

namespace {

std::size_t threshold(std::size_t length) {
  if (length <= 4) return 1;
  if (length <= 8) return 2;
  return length / 3;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::optional<std::string> nearest_name(std::string_view written,
                                        const std::vector<std::string>& candidates) {
  if (written.empty()) return std::nullopt;
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (const auto& c : candidates) {
    if (c == written || c.empty()) continue;
    // A case-only difference is the nearest a name can be short of equal.
    const std::size_t d = lower(c) == lower(written) ? 0 : edit_distance(written, c);
    if (d > threshold(std::max(written.size(), c.size()))) continue;
    // Something must be left as written: 'x' is not a typo of 'y'.
    if (d >= std::min(written.size(), c.size())) continue;
    if (!best || d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

std::string did_you_mean(std::string_view written, const std::vector<std::string>& candidates,
                         std::string_view quote) {
  const auto best = nearest_name(written, candidates);
  if (!best) return "";
  return "; did you mean " + std::string(quote) + *best + std::string(quote) + "?";
}

}  // namespace hermes
