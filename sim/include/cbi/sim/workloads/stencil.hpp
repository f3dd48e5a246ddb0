// The 2-D stencil of listing 3: task (x, y) reads the S_w x S_h window around (x, y) of an I_w x
// I_h input, rows dy = -r..r (outer), dx = -r..r (inner), coordinates clamped (or, with
// Boundary::none, unclamped and shifted so that the lowest address is 0). Input row-major at byte
// 0.
#pragma once

#include "cbi/error.hpp"
#include "cbi/remap/orders.hpp"
#include "cbi/sim/model_types.hpp"
#include "cbi/sim/workload_params.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace cbi::sim {

// The stencil window's one check and message, for every command that takes --stencil (cbi
// simulate's workload, cbi sweep's axis): odd sides, so that the task sits at its centre.
inline void check_stencil_window(int64_t w, int64_t h, const std::string &option) {
  if (w >= 1 && h >= 1 && w % 2 == 1 && h % 2 == 1)
    return;
  const std::string text = "'" + std::to_string(w) + "x" + std::to_string(h) + "'";
  throw UsageError(option, text + (w < 1 || h < 1 ? " is not allowed" : " has an even side") +
                               "; allowed: odd sizes such as 3x3, 7x7, 9x9");
}

class StencilWorkload {
public:
  static constexpr const char *name = "stencil";
  // The --size extents (a 2-D task grid; N-d sizes fold into it, §4.1.2), whether the stencil
  // window S_w x S_h and `depth` apply, and Table 3.1's capacity in lines for the thesis's cache.
  static constexpr int size_dims = 2;
  static constexpr bool has_window = true;
  static constexpr bool has_depth = false;
  static constexpr int64_t table_lines = 24;
  // No tiles: Workload::block_order does not apply (--block-order is refused).
  static constexpr bool has_block_order = false;
  // The CUDA kernel that runs it (kernels/, --kernel) and whether Boundary::none applies (the
  // unclamped, shifted input of eq. 3.2; --boundary).
  static constexpr const char *kernel = "stencil";
  static constexpr bool has_boundary = true;
  // The GPU model's validated time error (cbi tune's tie groups): the mean error of the predicted
  // ratio of two orders' times, |ln(pred_a / pred_b) - ln(meas_a / meas_b)|, over the 819 pairs of
  // orders measured together in 126 stencil configurations on the H100 (the sets N and R predicted
  // again 2026-11-28, sixth stop, with the L1's extra wavefront for a mixed request: docs/results/
  // tight/miss-cost.md, tie-tolerance.md; 0.0642 before it, 0.0554 with main 3f3db04). A workload
  // without one takes the mean over every family.
  static constexpr double validated_time_error = 0.0495;
  // The GPU model's address instructions per load (kernels/, listing 3): x clamped (an add and two
  // min/max), y * I_w + x (one IMAD) and a 64-bit pointer (two). The time model counts
  // instructions_per_task instead (measured); this estimate was 1.4-1.9x too many.
  static constexpr double address_ops_per_load = 6.0;
  // Warp instructions per task of the kernel (kernels/src/stencil.cu, the window a compile-time
  // constant) under the linear order with cbi bench's fast remap, as the H200 executes them (ncu
  // smsp__inst_executed.sum per warp, kernels/scripts/sm_inst.sh, docs/results/tight/sm.md §2):
  // 4 S^2 + 4 S + 28 (float), + 1 (double), + S^2 + 1 (half) for windows 3x3 to 11x11, exact on
  // all 15; the H100's 12 (heldout-scores.md §3.3) agree. Per window element a load, its IMAD and
  // 64-bit IMAD.WIDE and the add (half: and its conversion); per row and column of the window a
  // clamp (two min/max). Other windows (the run-time fallback) are counted alike, not measured.
  static double instructions_per_task(const Workload &w) {
    const double elements = double(w.stencil_w) * double(w.stencil_h);
    const double per_element = w.elem_bytes == 2 ? 5.0 : 4.0;
    return per_element * elements + 2.0 * double(w.stencil_w + w.stencil_h) +
           (w.elem_bytes == 4 ? 28.0 : 29.0);
  }

  static void validate(const Workload &w) {
    check_stencil_window(w.stencil_w, w.stencil_h, "workload.stencil");
    detail::checked_mul(w.stencil_w, w.stencil_h, "workload.stencil", "the stencil");
  }
  static remap::Shape<int64_t> task_shape(const Workload &w) { return {w.width, w.height}; }
  static int64_t loads_per_task(const Workload &w) { return w.stencil_w * w.stencil_h; }
  // Floating-point instructions per task (the GPU model's arithmetic bound).
  static int64_t fp_ops_per_task(const Workload &w) {
    return w.stencil_w * w.stencil_h; // one add per window element
  }
  static int64_t input_bytes(const Workload &w) {
    if (w.boundary == Boundary::none) // shifted input spans (I_h + S_h - 1) rows plus S_w - 1
      return ((w.height + w.stencil_h - 1) * w.width + w.stencil_w - 1) * w.elem_bytes;
    return w.width * w.height * w.elem_bytes;
  }
  static std::string describe(const Workload &w) {
    return "stencil " + std::to_string(w.stencil_w) + "x" + std::to_string(w.stencil_h) + " on " +
           std::to_string(w.width) + "x" + std::to_string(w.height) + " " +
           elem_type_name(w.elem_bytes) +
           (w.boundary == Boundary::clamp ? ", clamp" : ", no boundary");
  }
  static std::vector<ArrayLabel> arrays(const Workload &w) {
    if (w.boundary == Boundary::clamp)
      return {{"input", 0, w.height, w.width}};
    // Unclamped: input (row, col) sits at (row + r_y) * I_w + col + r_x, rows -r_y .. I_h+r_y-1;
    // the columns -r_x .. I_w-1+r_x overlap the neighbouring rows, so an element reads as the row
    // whose window [-r_x, I_w - r_x) holds it and element 0 is (row -r_y, column -r_x).
    const int64_t rx = w.stencil_w / 2, ry = w.stencil_h / 2;
    return {{"input", rx * w.elem_bytes, w.height + 2 * ry, w.width, -ry, -rx}};
  }
  // What the analytical model calls the lines that one x position keeps (model.cpp's set notes).
  static constexpr const char *window_name = "window column";

  // The thesis's model for this level (§3.3.1, §3.3.2, §4.3; cbi/sim/model.hpp).
  static void model(const ModelContext &ctx) {
    const Workload &w = ctx.w;
    const int64_t L = ctx.elems_per_line(); // elements per line
    const int64_t M_l = ctx.cache.capacity_lines;
    const int64_t u = w.elem_bytes;
    const double M_size = double(ctx.cache.capacity_bytes());
    const bool column = ctx.column_width > 0, tile = ctx.tile_w > 0;
    const int64_t Iw = w.width, Ih = w.height, Sw = w.stencil_w, Sh = w.stencil_h;
    const int64_t row_lines = ceil_div(Iw + Sw, L);
    const int64_t need_naive = row_lines * Sh; // eq. 3.2
    ctx.quantity("M_l", "eq. 3.2",
                 "lines for S_h full rows; naive order keeps its rows in cache at or above this",
                 double(need_naive));
    if (!tile && !column) {
      if (M_l >= need_naive)
        ctx.fetch(FetchKind::estimate, double(row_lines * Ih), "§3.3.1",
                  "F = ceil((I_w+S_w)/L) I_h (eq. 3.2 holds)");
      else
        ctx.fetch(FetchKind::upper_bound, double(row_lines * Ih * Sh), "§3.3.1",
                  "F <= ceil((I_w+S_w)/L) I_h S_h (eq. 3.2 fails)");
    }
    // Tiling (§3.3.2): eq. 3.3-3.5; with rectangular tiles TW x TH the rows use TW, the rows of
    // tiles TH.
    const double t_max = double(L) * double(M_l) / double(Sh) - double(Sw); // eq. 3.4
    ctx.quantity("t_max", "eq. 3.4", "largest tile width whose S_h window rows fit in M_l", t_max);
    if (tile) {
      const int64_t tw = ctx.tile_w, th = ctx.tile_h;
      const int64_t need = ceil_div(tw + Sw, L) * Sh; // eq. 3.3
      ctx.quantity("M_l", "eq. 3.3", "lines for one tile row's S_h window rows", double(need));
      const double F =
          double(ceil_div(Iw, tw) * ceil_div(tw + Sw, L) * ceil_div(Ih, th) * (th + Sh));
      ctx.fetch(FetchKind::upper_bound, F, "eq. 3.5",
                "F <= ceil(I_w/t) ceil((t+S_w)/L) ceil(I_h/t) (t+S_h) (eq. 3.5)");
      if (M_l < need)
        ctx.note("eq. 3.3 fails (" + model_num(double(M_l)) + " < " + model_num(double(need)) +
                 " lines): window rows are evicted inside a tile, so eq. 3.5 no longer bounds F");
    }
    // Column-based iteration (§4.3).
    const double t = double(ctx.active_threads);
    const double c_suggest =
        (M_size - double(u) * (double(Sh * Sw) + t)) / (double(Sh) * double(u));
    ctx.quantity("c", "§4.3",
                 "suggested column width c = (M_size - u(S_h S_w + t)) / (S_h u), t = " +
                     model_num(t) + " active threads",
                 c_suggest);
    ctx.suggest(c_suggest);
    if (column) {
      const int64_t cw = std::min<int64_t>(ctx.column_width, Iw);
      const int64_t need = ceil_div(cw + Sw, L) * Sh;
      ctx.quantity("M_l", "eq. 3.3 with t = c", "lines for one column row's S_h window rows",
                   double(need));
      ctx.quantity("M_size", "§4.3", "bytes needed: u (c + S_w)(S_h + ceil(t/c))",
                   double(u) * double(cw + Sw) * (double(Sh) + std::ceil(t / double(cw))));
      ctx.fetch(FetchKind::upper_bound, double(ceil_div(Iw, cw) * ceil_div(cw + Sw, L) * (Ih + Sh)),
                "eq. 4.8", "F <= ceil(I_w/c) ceil((c+S_w)/L) (I_h+S_h) (eq. 4.8)");
      if (M_l < need)
        ctx.note("the column's window rows (" + model_num(double(need)) + " lines) exceed the " +
                 model_num(double(M_l)) +
                 "-line cache: rows are re-fetched, and eq. 4.8 assumes they are not");
      // A column window of c + S_w - 1 elements that starts mid-line touches more lines than the
      // ceil((c+S_w)/L) the model counts.
      int64_t worst_lines = 0;
      for (int64_t off = 0; off < Iw; off += cw) {
        const int64_t lo = std::max<int64_t>(0, off - Sw / 2),
                      hi = std::min(Iw - 1, off + cw - 1 + Sw / 2);
        worst_lines = std::max(worst_lines, (hi / L) - (lo / L) + 1);
      }
      ctx.quantity("F'", "eq. 4.8, straddle-corrected",
                   "eq. 4.8 with the lines a column's window row really touches (" +
                       model_num(double(worst_lines)) + ") in place of ceil((c+S_w)/L)",
                   double(ceil_div(Iw, cw) * worst_lines * (Ih + Sh)));
      if (worst_lines > ceil_div(cw + Sw, L))
        ctx.note(
            "a column's window row straddles " + model_num(double(worst_lines)) +
            " lines, more than the ceil((c+S_w)/L) = " + model_num(double(ceil_div(cw + Sw, L))) +
            " the model counts (column edges are not line-aligned)");
    }
  }
  static WindowColumn window_column(const Workload &w, int64_t x) {
    return {x, w.width, std::min(w.stencil_h, w.height)};
  }

  explicit StencilWorkload(const Workload &w) : m_w(w) {}

  int64_t loads() const { return m_w.stencil_w * m_w.stencil_h; }
  // Load j of task t: window row j / S_w, column j mod S_w (listing 3).
  MemAccess load(remap::Task<int64_t> t, int64_t j) const {
    const int64_t rx = m_w.stencil_w / 2, ry = m_w.stencil_h / 2;
    const int64_t dy = j / m_w.stencil_w - ry, dx = j % m_w.stencil_w - rx;
    int64_t elem;
    if (m_w.boundary == Boundary::none) {
      elem = (t.y + dy + ry) * m_w.width + (t.x + dx + rx);
    } else {
      const int64_t i = std::min(m_w.height - 1, std::max<int64_t>(0, t.y + dy));
      const int64_t k = std::min(m_w.width - 1, std::max<int64_t>(0, t.x + dx));
      elem = i * m_w.width + k;
    }
    return {static_cast<uint64_t>(elem * m_w.elem_bytes), m_w.elem_bytes, false};
  }

  // load(lanes[l], j) for l < n, with the window offset of load j computed once (the GPU model's
  // per-warp path; tests/sim/test_gpu_model.cpp checks it against load()).
  void lane_loads(const remap::Task<int64_t> *lanes, int n, int64_t j, uint64_t *byte_addr) const {
    const int64_t rx = m_w.stencil_w / 2, ry = m_w.stencil_h / 2;
    const int64_t dy = j / m_w.stencil_w - ry, dx = j % m_w.stencil_w - rx;
    const int64_t eb = m_w.elem_bytes;
    if (m_w.boundary == Boundary::none) {
      for (int l = 0; l < n; ++l)
        byte_addr[l] = static_cast<uint64_t>(
            ((lanes[l].y + dy + ry) * m_w.width + (lanes[l].x + dx + rx)) * eb);
      return;
    }
    for (int l = 0; l < n; ++l) {
      const int64_t i = std::min(m_w.height - 1, std::max<int64_t>(0, lanes[l].y + dy));
      const int64_t k = std::min(m_w.width - 1, std::max<int64_t>(0, lanes[l].x + dx));
      byte_addr[l] = static_cast<uint64_t>((i * m_w.width + k) * eb);
    }
  }

  // The sequential replay's fast path: the loads of one task as runs of consecutive accesses to one
  // unit of `unit_bytes` (sink(unit, count)); the same runs as merging load(t, 0..) unit by unit
  // (tests/sim/test_workload.cpp checks this). A clamped row is a contiguous span plus repeats of
  // its ends, and when a row is a whole number of units every row repeats one pattern of runs, so a
  // thread builds it once.
  class Runs {
  public:
    Runs(const Workload &w, int64_t unit_bytes)
        : m_w(w), m_elems_per_unit(unit_bytes / w.elem_bytes) {
      const int64_t epu = m_elems_per_unit;
      m_unit_shift =
          epu > 0 && (epu & (epu - 1)) == 0 ? __builtin_ctzll(static_cast<uint64_t>(epu)) : -1;
      m_row_units = epu > 0 && w.width % epu == 0 ? static_cast<uint64_t>(w.width / epu) : 0;
      // A row touches at most S_w units, plus one run per clamped end.
      m_pattern_unit.resize(static_cast<std::size_t>(w.stencil_w) + 2);
      m_pattern_count.resize(m_pattern_unit.size());
    }

    template <class Sink> void thread(int64_t x, int64_t y, Sink sink) {
      const int64_t rx = m_w.stencil_w / 2, ry = m_w.stencil_h / 2;
      if (m_row_units > 0) { // fast path: one pattern per thread, replayed on every row
        build_row_pattern(x);
        const int runs = m_pattern_runs;
        for (int64_t dy = -ry; dy <= ry; ++dy) {
          const int64_t row = m_w.boundary == Boundary::none
                                  ? y + dy + ry
                                  : std::min(m_w.height - 1, std::max<int64_t>(0, y + dy));
          const uint64_t row_unit = static_cast<uint64_t>(row) * m_row_units;
          for (int k = 0; k < runs; ++k)
            sink(row_unit + m_pattern_unit[k], m_pattern_count[k]);
        }
        return;
      }
      for (int64_t dy = -ry; dy <= ry; ++dy) {
        if (m_w.boundary == Boundary::none) {
          // Unclamped, shifted so the lowest address (-ry*I_w - rx) is 0.
          emit_span((y + dy + ry) * m_w.width + (x - rx) + rx, m_w.stencil_w, sink);
          continue;
        }
        const int64_t row = std::min(m_w.height - 1, std::max<int64_t>(0, y + dy));
        const int64_t lo = x - rx, hi = x + rx;
        const int64_t first = std::max<int64_t>(0, lo), last = std::min(m_w.width - 1, hi);
        const int64_t left_repeats = first - lo, right_repeats = hi - last;
        const int64_t base = row * m_w.width;
        if (left_repeats > 0)
          sink(unit_of(base + first), left_repeats);
        emit_span(base + first, last - first + 1, sink);
        if (right_repeats > 0)
          sink(unit_of(base + last), right_repeats);
      }
    }

  private:
    uint64_t unit_of(int64_t elem) const {
      const uint64_t e = static_cast<uint64_t>(elem);
      return m_unit_shift >= 0 ? e >> m_unit_shift : e / static_cast<uint64_t>(m_elems_per_unit);
    }

    // `count` accesses to consecutive elements first..first+count-1, split into unit runs.
    template <class Sink> void emit_span(int64_t first, int64_t count, Sink sink) {
      const int64_t last = first + count - 1;
      uint64_t u = unit_of(first);
      const uint64_t u_last = unit_of(last);
      if (u == u_last) {
        sink(u, count);
        return;
      }
      const int64_t epu = m_elems_per_unit;
      sink(u, static_cast<int64_t>(u + 1) * epu - first);
      for (++u; u < u_last; ++u)
        sink(u, epu);
      sink(u_last, last - static_cast<int64_t>(u_last) * epu + 1);
    }

    // Appends a run to the row pattern, merging it with the previous run on the same unit.
    void pattern_add(uint64_t unit, int64_t count) {
      if (m_pattern_runs > 0 && m_pattern_unit[m_pattern_runs - 1] == unit) {
        m_pattern_count[m_pattern_runs - 1] += count;
        return;
      }
      m_pattern_unit[m_pattern_runs] = unit;
      m_pattern_count[m_pattern_runs] = count;
      ++m_pattern_runs;
    }

    // The runs one row produces, relative to the row's first unit.
    void build_row_pattern(int64_t x) {
      const int64_t rx = m_w.stencil_w / 2;
      m_pattern_runs = 0;
      if (m_w.boundary == Boundary::none) { // row offset x - rx, shifted right by rx
        const int64_t last = x + m_w.stencil_w - 1;
        for (uint64_t u = unit_of(x); u <= unit_of(last); ++u) {
          const int64_t lo = std::max<int64_t>(x, static_cast<int64_t>(u) * m_elems_per_unit);
          const int64_t hi =
              std::min<int64_t>(last, static_cast<int64_t>(u + 1) * m_elems_per_unit - 1);
          pattern_add(u, hi - lo + 1);
        }
        return;
      }
      // Listing 3: j = min(I_w-1, max(0, x+dx)): a contiguous span plus repeats of its ends.
      const int64_t lo = x - rx, hi = x + rx;
      const int64_t first = std::max<int64_t>(0, lo), last = std::min(m_w.width - 1, hi);
      if (first > lo)
        pattern_add(unit_of(first), first - lo);
      for (uint64_t u = unit_of(first); u <= unit_of(last); ++u) {
        const int64_t a = std::max<int64_t>(first, static_cast<int64_t>(u) * m_elems_per_unit);
        const int64_t b =
            std::min<int64_t>(last, static_cast<int64_t>(u + 1) * m_elems_per_unit - 1);
        pattern_add(u, b - a + 1);
      }
      if (hi > last)
        pattern_add(unit_of(last), hi - last);
    }

    Workload m_w;
    int64_t m_elems_per_unit;
    int m_unit_shift;     // log2(m_elems_per_unit) when a power of two, else -1
    uint64_t m_row_units; // units per input row when a row is a whole number of units, else 0
    std::vector<uint64_t> m_pattern_unit; // unit (relative to the row) per run
    std::vector<int64_t> m_pattern_count;
    int m_pattern_runs = 0;
  };

private:
  Workload m_w;
};

} // namespace cbi::sim
