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

// A limit as a user reads it: 1024 as is, a large power of two as 2^40 (1099511627776 is not),
// one short of it as 2^31 - 1 (--threads 0 was told "from 1 to 2147483647").
inline std::string limit_text(long long max) {
  for (const long long below : {0LL, 1LL}) {
    if (max <= (1LL << 20) || max > std::numeric_limits<long long>::max() - below)
      break;
    const long long p = max + below;
    if ((p & (p - 1)) == 0) {
      int power = 0;
      while ((1LL << power) != p)
        ++power;
      return "2^" + std::to_string(power) + (below ? " - 1" : "");
    }
  }
  return std::to_string(max);
}

// The value of a string of decimal digits, or -1 where it exceeds max (20 digits do not overflow).
inline long long digits_value(const std::string &digits, long long max) {
  long long value = 0;
  for (char c : digits) {
    if (value > max / 10 || value * 10 > max - (c - '0'))
      return -1;
    value = value * 10 + (c - '0');
  }
  return value;
}

// A positive integer in [1, max]. Rejects signs, blanks, trailing junk and overflow. Every error
// says what is allowed: "'-5' is not a positive integer; allowed: an integer from 1 to 1024".
inline long long parse_positive(const std::string &text, const std::string &option,
                                long long max = std::numeric_limits<int32_t>::max()) {
  const std::string allowed = "; allowed: an integer from 1 to " + limit_text(max);
  if (text.empty())
    throw UsageError(option, "empty value" + allowed);
  for (char c : text)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      throw UsageError(option, "'" + text + "' is not a positive integer" + allowed);
  const long long value = digits_value(text, max);
  if (value < 1)
    throw UsageError(option, "'" + text + "' is out of range" + allowed);
  return value;
}

// A count where 0 has a meaning of its own (`zero_means`: "fully associative", "all SMs"): 0 or
// an integer in [1, max]. The error names both, so that "--ways -1" is not told "a positive
// integer" when 0 is allowed.
inline long long parse_count(const std::string &text, const std::string &option, long long max,
                             const std::string &zero_means) {
  if (text == "0")
    return 0;
  try {
    return parse_positive(text, option, max);
  } catch (const UsageError &) {
    throw UsageError(option, "'" + text + "' is not allowed; allowed: 0 (" + zero_means +
                                 ") or an integer from 1 to " + limit_text(max));
  }
}

// "WxH" (or a single "N" meaning NxN when square_ok). Both parts positive; an error names the
// whole text ("'10x' has an empty extent", not "empty value" for its tail).
inline std::pair<long long, long long> parse_extent(const std::string &text,
                                                    const std::string &option, bool square_ok,
                                                    long long max = 1LL << 30) {
  const std::string allowed = std::string("; allowed: WxH") + (square_ok ? " (or N for NxN)" : "") +
                              ", each an integer from 1 to " + limit_text(max) + ", e.g. 64x32";
  const auto x = text.find_first_of("xX");
  if (x == std::string::npos) {
    if (!square_ok)
      throw UsageError(option, "'" + text + "' is not WxH" + allowed);
    const long long n = parse_positive(text, option, max);
    return {n, n};
  }
  if (text.find_first_of("xX", x + 1) != std::string::npos) // 3x3x3 named its tail "3x3"
    throw UsageError(option, "'" + text + "' has more than two extents" + allowed);
  const std::string w = text.substr(0, x), h = text.substr(x + 1);
  if (w.empty() || h.empty())
    throw UsageError(option, "'" + text + "' has an empty extent" + allowed);
  try {
    return {parse_positive(w, option, max), parse_positive(h, option, max)};
  } catch (const UsageError &e) {
    throw UsageError(option, "in '" + text + "', " + e.what());
  }
}

// The byte-size suffixes parse_bytes takes, for its error and the options' help.
inline const char *byte_suffixes() {
  return "N bytes, or N with a binary suffix: K, KB, KiB, M, MB, MiB, G, GB, GiB, T, TB, TiB (any "
         "case; all powers of 1024, as cache sizes are quoted)";
}

// A byte count with an optional binary suffix: 4096, 32KiB, 32K, 32KB, 32k, 4MiB, 1GiB. Every
// suffix is a power of 1024 and the letters' case does not matter, so `32k`, `32K`, `32KB` and
// `32KiB` are one size. Rejects overflow of the product.
inline long long parse_bytes(const std::string &text, const std::string &option) {
  std::size_t end = 0;
  while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])))
    ++end;
  const std::string digits = text.substr(0, end);
  std::string suffix = text.substr(end);
  for (char &ch : suffix)
    ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  int shift = -1;
  if (suffix.empty() || suffix == "b")
    shift = 0;
  else if (suffix == "k" || suffix == "kb" || suffix == "kib")
    shift = 10;
  else if (suffix == "m" || suffix == "mb" || suffix == "mib")
    shift = 20;
  else if (suffix == "g" || suffix == "gb" || suffix == "gib")
    shift = 30;
  else if (suffix == "t" || suffix == "tb" || suffix == "tib") // 1TiB, the largest size, said so
    shift = 40;
  if (shift < 0 || digits.empty())
    throw UsageError(option, "'" + text + "' is not a size; allowed: " + byte_suffixes());
  const long long max_bytes = 1LL << 40;
  const std::string range = "; allowed: a size from 1 B to 1TiB, e.g. 4096, 32KiB or 4MiB";
  const long long value = digits_value(digits, max_bytes >> shift);
  if (value < 1)
    throw UsageError(option, "'" + text + "' is out of range" + range);
  return value << shift;
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

// A comma list the user gave: every item non-empty, at least one item. "a,,b", "a," and "" are
// errors naming `option`.
inline std::vector<std::string> parse_list(const std::string &text, const std::string &option) {
  if (text.empty())
    throw UsageError(option, "empty list; allowed: one value or a comma list such as a,b");
  std::vector<std::string> items = split_list(text);
  if (text.back() == ',')
    items.emplace_back();
  for (const std::string &item : items)
    if (item.empty())
      throw UsageError(option, "'" + text +
                                   "' has an empty item; allowed: values separated by "
                                   "single commas, such as a,b");
  return items;
}

// Refuses a list that names one value twice (--order linear,linear ran or drew the same thing
// twice, or was merged without a word): `canonical[i]` is `given[i]` as parsed, so that tile:4
// and tile:4x4 are one order. The error names the later spelling and, where it differs, the
// earlier: "'tile:4x4' is given twice (as 'tile:4'); allowed: each value once".
inline void refuse_repeats(const std::vector<std::string> &given,
                           const std::vector<std::string> &canonical, const std::string &option,
                           const std::string &allowed = "each value once") {
  for (std::size_t i = 0; i < canonical.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (canonical[i] == canonical[j])
        throw UsageError(option, "'" + given[i] + "' is given twice" +
                                     (given[i] == given[j] ? "" : " (as '" + given[j] + "')") +
                                     "; allowed: " + allowed);
}

// "WxHxD..." (or "N"): every extent positive and their product at most `max_product`, so that no
// fold of them overflows. "16x", "16x16x" and "x16" are errors naming `option`.
inline std::vector<long long> parse_dims(const std::string &text, const std::string &option,
                                         long long max_extent, long long max_product) {
  std::vector<long long> dims;
  std::size_t start = 0;
  for (;;) {
    const std::size_t x = text.find_first_of("xX", start);
    const std::string part =
        text.substr(start, x == std::string::npos ? std::string::npos : x - start);
    if (part.empty())
      throw UsageError(option, "'" + text +
                                   "' has an empty extent; allowed: N or WxH[xD...] "
                                   "with positive integers, e.g. 64x32");
    try {
      dims.push_back(parse_positive(part, option, max_extent));
    } catch (const UsageError &e) {
      if (part == text)
        throw;
      throw UsageError(option, "in '" + text + "', " + e.what()); // 0x16 named '0' alone
    }
    if (x == std::string::npos)
      break;
    start = x + 1;
  }
  long long product = 1;
  for (long long d : dims) {
    if (product > max_product / d)
      throw UsageError(option, "'" + text + "' has " + std::to_string(dims.size()) +
                                   " extents whose product exceeds " + std::to_string(max_product) +
                                   " elements; allowed: a smaller "
                                   "size");
    product *= d;
  }
  return dims;
}

} // namespace cbi
