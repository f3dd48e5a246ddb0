// CTA dispatch: which CTA goes to which SM slot, and when. The first wave is dealt in index order,
// one CTA per SM per round, until every SM holds its occupancy; the device's launcher hands out
// one CTA per cta_dispatch_cycles. A slot that frees up takes the next CTA index at once, so CTAs
// are handed out in the order slots free up device-wide (the H100 probe: docs/results/
// gpu-model-h100.md). In sampled mode a simulated SM stands for `group` SMs and skips the CTAs
// that the others take.
#pragma once

#include <algorithm>
#include <cstdint>

namespace cbi::sim::gpu {

class CtaDispatcher {
public:
  // `ctas` in the launch, `sms` on the device, `ctas_per_sm` resident at once, `group` device SMs
  // per simulated SM.
  CtaDispatcher(int64_t ctas, int64_t sms, int64_t ctas_per_sm, int64_t group)
      : m_ctas(ctas), m_ctas_per_sm(ctas_per_sm), m_group(group),
        m_round(std::min<int64_t>(sms, ctas)) {}

  // The SMs that get a CTA in the first wave's round, divided among the simulated ones.
  int simulated_sms() const { return static_cast<int>((m_round + m_group - 1) / m_group); }

  // The first wave: f(simulated SM, slot, cta, start cycle) for every CTA of it, slot by slot.
  // Sampled SM s is the device's SM s * group and gets that SM's CTAs.
  template <class F> void first_wave(int64_t dispatch_cycles, F &&f) {
    const int sms = simulated_sms();
    for (int64_t slot = 0; slot < m_ctas_per_sm; ++slot)
      for (int s = 0; s < sms; ++s) {
        const int64_t cta = slot * m_round + int64_t(s) * m_group;
        if (cta < m_ctas) {
          // The device's CTA launcher hands out one CTA per cta_dispatch_cycles: the first wave
          // starts over about a microsecond on the H100 (docs/results/gpu-model-h100.md).
          f(s, static_cast<int>(slot), cta, cta * dispatch_cycles);
          ++m_live;
        }
      }
    m_next = std::min(m_ctas, m_ctas_per_sm * m_round);
  }

  // A CTA ended; if one is left, its slot takes the next CTA index (returns false otherwise).
  bool refill(int64_t &cta) {
    ++m_done;
    --m_live;
    if (m_next >= m_ctas)
      return false;
    cta = m_next;
    ++m_live;
    m_next = std::min(m_ctas, m_next + step());
    return true;
  }

  int64_t live() const { return m_live; } // given to an SM (running or about to start), not done
  int64_t done() const { return m_done; }
  int64_t ctas() const { return m_ctas; }

private:
  // CTAs to skip after a sampled SM takes one: the SMs it stands for take the others. Drawn from
  // 1..2*group-1 (mean: group), not a fixed group: a fixed stride aliases with the workload's own
  // periods (with group 4, linear matmul 1024 gives an SM CTAs of one quarter of B only, 17 points
  // of L1 hit rate too many: tests/sim/test_gpu_model.cpp).
  int64_t step() {
    if (m_group == 1)
      return 1;
    m_rng ^= m_rng << 13;
    m_rng ^= m_rng >> 7;
    m_rng ^= m_rng << 17;
    return 1 + static_cast<int64_t>(m_rng % static_cast<uint64_t>(2 * m_group - 1));
  }

  int64_t m_ctas, m_ctas_per_sm, m_group, m_round;
  int64_t m_next = 0, m_live = 0, m_done = 0;
  uint64_t m_rng = 0x2545F4914F6CDD1Dull; // xorshift64, fixed seed
};

} // namespace cbi::sim::gpu
