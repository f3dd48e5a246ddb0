// The ranking logic of `cbi tune` (issue 18 §3): which orders are worth simulating for a size, and
// how sure the model is of their order. The CLI (experiments/src/tune_cmd.cpp) runs the GPU model
// and prints; these functions decide.
#pragma once

#include "cbi/remap/order.hpp"
#include "cbi/sim/gpu_model.hpp"

#include <string>
#include <utility>
#include <vector>

namespace cbi::sim {

// The orders of `orders` that map the workload's tasks differently, first of each kind kept:
// column:w with w >= I_w is linear, for example. `dropped` gets (order, the kept order it maps as).
std::vector<remap::Order>
distinct_orders(const std::vector<remap::Order> &orders, const Workload &w,
                std::vector<std::pair<remap::Order, remap::Order>> *dropped = nullptr);

// The tiled kernels' default block orders for their grid of tiles: linear, CUTLASS-style swizzles
// (column:W over the tiles, W below the grid's width), square groups (tile:4x4, tile:8x8), Triton's
// GROUP_M = 8 (tile:1x8: eight tile rows down one tile column, then the next column) and two
// zigzags, each only where it differs from linear on the grid. {"linear"} for a kernel without
// tiles.
std::vector<std::string> default_block_orders(const Workload &w);

// The GPU model's validated time error for a workload family, as the mean |ln(predicted /
// measured)| over the H100 validation set (docs/results/gpu-model-h100/pred-vs-meas.csv: stencil
// 0.0557 over 134 configurations, matmul 0.1059 over 118); families not validated take the mean
// over all 252 (0.0792).
double validated_time_error(WorkloadKind kind);

// One ranked order.
struct Ranked {
  std::size_t index = 0; // into the results given
  int tie_group = 0;     // 1: indistinguishable from the fastest by the model; 2, 3, ...: later
  double margin_pct = 0; // predicted time over the fastest's, in percent
  std::string bound;     // the bound that sets its time (GpuTime::bound)
  std::string why;       // why it differs from the fastest, in words ("" for the fastest)
};

// The results ranked fastest first (ties in time keep the given order). A tie group starts at an
// order whose predicted time exceeds the group's first by more than the validated error
// (exp(ln_error)); its members are indistinguishable by the model.
std::vector<Ranked> rank_orders(const std::vector<GpuConfig> &configs,
                                const std::vector<GpuResult> &results, double ln_error);

} // namespace cbi::sim
