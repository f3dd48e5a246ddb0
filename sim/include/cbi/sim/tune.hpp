// `cbi tune` (issue 18 §3) as a library: which orders are worth simulating for a size, the staged
// search that replays them in the GPU model, and how sure the model is of their ranking. The
// command (experiments/src/commands/tune_cmd.cpp) and cbi.tune in Python reach tune() through
// config::tune_result (cbi/config/tune.hpp), which reads the options and prints the rows.
#pragma once

#include "cbi/remap/order.hpp"
#include "cbi/sim/gpu_model.hpp"

#include <cstdint>
#include <functional>
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

// The GPU model's validated time error for a workload family, as a log ratio: the mean error of
// the predicted ratio of two orders' times, |ln(pred_a / pred_b) - ln(meas_a / meas_b)|, over the
// pairs of orders measured together (docs/results/tight/tie-tolerance.md). A ranking compares the
// orders of one configuration, so a bias they all share does not count. The workload's own
// validated_time_error (matmul 0.0754, stencil 0.0495, sgemm-tiled 0.0441, stencil-smem 0.0221);
// families not validated take the mean over all pairs (0.0585).
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

// The thread orders tune ranks by default: the thesis's column widths (Fig 5.1) plus tiles and
// zigzags (distinct_orders drops those that map as another for the size).
std::vector<std::string> default_tune_orders();

// Stage one's sampled SMs on a device: 12 (docs/results/gpu-model-speed.md measures its error), or
// the largest divisor of the device's SMs below it; 0 where none is above 1.
int64_t stage_one_sample(const Device &d);

// The host seconds one thread takes to replay `c` on the full device, estimated from its warp
// loads and warps at the rates measured on the 2-core development machine (an AMD EPYC VM,
// 2026-11-29: docs/results/gpu-model-speed.md): a fixed part per warp load and one per warp (its
// lanes' tasks mapped and its sector sets filled, which dominate short kernels such as a 3x3
// stencil). Within about 30% on the configurations measured there but a float 3x3 stencil
// (2x high); a machine twice as fast takes half.
double replay_seconds(const GpuConfig &c);

// What tune ranks: every candidate order in `base` (its thread order, or for the tiled kernels its
// block order), searched either in full or in two stages.
struct TuneConfig {
  GpuConfig base;                   // workload, device, block; its (block) order is replaced
  std::vector<remap::Order> orders; // the candidates, at least one
  bool staged = true;               // false: every order on the full device (or all sampled)
  int64_t finalists = 4;            // staged: orders replayed in stage two after stage one
  int64_t sample_sms = 0;           // given: stage one's sample (staged) or every run's (full)
  // Staged: stage two's sample (a divisor of the device's SMs above stage one's), 0 the full
  // device. Not the default: on 26 measured H100 groups a stage two on 33 or 66 SMs picked another
  // order than on the full device in 9 and 7, measured more than 1% slower in 2 of each
  // (docs/results/gpu-model-speed.md).
  int64_t final_sms = 0;
  int jobs = 1; // simulations at once
};

// The ranked candidates.
struct TuneResult {
  bool tiled = false;  // the candidates are block orders (workload_traits(...).has_block_order)
  bool staged = false; // a staged search ran (more candidates than finalists, a smaller sample)
  std::size_t finalists = 0; // staged: those replayed in stage two
  // staged: linear (the kernel as written) was not among the finalists and was replayed in stage
  // two too, as the baseline (stage one over-predicts it on DRAM-heavy stencils).
  bool baseline_replayed = false;
  int64_t final_sms = 0; // staged: the SMs stage two sampled (0: the full device)
  std::vector<std::pair<remap::Order, remap::Order>> dropped; // (order, the kept one it maps as)
  std::vector<std::string> repeated; // orders given more than once (as parsed): ranked once
  std::vector<GpuConfig> configs;    // one per candidate; sample_sms: its row's (0: full device)
  std::vector<GpuResult> results;
  // Every candidate once, fastest first: those of stage two (every one unless staged) ranked with
  // tie groups, then a staged search's others in their stage-one order, with tie_group 0.
  std::vector<Ranked> rows;
  double ln_error = 0; // validated_time_error of the workload: the tie tolerance
  // The ranked order of a config: its thread order, or for the tiled kernels its block order.
  std::string order_of(std::size_t config) const;
};

// The SMs stage one of a staged search of `c` samples (its sample_sms, else stage_one_sample of
// the device), or 0 where `c` cannot be staged: not asked to be, a tiled kernel's (never staged),
// or no sample smaller than the device. tune() stages it where its distinct orders also outnumber
// the finalists.
int64_t staged_sample(const TuneConfig &c);

// The wall seconds of the full search of `c` (every distinct order replayed on the full device,
// replay_seconds each) on `threads` host threads.
double full_search_seconds(const TuneConfig &c, int threads);

// Called once when the search starts (done 0, order "") and after each replay (`done` of `total`,
// the stage: "sampled" (stage one), "full", or stage two's "sampled N SMs"; the order), from one
// thread at a time.
using TuneProgress = std::function<void(int64_t done, int64_t total, const std::string &stage,
                                        const std::string &order)>;

// Runs the search on config.jobs threads. `interrupt`, if given, is called on the calling thread
// about every 50 ms while replays run, and may throw to stop them (the replays under way stop at
// their next progress check; its exception is rethrown). Throws UsageError naming the field
// (gpu.sample_sms, workload.block_order, ...) for a candidate the model cannot run.
TuneResult tune(const TuneConfig &config, const TuneProgress &progress = {},
                const Progress &interrupt = {});

} // namespace cbi::sim
