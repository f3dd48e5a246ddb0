// Strict parsing of user-supplied numbers, shapes, byte sizes and lists. Every failure is a
// UsageError naming the option, so the CLI prints one line and exits 2. Host only.
#pragma once

#include "cbi/error.hpp"

#include <cctype>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace cbi {

// A positive integer in [1, max]. Rejects signs, blanks, trailing junk and overflow.
inline long long parse_positive(const std::string &text, const std::string &option,
                                long long max = std::numeric_limits<int32_t>::max()) {
  const std::string allowed = "a positive integer from 1 to " + std::to_string(max);
  if (text.empty() || text.size() > 19)
    throw UsageError(option, "'" + text + "' is not " + allowed);
  long long value = 0;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c)))
      throw UsageError(option, "'" + text + "' is not " + allowed);
    value = value * 10 + (c - '0');
  }
  if (value < 1 || value > max)
    throw UsageError(option, "'" + text + "' is out of range; allowed: " + allowed);
  return value;
}

// "WxH" (or a single "N" meaning NxN when square_ok). Both parts positive.
inline std::pair<long long, long long> parse_extent(const std::string &text,
                                                    const std::string &option, bool square_ok,
                                                    long long max = 1LL << 30) {
  const auto x = text.find_first_of("xX");
  if (x == std::string::npos) {
    if (!square_ok)
      throw UsageError(option, "'" + text + "' is not WxH (two positive integers, e.g. 64x32)");
    const long long n = parse_positive(text, option, max);
    return {n, n};
  }
  return {parse_positive(text.substr(0, x), option, max),
          parse_positive(text.substr(x + 1), option, max)};
}

// A byte count with an optional binary suffix: 4096, 32KiB, 4MiB, 1GiB (also K, M, G, KB, MB).
inline long long parse_bytes(const std::string &text, const std::string &option) {
  std::size_t end = 0;
  while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])))
    ++end;
  const std::string digits = text.substr(0, end), suffix = text.substr(end);
  long long scale = 1;
  if (suffix.empty() || suffix == "B")
    scale = 1;
  else if (suffix == "KiB" || suffix == "K" || suffix == "KB")
    scale = 1LL << 10;
  else if (suffix == "MiB" || suffix == "M" || suffix == "MB")
    scale = 1LL << 20;
  else if (suffix == "GiB" || suffix == "G" || suffix == "GB")
    scale = 1LL << 30;
  else
    throw UsageError(option, "'" + text + "' is not a size; allowed: N, NKiB, NMiB, NGiB");
  const long long value = parse_positive(digits.empty() ? text : digits, option, 1LL << 40);
  return value * scale;
}

// "a,b,c" -> {"a", "b", "c"}; inner empty items are kept (and rejected by whoever parses them), a
// trailing separator adds none.
inline std::vector<std::string> split_list(const std::string &text, char sep = ',') {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find(sep, start);
    items.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  return items;
}

} // namespace cbi
