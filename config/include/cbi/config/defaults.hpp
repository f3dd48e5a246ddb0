// The defaults every command shares, written once: the GPU model's device, the threads per block,
// the thread order.
#pragma once

#include "cbi/parse.hpp"

#include <cstdint>
#include <string>
#include <utility>

namespace cbi::config {

constexpr const char *kDefaultDevice = "h100"; // a row of sim::devices() (cbi devices)
constexpr int kDefaultBlockThreads = 256;      // threads per block (GPU model, kernels)
constexpr const char *kDefaultOrder = "linear";

// --depth, matmul's inner dimension, in every command: 0 is the width (the default), as sweep's
// depth axis spells it; simulate and tune refused 0 and took up to 2^30, bench up to 2^31, sweep
// up to 2^20.
inline int64_t parse_depth(const std::string &text, const std::string &option = "--depth") {
  return parse_count(text, option, 1LL << 30, "the width");
}

// --size's extents in every command: each 1 to 2^30, and at most 2^40 tasks in all (N is NxN), as
// simulate takes them; sweep took each up to 2^20 and bench up to 2^31. An engine may allow fewer
// (a CUDA kernel's 32-bit thread ids: W*H < 2^31) and says so naming --size.
constexpr long long kMaxExtent = 1LL << 30;
constexpr long long kMaxTasks = 1LL << 40;

// "N" or "WxH" for a 2-D task grid, within kMaxExtent and kMaxTasks.
inline std::pair<long long, long long> parse_size(const std::string &text,
                                                  const std::string &option = "--size") {
  const auto [w, h] = parse_extent(text, option, true, kMaxExtent);
  if (w > kMaxTasks / h)
    throw UsageError(option, "'" + text + "' means " + std::to_string(w) + "x" + std::to_string(h) +
                                 ", more than " + limit_text(kMaxTasks) +
                                 " elements; allowed: a smaller size");
  return {w, h};
}

} // namespace cbi::config
