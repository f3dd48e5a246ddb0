// The matrix product of listing 4: task (x, y) computes out[y][x] = sum_i A[y][i] B[i][x], loading
// A[y*D+i] then B[i*I_w+x] for i = 0..D-1. A (I_h x D) at byte 0, B (D x I_w) right after A.
#pragma once

#include "cbi/error.hpp"
#include "cbi/remap/orders.hpp"
#include "cbi/sim/model_types.hpp"
#include "cbi/sim/workload_params.hpp"

#include <string>
#include <vector>

namespace cbi::sim {

class MatmulWorkload {
public:
  static constexpr const char *name = "matmul";
  // A 2-D task grid, no window, the inner dimension D in `depth`; Table 3.2's 32 lines.
  static constexpr int size_dims = 2;
  static constexpr bool has_window = false;
  static constexpr bool has_depth = true;
  static constexpr int64_t table_lines = 32;
  // No tiles: Workload::block_order does not apply (--block-order is refused).
  static constexpr bool has_block_order = false;
  // The CUDA kernel that runs it; no boundary (every index is in range).
  static constexpr const char *kernel = "matmul";
  static constexpr bool has_boundary = false;
  // The GPU model's validated time error (cbi tune's tie groups): the mean error of the predicted
  // ratio of two orders' times, |ln(pred_a / pred_b) - ln(meas_a / meas_b)|, over the 962 pairs of
  // orders measured together in 151 matmul configurations on the H100 (the sets N and R, predicted
  // with the L1's request floor, 2026-11-28 fifth stop: docs/results/tight/tie-tolerance.md; 0.0837
  // before it, 0.1046 before the sliding window). A workload without one takes the mean over every
  // family.
  static constexpr double validated_time_error = 0.0754;
  // The GPU model's address instructions per load (kernels/, listing 4): two pointers step once
  // per k, one instruction per load. The time model counts instructions_per_task instead.
  static constexpr double address_ops_per_load = 1.0;
  // Warp instructions per task of listing 4's kernel (kernels/src/matmul.cu, its k loop unrolled
  // by 4) under the linear order with cbi bench's fast remap, as the H200 executes them (ncu
  // smsp__inst_executed.sum per warp, kernels/scripts/sm_inst.sh, docs/results/tight/sm.md §2):
  // 4.5625 D + 53 for float and double (D 128 and 512; the H100's D 512-2048 agree exactly,
  // heldout-scores.md §3.3), 8 D + 44 for half (each element converted to float).
  static double instructions_per_task(const Workload &w) {
    return w.elem_bytes == 2 ? 8.0 * double(w.depth) + 44.0 : 4.5625 * double(w.depth) + 53.0;
  }

  // How the compiled kernel keeps its loads in flight, from its SASS on sm_90 (cuobjdump of
  // matmul_remap, docs/results/tight/dram-rw.md §6; the GPU model's engine.hpp, HasSlidingLoads):
  // ptxas unrolls the k loop 16 times and, for float, issues 12 loads before the first FFMA and the
  // rest between FFMAs, so a warp keeps its 12 latest loads in flight and issues the next as the
  // oldest arrives. 0, the device's loads_in_flight_per_warp issued and then waited for together,
  // for double (its DFMAs start after 4 loads, about 6 in flight; a sliding window of 6 scored
  // worse than that on 95 measured double configurations: docs/results/tight/slide.md) and half
  // (its SASS on sm_90, docs/results/tight/l1-issue.md §4: the k loop unrolled 4 times, its 8
  // loads issued together, then converted and multiplied: the device's 8 in flight, waited for
  // together, as the model has them).
  static int sliding_loads_in_flight(const Workload &w) { return w.elem_bytes == 4 ? 12 : 0; }
  // The loads of one pass of that unrolled loop (16 k steps, an A and a B load each): its last
  // FFMAs wait for its last loads, and the next pass's loads issue after them, so a warp waits for
  // all its loads every 32.
  static int sliding_loads_per_body(const Workload &) { return 32; }

  static void validate(const Workload &w) {
    if (w.depth < 1)
      throw UsageError("workload.depth", "depth must be positive; allowed: D >= 1");
    detail::checked_mul(2, w.depth, "workload.depth", "the access count");
  }
  static remap::Shape<int64_t> task_shape(const Workload &w) { return {w.width, w.height}; }
  static int64_t loads_per_task(const Workload &w) { return 2 * w.depth; }
  // Floating-point instructions per task (the GPU model's arithmetic bound).
  static int64_t fp_ops_per_task(const Workload &w) {
    return w.depth; // one FMA per i
  }
  static int64_t input_bytes(const Workload &w) {
    return (w.height * w.depth + w.depth * w.width) * w.elem_bytes;
  }
  static std::string describe(const Workload &w) {
    return "matmul depth " + std::to_string(w.depth) + " on " + std::to_string(w.width) + "x" +
           std::to_string(w.height) + " " + elem_type_name(w.elem_bytes);
  }
  static std::vector<ArrayLabel> arrays(const Workload &w) {
    return {{"A", 0, w.height, w.depth},
            {"B", w.height * w.depth * w.elem_bytes, w.depth, w.width}};
  }
  static constexpr const char *window_name = "B column";

  // The thesis's model for this level (§3.3.3, §4.4; cbi/sim/model.hpp).
  static void model(const ModelContext &ctx) {
    const Workload &w = ctx.w;
    const int64_t L = ctx.elems_per_line(); // elements per line
    const int64_t M_l = ctx.cache.capacity_lines;
    const int64_t u = w.elem_bytes;
    const double M_size = double(ctx.cache.capacity_bytes());
    const bool column = ctx.column_width > 0, tile = ctx.tile_w > 0;
    const int64_t Iw = w.width, Ih = w.height, D = w.depth;
    const int64_t a_row = ceil_div(D, L);
    const int64_t need_b = a_row + D;                    // eq. 3.6
    const int64_t need_ab = a_row + ceil_div(Iw * D, L); // eq. 3.9
    ctx.quantity("M_l", "eq. 3.6",
                 "lines to keep one row of A and one column of B (reuse of the A row)",
                 double(need_b));
    ctx.quantity("M_l", "eq. 3.9",
                 "lines to keep all of B resident between rows (reuse of A and B)",
                 double(need_ab));
    if (!column && !tile) {
      if (M_l > need_ab)
        ctx.fetch(FetchKind::estimate, double(a_row * Ih + ceil_div(Iw, L) * D), "eq. 3.10",
                  "F ~ ceil(D/L) I_h + ceil(I_w/L) D (eq. 3.10; eq. 3.9 holds)");
      else if (M_l > need_b)
        ctx.fetch(FetchKind::estimate, double(a_row * Ih + D * Iw * Ih), "eq. 3.7",
                  "F ~ ceil(D/L) I_h + D I_w I_h (eq. 3.7; eq. 3.6 holds)");
      else
        ctx.fetch(FetchKind::estimate, double((a_row + D) * Iw * Ih), "eq. 3.8",
                  "F ~ (ceil(D/L) + D) I_w I_h (eq. 3.8; eq. 3.6 fails)");
    }
    // §4.4: the thesis writes M_l = ceil(I_w/L) + I_h ceil(c/L) and c = M_size/(u I_h) for square
    // matrices; in general the A row has D elements and the B column block D rows.
    const double c_suggest = M_size / (double(u) * double(D));
    ctx.quantity("c", "§4.4", "suggested column width c = M_size / (u D)", c_suggest);
    ctx.suggest(c_suggest);
    if (column) {
      const int64_t cw = std::min<int64_t>(ctx.column_width, Iw);
      const int64_t need = a_row + D * ceil_div(cw, L);
      ctx.quantity("M_l", "§4.4", "lines for one A row plus the column's D x c block of B",
                   double(need));
      if (M_l >= need)
        ctx.fetch(FetchKind::estimate,
                  double(ceil_div(Iw, cw) * (D * ceil_div(cw, L) + Ih * a_row)), "§4.4",
                  "F ~ ceil(I_w/c) (D ceil(c/L) + I_h ceil(D/L)) (§4.4; B block once per column, "
                  "A rows once per column; not a thesis equation)");
      else
        ctx.note("§4.4's M_l is not met (" + model_num(double(M_l)) + " < " +
                 model_num(double(need)) + " lines): the column's B block does not stay resident");
    }
    if (ctx.granularity == Granularity::exact)
      ctx.note("exact granularity interleaves A and B accesses; the model counts per thread");
  }
  static WindowColumn window_column(const Workload &w, int64_t x) {
    return {w.height * w.depth + x, w.width, w.depth};
  }

  explicit MatmulWorkload(const Workload &w)
      : m_depth(w.depth), m_width(w.width), m_elem_bytes(w.elem_bytes),
        m_b_base_elems(w.height * w.depth) {}

  int64_t loads() const { return 2 * m_depth; }
  // Load j: A[y*D + j/2] for even j, B[(j/2)*I_w + x] for odd j (listing 4).
  MemAccess load(remap::Task<int64_t> t, int64_t j) const {
    const int64_t i = j >> 1;
    const int64_t elem = (j & 1) ? m_b_base_elems + i * m_width + t.x : t.y * m_depth + i;
    return {static_cast<uint64_t>(elem * m_elem_bytes), m_elem_bytes, false};
  }

  // load(lanes[l], j) for l < n, A or B chosen once per instruction (the GPU model's per-warp
  // path).
  void lane_loads(const remap::Task<int64_t> *lanes, int n, int64_t j, uint64_t *byte_addr) const {
    const int64_t i = j >> 1;
    if (j & 1) {
      const int64_t base = m_b_base_elems + i * m_width;
      for (int l = 0; l < n; ++l)
        byte_addr[l] = static_cast<uint64_t>((base + lanes[l].x) * m_elem_bytes);
    } else {
      for (int l = 0; l < n; ++l)
        byte_addr[l] = static_cast<uint64_t>((lanes[l].y * m_depth + i) * m_elem_bytes);
    }
  }

private:
  int64_t m_depth, m_width;
  int m_elem_bytes;
  int64_t m_b_base_elems;
};

} // namespace cbi::sim
