// The defaults every command shares, written once: the GPU model's device, the threads per block,
// the thread order.
#pragma once

#include "cbi/parse.hpp"

#include <cstdint>
#include <string>

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

} // namespace cbi::config
