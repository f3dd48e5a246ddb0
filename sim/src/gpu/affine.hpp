// The coalescer's per-warp fast path (coalescer.hpp): workloads whose lane l reads, at
// instruction j, base_l + offset_j bytes. Written from the workloads' own address formulas
// (sim/include/cbi/sim/workloads/); the golden predictions (tests/sim/test_gpu_golden.cpp) and the
// tiny device's sequential equivalence check that the fast path changes no count.
#pragma once

#include "cbi/sim/workloads.hpp"

#include <cstdint>
#include <vector>

namespace cbi::sim::gpu {

// No fast path: the coalescer takes every lane's address.
template <class W> struct Affine {
  static constexpr int kClasses = 0;
  explicit Affine(const Workload &) {}
};

// Matmul (listing 4): load j reads A[y*D + j/2] for even j and B[(j/2)*I_w + x] for odd j; the
// class is the matrix.
template <> struct Affine<MatmulWorkload> {
  static constexpr int kClasses = 2;
  explicit Affine(const Workload &w)
      : m_depth(w.depth), m_width(w.width), m_elem_bytes(w.elem_bytes),
        m_b_base_elems(w.height * w.depth) {}
  bool applies(const remap::Task<int64_t> *, int) const { return true; }
  static int class_of(int64_t j) { return static_cast<int>(j & 1); }
  int64_t offset(int64_t j) const {
    const int64_t i = j >> 1;
    return ((j & 1) ? m_b_base_elems + i * m_width : i) * m_elem_bytes;
  }
  int64_t base(const remap::Task<int64_t> &t, int cls) const {
    return (cls ? t.x : t.y * m_depth) * m_elem_bytes;
  }
  int64_t m_depth, m_width, m_elem_bytes, m_b_base_elems;
};

// Stencil (listing 3): load j reads window row j / S_w, column j mod S_w around the task; always
// base + offset without a boundary, and with clamping when no lane's window reaches past an edge.
template <> struct Affine<StencilWorkload> {
  static constexpr int kClasses = 1;
  explicit Affine(const Workload &w) : m_w(w) {
    // Load j's offset, a table: no division per request.
    const int64_t rx = w.stencil_w / 2, ry = w.stencil_h / 2;
    m_offsets.resize(static_cast<std::size_t>(w.stencil_w * w.stencil_h));
    for (int64_t j = 0; j < w.stencil_w * w.stencil_h; ++j) {
      int64_t dy = j / w.stencil_w - ry, dx = j % w.stencil_w - rx;
      if (w.boundary == Boundary::none) {
        dy += ry;
        dx += rx;
      }
      m_offsets[static_cast<std::size_t>(j)] = (dy * w.width + dx) * w.elem_bytes;
    }
  }
  bool applies(const remap::Task<int64_t> *lanes, int n) const {
    if (m_w.boundary == Boundary::none)
      return true;
    const int64_t rx = m_w.stencil_w / 2, ry = m_w.stencil_h / 2;
    for (int l = 0; l < n; ++l)
      if (lanes[l].x < rx || lanes[l].x + rx >= m_w.width || lanes[l].y < ry ||
          lanes[l].y + ry >= m_w.height)
        return false;
    return true;
  }
  static int class_of(int64_t) { return 0; }
  int64_t offset(int64_t j) const { return m_offsets[static_cast<std::size_t>(j)]; }
  int64_t base(const remap::Task<int64_t> &t, int) const {
    return (t.y * m_w.width + t.x) * m_w.elem_bytes;
  }
  Workload m_w;
  std::vector<int64_t> m_offsets; // per load j
};

} // namespace cbi::sim::gpu
