// The tiled SGEMM of kernels/src/matmul.cu (`cbi bench --kernel sgemm-tiled`), as the global loads
// that bring its tiles into shared memory: C = A B with A (I_h x D) at byte 0 and B (D x I_w) right
// after it, float only. CTA k of the 1-D grid computes the 128 x 128 tile of C at
// block_order.map(k) over the grid of tiles (ceil(I_w/128) x ceil(I_h/128)); its 256 threads step
// through D eight columns at a time, and at each step thread t loads one float4 of A (row t/2 of
// the tile, columns 4(t%2)..+3 of the step) and then one float4 of B (row t/32 of the step,
// columns 4(t%32)..+3 of the tile). The task grid is the launch's threads: task
// (t, k) is thread t of CTA k, so the thread order is linear and the block order is the
// workload's (Workload::block_order).
//
// After its last load each thread stores its 8 x 8 part of the C tile (C after B, M x N floats):
// 16 float4 stores, rows ty*4 + i%4 (+ 64 for i >= 4) and columns tx*4 (+ 64), ty = t/16,
// tx = t%16 (stores(), lane_stores()). What the replay leaves out: the arithmetic between the
// loads (counted in fp_ops_per_task), the shared-memory traffic and the barrier that keeps a
// CTA's warps in step. Its occupancy is the kernel's: 128 registers a thread (cbi bench's
// resources on the H100 and H200; __launch_bounds__(256, 2) caps it there), two CTAs an SM. Edge
// tiles clamp an out-of-range row or column to the last element in range (the kernel loads zeros
// there without touching memory): the lanes then share a sector with their neighbours.
#pragma once

#include "cbi/error.hpp"
#include "cbi/order_text.hpp"
#include "cbi/remap/order.hpp"
#include "cbi/sim/model_types.hpp"
#include "cbi/sim/workload_params.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace cbi::sim {

class SgemmTiledWorkload {
public:
  static constexpr const char *name = "sgemm-tiled";
  static constexpr int64_t kTileM = 128, kTileN = 128, kTileK = 8, kThreads = 256;
  // A 2-D output with an inner dimension D, no window. Table lines: 24, the value the sweep's
  // point ids recorded for this kernel before the simulator modelled it.
  static constexpr int size_dims = 2;
  static constexpr bool has_window = false;
  static constexpr bool has_depth = true;
  static constexpr int64_t table_lines = 24;
  // CTA k computes the tile Workload::block_order.map(k) (--block-order).
  static constexpr bool has_block_order = true;
  // The CUDA kernel that runs it; no boundary (the tiles cover the matrices).
  static constexpr const char *kernel = "sgemm-tiled";
  static constexpr bool has_boundary = false;
  // The GPU model's validated time error (cbi tune's tie groups): the mean error of the predicted
  // ratio of two orders' times, |ln(pred_a / pred_b) - ln(meas_a / meas_b)|, over the 196 pairs of
  // orders measured together in 56 sgemm-tiled configurations
  // (docs/results/tight/tie-tolerance.md). A workload without one takes the mean over every family.
  static constexpr double validated_time_error = 0.0441;
  // Address instructions per load (kernels/src/matmul.cu's load lambda): the row and column
  // bounds tests and the two pointers' offsets, about 4 per float4.
  static constexpr double address_ops_per_load = 4.0;
  // What the kernel takes (the GPU model's occupancy): registers a thread, as cbi bench reports
  // them (docs/results/tight/h100/tiled/sgemm-*.json), and the two buffers of As (8 x (128 + 4))
  // and Bs (8 x 128) floats.
  static constexpr int64_t registers_per_thread = 128;
  // How its CTAs on an SM share the issue (the GPU model's steps on devices whose scheduler issues
  // the oldest CTA first: h100, h200): kernels/probes/sgemm_steps on the H200 with the one kernel
  // of every block order (docs/results/tight/y-set.md §7, pair_rates.py): 1408 x 1536 x 32768, one
  // CTA an SM, runs 0.8324 of the throughput of 1408 x 3072 x 32768's pairs (two CTAs an SM, one
  // wave), what a partial last wave needs (§6). In those pairs the older ends first on all 132
  // SMs, the younger making 0.921 of its steps while both live; the model keeps them in step: with
  // 0.921 it read 1.10-1.27x the DRAM bytes at 6144 in all eight orders, DRAM MAE 18% against 10%
  // in step (§7).
  static constexpr double solo_cta_issue_fraction = 0.8324;
  static int64_t shared_bytes_per_cta(const Workload &) {
    return 2 * kTileK * (kTileM + 4) * 4 + 2 * kTileK * kTileN * 4;
  }

  static void validate(const Workload &w) {
    if (w.elem_bytes != 4)
      throw UsageError("workload.elem_bytes",
                       "sgemm-tiled is float only; allowed: float (4-byte elements)");
    if (w.depth < 1)
      throw UsageError("workload.depth", "depth must be positive; allowed: D >= 1");
    detail::checked_mul(ctas(w), kThreads, "workload.size", "the thread count");
    detail::checked_mul(2, steps(w), "workload.depth", "the access count");
  }
  static int64_t tiles_w(const Workload &w) { return (w.width + kTileN - 1) / kTileN; }
  static int64_t tiles_h(const Workload &w) { return (w.height + kTileM - 1) / kTileM; }
  static int64_t ctas(const Workload &w) { return tiles_w(w) * tiles_h(w); }
  // The grid of tiles that the block order runs over (x: tile columns, y: tile rows).
  static remap::Shape<int64_t> tile_grid(const Workload &w) { return {tiles_w(w), tiles_h(w)}; }
  static int64_t steps(const Workload &w) { return (w.depth + kTileK - 1) / kTileK; }
  // Threads x CTAs: task (t, k) is thread t of CTA k.
  static remap::Shape<int64_t> task_shape(const Workload &w) { return {kThreads, ctas(w)}; }
  static int64_t loads_per_task(const Workload &w) { return 2 * steps(w); }
  // Hopper's L2 request coalescer merges few of its reads: 0.4-9% of its L1 misses on the H200
  // (lrc__request_sectors_op_read_coalescing_achieved_type_hardware: 9% at 2048 linear, 1.2-1.4%
  // at 6144x4096, 0.3-0.5% at 8192), where the model's coalescer merged 21-38% before the steps
  // were paced and 47-75% after (CTAs that share a tile row or column in exact step):
  // kernels/probes/l2_count.sh, docs/results/tight/model-vs-tiled.md.
  static constexpr bool l2_coalescable = false;
  // A step's loads (one float4 of A, one of B) go to shared memory before the barrier, and the
  // step's arithmetic runs while the next step's loads are on their way.
  static int64_t loads_per_step(const Workload &) { return 2; }
  // Per thread and step: 8 x 8 FMAs for each of the 8 k, and 4 float4 shared-memory loads each.
  static int64_t fp_ops_per_task(const Workload &w) { return steps(w) * kTileK * (64 + 4); }
  static int64_t input_bytes(const Workload &w) {
    return (w.height * w.depth + w.depth * w.width) * w.elem_bytes;
  }
  static std::string describe(const Workload &w) {
    return "sgemm-tiled 128x128x8 depth " + std::to_string(w.depth) + " on " +
           std::to_string(w.width) + "x" + std::to_string(w.height) + " float, blocks " +
           remap::to_string(w.block_order);
  }
  static std::vector<ArrayLabel> arrays(const Workload &w) {
    return {{"A", 0, w.height, w.depth},
            {"B", w.height * w.depth * w.elem_bytes, w.depth, w.width}};
  }
  static constexpr const char *window_name = "B tile";
  static void model(const ModelContext &ctx) {
    ctx.note("the thesis's model covers listings 3 and 4; the tiled SGEMM has none here (the GPU "
             "model replays it: cbi simulate --model gpu)");
  }
  static WindowColumn window_column(const Workload &w, int64_t x) {
    return {w.height * w.depth + x, w.width, kTileK}; // one step's rows of B
  }

  explicit SgemmTiledWorkload(const Workload &w)
      : m_m(w.height), m_n(w.width), m_k(w.depth), m_b_base(w.height * w.depth),
        m_c_base(m_b_base + w.depth * w.width), m_steps(steps(w)),
        m_tiles(static_cast<std::size_t>(ctas(w))) {
    const remap::Shape<int64_t> grid = tile_grid(w);
    for (int64_t k = 0; k < ctas(w); ++k)
      m_tiles[static_cast<std::size_t>(k)] = w.block_order.map(k, grid);
  }

  int64_t loads() const { return 2 * m_steps; }
  // Load j of thread t.x in CTA t.y: step j/2, A for even j, B for odd j.
  MemAccess load(remap::Task<int64_t> t, int64_t j) const { return {addr(t, j), 4, false}; }
  void lane_loads(const remap::Task<int64_t> *lanes, int n, int64_t j, uint64_t *byte_addr) const {
    for (int l = 0; l < n; ++l)
      byte_addr[l] = addr(lanes[l], j);
  }

  // The C tile's stores: 16 a thread.
  static constexpr int64_t stores() { return 16; }
  // Store j of the `n` lanes: the active ones' byte addresses and bytes (a float4, fewer floats at
  // the right edge) into addr and bytes, in lane order; returns their count.
  int lane_stores(const remap::Task<int64_t> *lanes, int n, int64_t j, uint64_t *byte_addr,
                  uint32_t *bytes) const {
    int active = 0;
    const int64_t i = j / 2, part = j % 2;
    for (int l = 0; l < n; ++l) {
      const remap::Task<int64_t> tile = m_tiles[static_cast<std::size_t>(lanes[l].y)];
      const int64_t ty = lanes[l].x / 16, tx = lanes[l].x % 16;
      const int64_t m = tile.y * kTileM + (i < 4 ? 0 : 64) + ty * 4 + i % 4;
      const int64_t col = tile.x * kTileN + part * 64 + tx * 4;
      if (m >= m_m || col >= m_n)
        continue;
      byte_addr[active] = static_cast<uint64_t>((m_c_base + m * m_n + col) * 4);
      bytes[active] = static_cast<uint32_t>(std::min<int64_t>(4, m_n - col) * 4);
      ++active;
    }
    return active;
  }

private:
  uint64_t addr(remap::Task<int64_t> t, int64_t j) const {
    const remap::Task<int64_t> tile = m_tiles[static_cast<std::size_t>(t.y)];
    const int64_t k0 = (j >> 1) * kTileK;
    int64_t elem;
    if ((j & 1) == 0) { // A: row t/2 of the tile, columns k0 + 4(t%2)..+3
      const int64_t gm = std::min(m_m - 1, tile.y * kTileM + t.x / 2);
      const int64_t gk = std::min(m_k - 1, k0 + (t.x % 2) * 4);
      elem = gm * m_k + gk;
    } else { // B: row k0 + t/32, columns 4(t%32)..+3 of the tile
      const int64_t bk = std::min(m_k - 1, k0 + t.x / 32);
      const int64_t gn = std::min(m_n - 1, tile.x * kTileN + (t.x % 32) * 4);
      elem = m_b_base + bk * m_n + gn;
    }
    return static_cast<uint64_t>(elem * 4);
  }

  int64_t m_m, m_n, m_k, m_b_base, m_c_base, m_steps; // C's first element after B's last
  std::vector<remap::Task<int64_t>> m_tiles;          // CTA k's tile (x: tile column, y: tile row)
};

} // namespace cbi::sim
