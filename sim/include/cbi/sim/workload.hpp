// Workloads: the memory accesses of the thesis's stencil (listing 3) and matmul (listing 4) kernels,
// generated lazily, thread by thread, in the order a thread order (remap/) visits the tasks. Memory
// use is bounded by one thread's accesses, never by the trace.
#pragma once

#include "cbi/remap/order.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace cbi::sim {

enum class WorkloadKind { stencil, matmul };
enum class Boundary { clamp, none };
enum class Granularity { exact, thread };

struct Workload {
  WorkloadKind kind = WorkloadKind::stencil;
  int64_t width = 16;    // I_w: tasks (output elements) per row
  int64_t height = 16;   // I_h: rows of tasks
  int64_t stencil_w = 7; // S_w (stencil only, odd)
  int64_t stencil_h = 7; // S_h (stencil only, odd)
  int64_t depth = 16;    // D (matmul only): A is I_h x D, B is D x I_w
  int elem_bytes = 4;    // 2, 4 or 8: half, float, double
  Boundary boundary = Boundary::clamp; // stencil only
  bool writes = false;   // also emit each task's output store

  int64_t tasks() const { return width * height; }
  // Loads (and stores, if writes) of the whole trace in exact granularity.
  int64_t accesses() const;
  // Bytes spanned by the inputs (and output if writes), from address 0.
  int64_t footprint_bytes() const;
  // Byte address where the output array starts (after all inputs).
  int64_t output_base_bytes() const;
  std::string describe() const; // "stencil 9x9 on 1024x1024 float, clamp"
};

// Throws UsageError (naming the option) for sizes that are zero, even stencils, a trace whose access
// count or addresses would overflow 63 bits, and element sizes other than 2, 4, 8.
void validate(const Workload &w);

const char *elem_type_name(int elem_bytes); // "half", "float", "double"

// Generates one thread's accesses as runs of `count` consecutive element accesses that fall into the
// same cache unit (line or sector) of `unit_bytes`: sink(unit, count, is_write). Consecutive
// accesses to one unit are what makes the simulator fast: after the first, they are hits that leave
// every policy's state unchanged (the unit is already most recent), so the cache sees them once.
//
// Exact granularity keeps program order: stencil rows dy = -r..r (outer), dx = -r..r (inner);
// matmul A[y*D+i] then B[i*I_w+x] for i = 0..D-1. Thread granularity (§3.2) collapses the thread's
// accesses to its distinct units in ascending address order, each with count 1.
class AccessGenerator {
public:
  AccessGenerator(const Workload &w, int64_t unit_bytes, Granularity g);

  template <class Sink> void thread(int64_t x, int64_t y, Sink &&sink) {
    if (m_granularity == Granularity::thread) {
      m_units.clear();
      emit(x, y, [this](uint64_t unit, int64_t, bool) { m_units.push_back(unit); });
      std::sort(m_units.begin(), m_units.end());
      m_units.erase(std::unique(m_units.begin(), m_units.end()), m_units.end());
      for (uint64_t u : m_units)
        sink(u, int64_t{1}, false);
      if (m_w.writes)
        sink(m_write_unit, int64_t{1}, true);
      return;
    }
    emit(x, y, sink);
  }

private:
  template <class Sink> void emit(int64_t x, int64_t y, Sink &&sink) {
    if (m_w.kind == WorkloadKind::stencil)
      emit_stencil(x, y, sink);
    else
      emit_matmul(x, y, sink);
    if (m_w.writes)
      m_write_unit = unit_of(m_output_base_elems + y * m_w.width + x);
    if (m_w.writes && m_granularity == Granularity::exact)
      sink(m_write_unit, int64_t{1}, true);
  }

  uint64_t unit_of(int64_t elem) const {
    const uint64_t e = static_cast<uint64_t>(elem);
    return m_unit_shift >= 0 ? e >> m_unit_shift : e / static_cast<uint64_t>(m_elems_per_unit);
  }

  // `count` accesses to consecutive elements first..first+count-1, split into unit runs.
  template <class Sink> void emit_span(int64_t first, int64_t count, Sink &sink) {
    const int64_t last = first + count - 1;
    uint64_t u = unit_of(first);
    const uint64_t u_last = unit_of(last);
    if (u == u_last) {
      sink(u, count, false);
      return;
    }
    const int64_t epu = m_elems_per_unit;
    sink(u, static_cast<int64_t>(u + 1) * epu - first, false);
    for (++u; u < u_last; ++u)
      sink(u, epu, false);
    sink(u_last, last - static_cast<int64_t>(u_last) * epu + 1, false);
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

  // The runs one stencil row produces, relative to the row's first unit: the same for every row
  // when a row is a whole number of units (m_row_units > 0), so a thread computes them once.
  void build_row_pattern(int64_t x) {
    const int64_t rx = m_w.stencil_w / 2;
    m_pattern_runs = 0;
    if (m_w.boundary == Boundary::none) { // row offset x - rx, shifted right by rx
      const int64_t last = x + m_w.stencil_w - 1;
      for (uint64_t u = unit_of(x); u <= unit_of(last); ++u) {
        const int64_t lo = std::max<int64_t>(x, static_cast<int64_t>(u) * m_elems_per_unit);
        const int64_t hi = std::min<int64_t>(last, static_cast<int64_t>(u + 1) * m_elems_per_unit - 1);
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
      const int64_t b = std::min<int64_t>(last, static_cast<int64_t>(u + 1) * m_elems_per_unit - 1);
      pattern_add(u, b - a + 1);
    }
    if (hi > last)
      pattern_add(unit_of(last), hi - last);
  }

  template <class Sink> void emit_stencil(int64_t x, int64_t y, Sink &sink) {
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
          sink(row_unit + m_pattern_unit[k], m_pattern_count[k], false);
      }
      return;
    }
    for (int64_t dy = -ry; dy <= ry; ++dy) {
      if (m_w.boundary == Boundary::none) {
        // Unclamped, shifted so the lowest address (-ry*I_w - rx) is 0.
        emit_span((y + dy + ry) * m_w.width + (x - rx) + rx, m_w.stencil_w, sink);
        continue;
      }
      // Listing 3: i = min(I_h-1, max(0, y+dy)), j = min(I_w-1, max(0, x+dx)). The clamped row is
      // a contiguous span plus repeats of its first and last element.
      const int64_t row = std::min(m_w.height - 1, std::max<int64_t>(0, y + dy));
      const int64_t lo = x - rx, hi = x + rx;
      const int64_t first = std::max<int64_t>(0, lo), last = std::min(m_w.width - 1, hi);
      const int64_t left_repeats = first - lo, right_repeats = hi - last;
      const int64_t base = row * m_w.width;
      if (left_repeats > 0)
        sink(unit_of(base + first), left_repeats, false);
      emit_span(base + first, last - first + 1, sink);
      if (right_repeats > 0)
        sink(unit_of(base + last), right_repeats, false);
    }
  }

  template <class Sink> void emit_matmul(int64_t x, int64_t y, Sink &sink) {
    // Listing 4: result += a[y*depth + i] * b[x + i*width]; B starts right after A.
    const int64_t a_row = y * m_w.depth;
    for (int64_t i = 0; i < m_w.depth; ++i) {
      sink(unit_of(a_row + i), int64_t{1}, false);
      sink(unit_of(m_b_base_elems + i * m_w.width + x), int64_t{1}, false);
    }
  }

  Workload m_w;
  Granularity m_granularity;
  int64_t m_elems_per_unit;
  int m_unit_shift;    // log2(m_elems_per_unit) when a power of two, else -1
  uint64_t m_row_units; // units per input row when a row is a whole number of units, else 0
  std::vector<uint64_t> m_pattern_unit; // build_row_pattern: unit (relative to the row) per run
  std::vector<int64_t> m_pattern_count;
  int m_pattern_runs = 0;
  int64_t m_b_base_elems;
  int64_t m_output_base_elems;
  uint64_t m_write_unit = 0;
  std::vector<uint64_t> m_units;
};

} // namespace cbi::sim
