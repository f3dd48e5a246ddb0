// Warp scheduling on one SM: warps wait on a timing wheel until their data is there, then join
// the ready set; each cycle the SM issues the warp the device's policy picks (cbi/sim/device.hpp's
// WarpScheduler): a ready warp of the oldest CTA (its warps taking turns), or the warp ready
// longest.
#pragma once

#include "cbi/sim/device.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace cbi::sim::gpu {

class WarpScheduler {
public:
  static constexpr int kWheel = 4096; // cycles a warp can be scheduled ahead; longer waits clamp

  // `warps`: resident warp slots (CTA slot * warps_per_cta + warp); oldest-CTA-first keeps the
  // ready warps in one 64-bit mask, so more than 64 slots fall back to the longest-ready order.
  WarpScheduler(sim::WarpScheduler policy, int warps, int warps_per_cta)
      : m_oldest_first(policy == sim::WarpScheduler::oldest_cta_first && warps <= 64),
        m_warps_per_cta(warps_per_cta) {
    m_wheel_next.assign(static_cast<std::size_t>(warps), -1);
    m_wheel.assign(kWheel, -1);
    m_fifo.assign(static_cast<std::size_t>(warps), 0);
    m_turn.assign(static_cast<std::size_t>((warps + warps_per_cta - 1) / warps_per_cta), 0);
  }

  // The cycle at which a warp scheduled at `now` for `when` becomes ready: at least next cycle, at
  // most the wheel's horizon.
  static int64_t due(int64_t when, int64_t now) {
    return std::min(std::max(when, now + 1), now + kWheel - 1);
  }

  // Warp `id` becomes ready at `when` (due(when, now)).
  void schedule(int id, int64_t when, int64_t now) {
    const int64_t at = due(when, now);
    int &head = m_wheel[static_cast<std::size_t>(at % kWheel)];
    m_wheel_next[static_cast<std::size_t>(id)] = head;
    head = id;
  }

  // The warps whose wait ends at `now` join the ready set.
  [[gnu::always_inline]] void wake(int64_t now) {
    int &head = m_wheel[static_cast<std::size_t>(now % kWheel)];
    for (int id = head; id >= 0;) {
      const int next = m_wheel_next[static_cast<std::size_t>(id)];
      make_ready(id);
      id = next;
    }
    head = -1;
  }

  void make_ready(int id) {
    if (m_oldest_first)
      m_ready |= uint64_t{1} << id;
    else
      m_fifo[(m_fifo_head + m_fifo_size++) % m_fifo.size()] = id;
  }

  // A CTA starts in `slot`: it is now the youngest.
  void cta_started(int slot) {
    if (!m_oldest_first)
      return;
    m_age.erase(std::remove(m_age.begin(), m_age.end(), slot), m_age.end());
    m_age.push_back(slot);
    m_turn[static_cast<std::size_t>(slot)] = 0;
  }

  // The next warp to issue, or -1: the one ready longest (loose round-robin), or a ready warp of
  // the oldest CTA (oldest-CTA-first, as greedy-then-oldest schedulers prefer old warps).
  [[gnu::always_inline]] int pick() {
    if (!m_oldest_first) {
      if (m_fifo_size == 0)
        return -1;
      const int id = m_fifo[m_fifo_head];
      m_fifo_head = (m_fifo_head + 1) % m_fifo.size();
      --m_fifo_size;
      return id;
    }
    if (!m_ready)
      return -1;
    const uint64_t slot_mask =
        m_warps_per_cta >= 64 ? ~uint64_t{0} : (uint64_t{1} << m_warps_per_cta) - 1;
    for (int slot : m_age) {
      const uint64_t bits = (m_ready >> (slot * m_warps_per_cta)) & slot_mask;
      if (bits) {
        // The CTA's warps take turns: the first ready warp at or after the one after its last
        // pick, so that they stay in step (the H100's warps of a CTA reach each k of a matmul
        // within 1-3% of its run time: docs/results/tight/probes.md §4).
        int &turn = m_turn[static_cast<std::size_t>(slot)];
        const uint64_t later = bits & (~uint64_t{0} << turn);
        const int w = __builtin_ctzll(later ? later : bits);
        turn = w + 1 < m_warps_per_cta ? w + 1 : 0;
        const int id = slot * m_warps_per_cta + w;
        m_ready &= ~(uint64_t{1} << id);
        return id;
      }
    }
    return -1;
  }

private:
  bool m_oldest_first;
  int m_warps_per_cta;
  std::vector<int> m_wheel;      // kWheel slots: first warp that becomes ready then
  std::vector<int> m_wheel_next; // per warp: next warp in the same wheel slot
  std::vector<int> m_fifo;       // ring of ready warps, oldest first
  std::size_t m_fifo_head = 0, m_fifo_size = 0;
  uint64_t m_ready = 0;    // oldest-CTA-first: bit id = warp id is ready
  std::vector<int> m_age;  // oldest-CTA-first: CTA slots, the oldest CTA first
  std::vector<int> m_turn; // oldest-CTA-first: per CTA slot, the warp its next pick starts at
};

} // namespace cbi::sim::gpu
