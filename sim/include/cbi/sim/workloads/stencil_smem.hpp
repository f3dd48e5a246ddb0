// The shared-memory stencil of kernels/src/stencil.cu (`cbi bench --kernel stencil-smem`), as the
// global loads that bring each CTA's tile and its clamped halo into shared memory. CTA k of the
// 1-D grid computes the 64 x 32 output tile at block_order.map(k) over the grid of tiles
// (ceil(I_w/64) x ceil(I_h/32)); it loads (32 + 2 r_y) rows of (64 + 2 r_x) elements, warp w the
// rows w, w + 8, ..., lane l the columns l, l + 32, ... of each (half: pairs of elements, columns
// 2l, 2l + 64, ..., one more column on the left when r_x is odd). Coordinates clamp at the edges,
// as the kernel's do. The task grid is the launch's threads: task (t, k) is thread t of CTA k (a
// linear thread order); the block order is the workload's (Workload::block_order).
//
// A thread's loads are the kernel's loop unrolled into ceil(rows/8) x ceil(columns/32) slots.
// Lanes past the last column load what lane 0 of the same slot loads (no sector of their own);
// a slot past the warp's last row repeats the thread's first load (an L1 hit, one request more
// than the kernel makes when 8 does not divide the rows). After its loads each thread stores 8
// outputs, column t%64 of the tile, rows (t/64)*8 .. +7 (the output after the input; stores(),
// lane_stores()). What the replay leaves out: the sums in shared memory (counted in
// fp_ops_per_task) and the barriers. Its occupancy is the kernel's: 32 registers a thread
// (__launch_bounds__(256, 8)) and its shared tile and sums (shared_bytes_per_cta).
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

class StencilSmemWorkload {
public:
  static constexpr const char *name = "stencil-smem";
  static constexpr int64_t kTileW = 64, kTileH = 32, kThreads = 256, kWarps = 8, kRun = 8;
  // A 2-D output and an S_w x S_h window. Table lines: 24 (Table 3.1's, the stencil's).
  static constexpr int size_dims = 2;
  static constexpr bool has_window = true;
  static constexpr bool has_depth = false;
  static constexpr int64_t table_lines = 24;
  // CTA k computes the tile Workload::block_order.map(k) (--block-order).
  static constexpr bool has_block_order = true;
  // The CUDA kernel that runs it; always clamped.
  static constexpr const char *kernel = "stencil-smem";
  static constexpr bool has_boundary = false;
  // The GPU model's validated time error (cbi tune's tie groups): the mean error of the predicted
  // ratio of two orders' times, |ln(pred_a / pred_b) - ln(meas_a / meas_b)|, over the 168 pairs of
  // orders measured together in 48 stencil-smem configurations
  // (docs/results/tight/tie-tolerance.md). A workload without one takes the mean over every family.
  static constexpr double validated_time_error = 0.0221;
  // Address instructions per load (the row loop: clamp, row pointer, column clamp, shared
  // address), about 6.
  static constexpr double address_ops_per_load = 6.0;
  // What the kernel takes (the GPU model's occupancy): registers a thread (cbi bench's resources:
  // 32) and kernels/src/stencil.cu's SmemLayout, the input tile (odd pitch; half in pairs) then
  // the horizontal sums (64 + 1 a row, in the accumulator: float for half and float).
  static constexpr int64_t registers_per_thread = 32;
  static int64_t shared_bytes_per_cta(const Workload &w) {
    const int64_t acc = w.elem_bytes == 8 ? 8 : 4;
    const int64_t pitch = pairs(w) ? ((cols_in(w) / 2) | 1) * 2 : cols_in(w) | 1;
    const int64_t tile = (rows_in(w) * pitch * w.elem_bytes + acc - 1) / acc * acc;
    return tile + rows_in(w) * (kTileW + 1) * acc;
  }

  static void validate(const Workload &w) {
    if (w.boundary != Boundary::clamp)
      throw UsageError("workload.boundary", "stencil-smem clamps its coordinates; allowed: clamp");
    detail::checked_mul(ctas(w), kThreads, "workload.size", "the thread count");
  }
  static int64_t tiles_w(const Workload &w) { return (w.width + kTileW - 1) / kTileW; }
  static int64_t tiles_h(const Workload &w) { return (w.height + kTileH - 1) / kTileH; }
  static int64_t ctas(const Workload &w) { return tiles_w(w) * tiles_h(w); }
  // The grid of tiles that the block order runs over (x: tile columns, y: tile rows).
  static remap::Shape<int64_t> tile_grid(const Workload &w) { return {tiles_w(w), tiles_h(w)}; }
  static bool pairs(const Workload &w) { return w.elem_bytes == 2; }
  static int64_t pad(const Workload &w) { return pairs(w) ? (w.stencil_w / 2) & 1 : 0; }
  static int64_t rows_in(const Workload &w) { return kTileH + 2 * (w.stencil_h / 2); }
  static int64_t cols_in(const Workload &w) { return kTileW + 2 * (w.stencil_w / 2) + 2 * pad(w); }
  // Columns one load of a warp covers: 32 elements, or 32 pairs for half.
  static int64_t cols_per_slot(const Workload &w) { return pairs(w) ? 64 : 32; }
  static int64_t col_slots(const Workload &w) {
    return (cols_in(w) + cols_per_slot(w) - 1) / cols_per_slot(w);
  }
  static int64_t row_slots(const Workload &w) { return (rows_in(w) + kWarps - 1) / kWarps; }
  static remap::Shape<int64_t> task_shape(const Workload &w) { return {kThreads, ctas(w)}; }
  static int64_t loads_per_task(const Workload &w) { return row_slots(w) * col_slots(w); }
  // Its loads are cp.async copies (LDGSTS), which Hopper's L2 request coalescer does not merge:
  // on the H200 lrc__request_sectors_op_read_coalescing_achieved_type_hardware is 0-0.3% of its
  // L1 misses where the model's coalescer merged 19% (the halo sectors that neighbouring CTAs read
  // at once), against 7-9% of the SGEMM's plain loads (kernels/probes/l2_count.sh,
  // docs/results/tight/model-vs-tiled.md).
  static constexpr bool l2_coalescable = false;
  // One step: every load of the tile is in flight at once (cp.async), then the sums.
  static int64_t loads_per_step(const Workload &w) { return loads_per_task(w); }
  // Per thread: the horizontal running sums of its ceil(rows * 8 / 256) row runs (S_w + 7 x 2
  // reads and adds, 8 stores each) and one vertical run (S_h + 7 x 2, 8 scaled stores).
  static int64_t fp_ops_per_task(const Workload &w) {
    const int64_t row_runs = (rows_in(w) * (kTileW / kRun) + kThreads - 1) / kThreads;
    return row_runs * (2 * w.stencil_w + 36) + (2 * w.stencil_h + 44);
  }
  // Warp instructions per task (per thread of the kernel) as the H200 executes them under the
  // linear block order: ncu's smsp__inst_executed.sum over the launch's warps, windows 3x3, 5x5,
  // 9x9 and 11x11 in half, float and double at 3584 (docs/results/tight/drift.md §5), fitted as
  // 530.3 + 20.12 S (float; double one more) and 595.4 + 23.74 S (half), S the mean window side:
  // within 3% of all 12 (8192 and column:8 measure the same within 1%). The estimate from the
  // loop's arithmetic (fp_ops_per_task and the loads) counted 2.6x fewer. The GPU model's issue
  // bound and its steps take this count at kernel_issue_per_cycle.
  static double kernel_instructions_per_task(const Workload &w) {
    const double side = 0.5 * double(w.stencil_w + w.stencil_h);
    if (w.elem_bytes == 2)
      return 595.4 + 23.74 * side;
    return 530.3 + 20.12 * side + (w.elem_bytes == 8 ? 1.0 : 0.0);
  }
  // Warp instructions an SM issues a cycle while its CTA slots are full (ncu on the H200, the same
  // runs: 3.23 over the launch at 8192, 31 waves; issue active 79-84% of the four
  // schedulers, 3.2-3.4 a cycle; at 3584, 6 waves, 2.95-3.07 over the launch, its last wave's tail
  // included, which the replay models itself).
  static constexpr double kernel_issue_per_cycle = 3.2;
  static int64_t input_bytes(const Workload &w) { return w.width * w.height * w.elem_bytes; }
  static std::string describe(const Workload &w) {
    return "stencil-smem " + std::to_string(w.stencil_w) + "x" + std::to_string(w.stencil_h) +
           " on " + std::to_string(w.width) + "x" + std::to_string(w.height) + " " +
           elem_type_name(w.elem_bytes) + ", 64x32 tiles, blocks " +
           remap::to_string(w.block_order);
  }
  static std::vector<ArrayLabel> arrays(const Workload &w) {
    return {{"input", 0, w.height, w.width}};
  }
  static constexpr const char *window_name = "tile column";
  static void model(const ModelContext &ctx) {
    ctx.note("the thesis's model covers listings 3 and 4; the shared-memory stencil has none here "
             "(the GPU model replays it: cbi simulate --model gpu)");
  }
  static WindowColumn window_column(const Workload &w, int64_t x) {
    return {x, w.width, rows_in(w)};
  }

  explicit StencilSmemWorkload(const Workload &w)
      : m_width(w.width), m_height(w.height), m_rx(w.stencil_w / 2), m_ry(w.stencil_h / 2),
        m_elem(w.elem_bytes), m_pairs(pairs(w)), m_pad(pad(w)), m_rows(rows_in(w)),
        m_cols(cols_in(w)), m_col_slots(col_slots(w)), m_cols_per_slot(cols_per_slot(w)),
        m_tiles(static_cast<std::size_t>(ctas(w))) {
    const remap::Shape<int64_t> grid = tile_grid(w);
    for (int64_t k = 0; k < ctas(w); ++k)
      m_tiles[static_cast<std::size_t>(k)] = w.block_order.map(k, grid);
  }

  int64_t loads() const { return (m_rows + kWarps - 1) / kWarps * m_col_slots; }
  MemAccess load(remap::Task<int64_t> t, int64_t j) const {
    return {addr(t, j), static_cast<int32_t>(m_pairs ? 2 * m_elem : m_elem), false};
  }
  void lane_loads(const remap::Task<int64_t> *lanes, int n, int64_t j, uint64_t *byte_addr) const {
    for (int l = 0; l < n; ++l)
      byte_addr[l] = addr(lanes[l], j);
  }

  // The output tile's stores: 8 a thread.
  static constexpr int64_t stores() { return kRun; }
  // Store j of the `n` lanes: the active ones' (inside the output) byte addresses and bytes into
  // addr and bytes, in lane order; returns their count.
  int lane_stores(const remap::Task<int64_t> *lanes, int n, int64_t j, uint64_t *byte_addr,
                  uint32_t *bytes) const {
    int active = 0;
    for (int l = 0; l < n; ++l) {
      const remap::Task<int64_t> tile = m_tiles[static_cast<std::size_t>(lanes[l].y)];
      const int64_t gx = tile.x * kTileW + lanes[l].x % kTileW;
      const int64_t gy = tile.y * kTileH + lanes[l].x / kTileW * kRun + j;
      if (gx >= m_width || gy >= m_height)
        continue;
      byte_addr[active] = static_cast<uint64_t>((m_width * m_height + gy * m_width + gx) * m_elem);
      bytes[active] = static_cast<uint32_t>(m_elem);
      ++active;
    }
    return active;
  }

private:
  // Load j of thread t.x in CTA t.y: slot (row j / col_slots, column j % col_slots).
  uint64_t addr(remap::Task<int64_t> t, int64_t j) const {
    const int64_t warp = t.x / 32, lane = t.x % 32;
    int64_t r = warp + kWarps * (j / m_col_slots);
    int64_t c = (m_pairs ? 2 * lane : lane) + m_cols_per_slot * (j % m_col_slots);
    if (r >= m_rows) { // past the warp's last row: the thread's first load again
      r = warp;
      c = m_pairs ? 2 * lane : lane;
    } else if (c >= m_cols) { // past the last column: lane 0's element of this slot
      c = m_cols_per_slot * (j % m_col_slots);
    }
    const remap::Task<int64_t> tile = m_tiles[static_cast<std::size_t>(t.y)];
    const int64_t gy = std::min(m_height - 1, std::max<int64_t>(0, tile.y * kTileH - m_ry + r));
    const int64_t gx =
        std::min(m_width - 1, std::max<int64_t>(0, tile.x * kTileW - m_rx - m_pad + c));
    return static_cast<uint64_t>((gy * m_width + gx) * m_elem);
  }

  int64_t m_width, m_height, m_rx, m_ry;
  int m_elem;
  bool m_pairs;
  int64_t m_pad, m_rows, m_cols, m_col_slots, m_cols_per_slot;
  std::vector<remap::Task<int64_t>> m_tiles; // CTA k's tile (x: tile column, y: tile row)
};

} // namespace cbi::sim
