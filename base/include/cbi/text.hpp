// Joining text for messages and cells: join({"a", "b"}, ", ") is "a, b". The one spelling of the
// loop `s += (s.empty() ? "" : ", ") + item` that messages, help texts and keys repeated. Host
// only.
#pragma once

#include <string>
#include <utility>

namespace cbi {

// The items of `items` (any range) as `text(item)` spells each, `sep` between two.
template <class Range, class Text>
std::string join(const Range &items, const std::string &sep, Text &&text) {
  std::string joined;
  bool first = true;
  for (const auto &item : items) {
    joined += (first ? "" : sep) + std::string(text(item));
    first = false;
  }
  return joined;
}

// The items of `items` (strings, or anything a std::string is made of), `sep` between two.
template <class Range> std::string join(const Range &items, const std::string &sep = ", ") {
  return join(items, sep, [](const auto &item) { return std::string(item); });
}

} // namespace cbi
