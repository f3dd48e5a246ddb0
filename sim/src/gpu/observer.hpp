// The observer's side of the replay: turns one watched SM's requests into GpuSectorEvents
// (cbi/sim/gpu_model.hpp), one per sector, in issue order. Unwatched, the replay pays one test per
// request.
#pragma once

#include "cbi/sim/gpu_model.hpp"
#include "sector_cache.hpp"

#include <cstdint>

namespace cbi::sim::gpu {

class SectorEvents {
public:
  // `observer` may be null or have no callback (then nothing is watched); `group`: device SMs per
  // simulated SM, so simulated SM s is the device's SM s * group.
  SectorEvents(const GpuObserver *observer, int64_t group, int line_shift, int sector_shift)
      : m_observer(observer && observer->on_sector ? observer : nullptr), m_group(group),
        m_line_shift(line_shift), m_sector_shift(sector_shift) {}

  bool active() const { return m_observer != nullptr; }
  bool watches(int sm) const { return m_observer && sm * m_group == m_observer->sm; }

  // A request of the watched SM begins.
  void begin(int64_t now, int sm, int64_t cta, int warp, int64_t instruction) {
    m_event.cycle = now;
    m_event.issue = m_issues++;
    m_event.sm = static_cast<int>(sm * m_group);
    m_event.cta = cta;
    m_event.warp = warp;
    m_event.instruction = instruction;
  }

  // One event per sector of `mask` in L1 line `line`.
  void line(uint64_t line, uint32_t mask, const SectorCache::Result &r, uint32_t l2_miss) {
    m_event.line_byte_addr = line << m_line_shift;
    for (uint32_t m = mask; m; m &= m - 1) {
      const int sec = __builtin_ctz(m);
      const uint32_t bit = 1u << sec;
      m_event.sector_byte_addr = m_event.line_byte_addr + (uint64_t(sec) << m_sector_shift);
      m_event.l1 = (r.miss & bit)      ? L1Outcome::miss
                   : (r.pending & bit) ? L1Outcome::pending_hit
                                       : L1Outcome::hit;
      m_event.l2_hit = (r.miss & bit) && !(l2_miss & bit);
      m_observer->on_sector(m_event);
    }
  }

private:
  const GpuObserver *m_observer; // null when off
  int64_t m_group;
  int m_line_shift, m_sector_shift;
  int64_t m_issues = 0;
  GpuSectorEvent m_event;
};

} // namespace cbi::sim::gpu
