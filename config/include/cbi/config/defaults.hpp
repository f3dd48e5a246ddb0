// The defaults every command shares, written once: the GPU model's device, the threads per block,
// the thread order.
#pragma once

namespace cbi::config {

constexpr const char *kDefaultDevice = "h100"; // a row of sim::devices() (cbi devices)
constexpr int kDefaultBlockThreads = 256;      // threads per block (GPU model, kernels)
constexpr const char *kDefaultOrder = "linear";

} // namespace cbi::config
