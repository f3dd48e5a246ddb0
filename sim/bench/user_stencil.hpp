// The 2-D stencil of listing 3 written as a workload of your own (cbi/sim/user_workload.hpp), the
// way a user outside cbi would write it: sim_bench measures it beside the built-in, and
// tests/sim/test_user_workload.cpp checks that every engine gives the built-in's counts.
#pragma once

#include "cbi/sim/user_workload.hpp"

#include <algorithm>
#include <string>

namespace cbi::bench {

class UserStencil : public sim::UserWorkload {
public:
  // An I_w x I_h input of elem_bytes elements, an S_w x S_h window, clamped coordinates; with
  // `store`, each task then stores its output after the input (from byte I_w I_h elem_bytes).
  // With `spans`, the sequential engines take each task's window as row spans (spans()); without,
  // they ask addresses() for every instruction.
  UserStencil(int64_t width, int64_t height, int64_t stencil_w, int64_t stencil_h, int elem_bytes,
              bool store, bool spans = true)
      : m_w(width), m_h(height), m_sw(stencil_w), m_sh(stencil_h), m_eb(elem_bytes), m_store(store),
        m_spans(spans) {}

  std::string describe() const override {
    return "user stencil " + std::to_string(m_sw) + "x" + std::to_string(m_sh) + " on " +
           std::to_string(m_w) + "x" + std::to_string(m_h);
  }
  std::vector<int64_t> task_dims() const override { return {m_w, m_h}; }
  int64_t instructions() const override { return m_sw * m_sh + (m_store ? 1 : 0); }
  int64_t footprint_bytes() const override { return m_w * m_h * m_eb * (m_store ? 2 : 1); }

  sim::InstructionKind addresses(const remap::Task<int64_t> *t, int lanes, int64_t j,
                                 uint64_t *byte_addr) const override {
    const int32_t eb = m_eb;
    if (j == m_sw * m_sh) { // the output store
      const uint64_t base = static_cast<uint64_t>(m_w * m_h * m_eb);
      for (int l = 0; l < lanes; ++l)
        byte_addr[l] = base + static_cast<uint64_t>((t[l].y * m_w + t[l].x) * m_eb);
      return {true, eb};
    }
    // Window row j / S_w, column j mod S_w, computed once for the batch.
    const int64_t dy = j / m_sw - m_sh / 2, dx = j % m_sw - m_sw / 2;
    for (int l = 0; l < lanes; ++l) {
      const int64_t i = std::min(m_h - 1, std::max<int64_t>(0, t[l].y + dy));
      const int64_t k = std::min(m_w - 1, std::max<int64_t>(0, t[l].x + dx));
      byte_addr[l] = static_cast<uint64_t>((i * m_w + k) * m_eb);
    }
    return {false, eb};
  }

  // Per window row: the clamped left edge repeated, the row's span, the right edge repeated.
  int64_t max_spans() const override { return m_spans ? 3 * m_sh + 1 : 0; }
  int spans(remap::Task<int64_t> t, sim::AccessSpan *out) const override {
    int n = 0;
    const int64_t rx = m_sw / 2, ry = m_sh / 2;
    const int64_t lo = t.x - rx, hi = t.x + rx;
    const int64_t first = std::max<int64_t>(0, lo), last = std::min(m_w - 1, hi);
    for (int64_t dy = -ry; dy <= ry; ++dy) {
      const int64_t row = std::min(m_h - 1, std::max<int64_t>(0, t.y + dy)) * m_w;
      const uint64_t a = static_cast<uint64_t>((row + first) * m_eb);
      if (first > lo)
        out[n++] = {a, 0, first - lo, m_eb, false};
      out[n++] = {a, m_eb, last - first + 1, m_eb, false};
      if (hi > last)
        out[n++] = {static_cast<uint64_t>((row + last) * m_eb), 0, hi - last, m_eb, false};
    }
    if (m_store)
      out[n++] = {static_cast<uint64_t>((m_w * m_h + t.y * m_w + t.x) * m_eb), 0, 1, m_eb, true};
    return n;
  }

private:
  int64_t m_w, m_h, m_sw, m_sh;
  int m_eb;
  bool m_store, m_spans;
};

} // namespace cbi::bench
