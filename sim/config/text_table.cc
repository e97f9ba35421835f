#include "sim/config/text_table.h"

#include <algorithm>
#include <functional>
#include <utility>

namespace hermes::config {

namespace {

std::string rtrim(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

std::string pad(const std::string& s, std::size_t width, bool right) {
  if (s.size() >= width) return s;
  const std::string fill(width - s.size(), ' ');
  return right ? fill + s : s + fill;
}

std::string md_escape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    if (ch == '|') out += '\\';
    out += ch;
  }
  return out;
}

}  // namespace

void render_text(std::ostream& os, const TextTable& t) {
  const std::size_t nc = t.columns.size();
  std::vector<std::size_t> width(nc);
  for (std::size_t c = 0; c < nc; ++c) {
    width[c] = t.columns[c].width;
    if (!t.columns[c].fit) continue;
    width[c] = std::max(width[c], t.columns[c].name.size());
    for (const auto& row : t.rows) width[c] = std::max(width[c], row[c].size());
  }
  // Spans of columns sharing a group; a group label wider than its columns widens the last one.
  std::vector<std::pair<std::size_t, std::size_t>> spans;  // [first, last]
  for (std::size_t c = 0; c < nc; ++c) {
    if (c > 0 && !t.columns[c].group.empty() && t.columns[c].group == t.columns[c - 1].group) {
      spans.back().second = c;
    } else {
      spans.emplace_back(c, c);
    }
  }
  const auto span_width = [&](const std::pair<std::size_t, std::size_t>& s) {
    std::size_t w = 0;
    for (std::size_t c = s.first; c <= s.second; ++c) {
      w += width[c] + (c > s.first ? t.gap.size() : 0);
    }
    return w;
  };
  bool any_group = false;
  for (const auto& s : spans) {
    const std::string& label = t.columns[s.first].group;
    any_group = any_group || !label.empty();
    const std::size_t w = span_width(s);
    if (label.size() > w) width[s.second] += label.size() - w;
  }
  const auto line = [&](const std::function<std::string(std::size_t)>& cell,
                        const std::string& inner, const std::string& outer) {
    std::string text = t.indent;
    for (std::size_t si = 0; si < spans.size(); ++si) {
      if (si > 0) text += outer;
      for (std::size_t c = spans[si].first; c <= spans[si].second; ++c) {
        if (c > spans[si].first) text += inner;
        text += cell(c);
      }
    }
    os << rtrim(text) << '\n';
  };
  if (any_group) {
    std::string text = t.indent;
    for (std::size_t si = 0; si < spans.size(); ++si) {
      if (si > 0) text += t.group_gap;
      text += pad(t.columns[spans[si].first].group, span_width(spans[si]), false);
    }
    os << rtrim(text) << '\n';
  }
  line([&](std::size_t c) { return pad(t.columns[c].name, width[c], t.columns[c].right); }, t.gap,
       t.group_gap);
  if (t.rule) {
    std::string crossing = t.group_gap;  // " | " is crossed as "-+-"
    for (char& ch : crossing) ch = ch == '|' ? '+' : '-';
    line([&](std::size_t c) { return std::string(width[c], '-'); }, std::string(t.gap.size(), '-'),
         crossing);
  }
  for (const auto& row : t.rows) {
    line([&](std::size_t c) { return pad(row[c], width[c], t.columns[c].right); }, t.gap,
         t.group_gap);
  }
}

void render_markdown(std::ostream& os, const TextTable& t) {
  os << '|';
  for (const auto& c : t.columns) {
    os << ' ' << md_escape(c.group.empty() ? c.name : c.group + " " + c.name) << " |";
  }
  os << "\n|";
  for (const auto& c : t.columns) os << (c.right ? "---:|" : "---|");
  os << '\n';
  for (const auto& row : t.rows) {
    os << '|';
    for (const auto& cell : row) os << ' ' << md_escape(cell) << " |";
    os << '\n';
  }
}

}  // namespace hermes::config
