// Warp scheduling on one SM: warps wait on a timing wheel until their data is there, then join
// the ready set; each cycle the SM issues the warp the device's policy picks (cbi/sim/device.hpp's
// WarpScheduler): a ready warp of the oldest CTA (its warps taking turns), or the warp ready
// longest.
#pragma once

#include "cbi/error.hpp"
#include "cbi/sim/device.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace cbi::sim::gpu {

class WarpScheduler {
public:
  static constexpr int kWheel = 4096; // cycles a warp can be scheduled ahead; longer waits clamp

  // `warps`: resident warp slots (CTA slot * warps_per_cta + warp); oldest-CTA-first keeps the
  // ready warps in one 64-bit mask, so more than 64 slots fall back to the longest-ready order.
  // `issue_cycles_per_load` (oldest_issues_first only; 0: no issue stage): the SM-cycles its warp
  // schedulers take to issue a warp's instructions up to and including its next load.
  WarpScheduler(sim::WarpScheduler policy, int warps, int warps_per_cta,
                double issue_cycles_per_load = 0)
      : m_issue_stage(policy == sim::WarpScheduler::oldest_issues_first && warps <= 64 &&
                      issue_cycles_per_load > 0),
        m_oldest_first((policy == sim::WarpScheduler::oldest_cta_first && warps <= 64) ||
                       m_issue_stage),
        m_warps_per_cta(warps_per_cta), m_issue_cycles(issue_cycles_per_load) {
    if (warps > INT16_MAX)
      throw UsageError("gpu.block_threads", "more than 32767 resident warps per SM");
    m_wheel_next.assign(static_cast<std::size_t>(warps), -1);
    m_wheel.assign(kWheel, -1);
    // The ring of ready warps: a power of two of at least `warps` places, indexed by a mask.
    std::size_t ring = 1;
    while (ring < static_cast<std::size_t>(warps))
      ring *= 2;
    m_fifo.assign(ring, 0);
    m_fifo_mask = ring - 1;
    if (m_oldest_first) {
      m_slots = warps / warps_per_cta;
      m_place.resize(static_cast<std::size_t>(warps));
      m_warp_at.assign(64, -1);
      m_slot_at.assign(64, 0);
      m_cta_base.assign(64, 0);
      m_turn.assign(static_cast<std::size_t>(m_slots), 0);
      place_warps();
    }
  }

  // The cycle at which a warp scheduled at `now` for `when` becomes ready: at least next cycle, at
  // most the wheel's horizon.
  static int64_t due(int64_t when, int64_t now) {
    return std::min(std::max(when, now + 1), now + kWheel - 1);
  }

  // Warp `id` becomes ready at `when` (due(when, now)).
  void schedule(int id, int64_t when, int64_t now) {
    const int64_t at = due(when, now);
    const std::size_t slot = static_cast<std::size_t>(at) % kWheel; // at >= 0
    int16_t &head = m_wheel[slot];
    m_wheel_next[static_cast<std::size_t>(id)] = head;
    head = static_cast<int16_t>(id);
    m_occupied[slot / 64] |= uint64_t{1} << (slot % 64);
  }

  // The warps whose wait ends at `now` join the ready set.
  [[gnu::always_inline]] void wake(int64_t now) {
    const std::size_t slot = static_cast<std::size_t>(now) % kWheel; // now >= 0
    uint64_t &word = m_occupied[slot / 64];
    const uint64_t bit = uint64_t{1} << (slot % 64);
    if (!(word & bit))
      return;
    word &= ~bit;
    int16_t &head = m_wheel[slot];
    for (int id = head; id >= 0;) {
      const int next = m_wheel_next[static_cast<std::size_t>(id)];
      make_ready(id);
      id = next;
    }
    head = -1;
  }

  // Whether this scheduler has the issue stage (oldest_issues_first with a measured count).
  bool has_issue_stage() const { return m_issue_stage; }

  // Whether a warp is ready to issue (the issue stage: whose load waits for the L1).
  bool has_ready() const {
    return m_oldest_first && !m_issue_stage ? m_ready != 0 : m_fifo_size > 0;
  }

  // The issue stage (oldest_issues_first): at `now`, the warp whose instructions were being issued
  // passes its load to the L1's queue if they are done, and the oldest CTA's ready warp starts
  // issuing if the schedulers are free, as many as finish by `now`. Call after wake(now), at every
  // cycle that next_issue() names.
  [[gnu::always_inline]] void issue(int64_t now) {
    if (!m_issue_stage)
      return;
    for (;;) {
      if (m_issuing >= 0) {
        if (m_issue_done > now)
          return;
        m_fifo[(m_fifo_head + m_fifo_size++) & m_fifo_mask] = m_issuing;
        m_issuing = -1;
      }
      if (!m_ready)
        return;
      // Back to back with the warp before (its instructions ended in the last cycle, a warp
      // waiting) or, the schedulers idle, from now.
      m_issuing = pick_oldest();
      m_issue_end = (m_issue_end > double(now - 1) ? m_issue_end : double(now)) + m_issue_cycles;
      m_issue_done = ceil_of(m_issue_end);
    }
  }

  // The issue stage's next event at or after `from`: a warp's instructions done, or a ready warp
  // that can start issuing (INT64_MAX: none).
  int64_t next_issue(int64_t from) const {
    if (!m_issue_stage)
      return INT64_MAX;
    if (m_issuing >= 0)
      return std::max(from, m_issue_done);
    return m_ready ? from : INT64_MAX;
  }

  // The first cycle in [from, end) at which warps wake, or `end` (end - from < kWheel).
  int64_t next_wake(int64_t from, int64_t end) const {
    for (int64_t t = from; t < end;) {
      const std::size_t slot = static_cast<std::size_t>(t) % kWheel; // t >= 0
      const uint64_t word = m_occupied[slot / 64] >> (slot % 64);
      if (word)
        return std::min(end, t + __builtin_ctzll(word));
      t += static_cast<int64_t>(64 - slot % 64);
    }
    return end;
  }

  // f(id) for each warp that may issue in [from, end) (end - from < kWheel): the one being issued,
  // the ready ones and those that wake then. A warp the window schedules again, or a CTA it starts,
  // is not named. The replay's prefetch asks (engine.hpp): it reads, and changes nothing.
  template <class F> void for_each_upcoming(int64_t from, int64_t end, F &&f) const {
    if (m_issuing >= 0)
      f(m_issuing);
    if (m_oldest_first)
      for (uint64_t m = m_ready; m; m &= m - 1)
        f(m_warp_at[static_cast<std::size_t>(__builtin_ctzll(m))]);
    for (std::size_t k = 0; k < m_fifo_size; ++k)
      f(m_fifo[(m_fifo_head + k) & m_fifo_mask]);
    for (int64_t t = next_wake(from, end); t < end; t = next_wake(t + 1, end))
      for (int id = m_wheel[static_cast<std::size_t>(t) % kWheel]; id >= 0;
           id = m_wheel_next[static_cast<std::size_t>(id)])
        f(id);
  }

  void make_ready(int id) {
    if (m_oldest_first) // the issue stage: ready to issue, in age order
      m_ready |= uint64_t{1} << m_place[static_cast<std::size_t>(id)];
    else
      m_fifo[(m_fifo_head + m_fifo_size++) & m_fifo_mask] = id;
  }

  // A CTA starts in `slot`: it is now the youngest. Its warps were made ready just before, at
  // their old places; the ready set is laid out again in the new age order.
  void cta_started(int slot) {
    if (!m_oldest_first)
      return;
    uint64_t ready_ids = 0; // bit id: warp id is ready
    for (uint64_t m = m_ready; m; m &= m - 1)
      ready_ids |= uint64_t{1} << m_warp_at[static_cast<std::size_t>(__builtin_ctzll(m))];
    m_age.erase(std::remove(m_age.begin(), m_age.end(), slot), m_age.end());
    m_age.push_back(slot);
    m_turn[static_cast<std::size_t>(slot)] = 0;
    place_warps();
    m_ready = 0;
    for (uint64_t m = ready_ids; m; m &= m - 1)
      m_ready |= uint64_t{1} << m_place[static_cast<std::size_t>(__builtin_ctzll(m))];
  }

  // The next warp to issue, or -1: the one ready longest (loose round-robin), or a ready warp of
  // the oldest CTA (oldest-CTA-first, as greedy-then-oldest schedulers prefer old warps).
  [[gnu::always_inline]] int pick() {
    if (!m_oldest_first || m_issue_stage) { // the issue stage: the L1 takes loads in issue order
      if (m_fifo_size == 0)
        return -1;
      const int id = m_fifo[m_fifo_head];
      m_fifo_head = (m_fifo_head + 1) & m_fifo_mask;
      --m_fifo_size;
      return id;
    }
    // The ready set in age order: the lowest place is the oldest CTA's lowest ready warp. The
    // CTA's warps take turns: its first ready warp at or after the one after its last pick, so
    // that they stay in step (the H100's warps of a CTA reach each k of a matmul within 1-3% of
    // its run time: docs/results/tight/probes.md §4).
    if (!m_ready)
      return -1;
    return pick_oldest();
  }

private:
  // std::ceil of `x` (0 <= x < 2^63), exactly, without a call into libm: a double at or above 2^52
  // is an integer, and below it the truncation is exact.
  static int64_t ceil_of(double x) {
    const auto i = static_cast<int64_t>(x);
    return i + (static_cast<double>(i) < x ? 1 : 0);
  }

  // A ready warp of the oldest CTA, its warps taking turns (m_ready not empty).
  [[gnu::always_inline]] int pick_oldest() {
    const int lowest = __builtin_ctzll(m_ready);
    const int base = m_cta_base[static_cast<std::size_t>(lowest)];
    const uint64_t cta = m_warps_per_cta >= 64
                             ? m_ready
                             : m_ready & (((uint64_t{1} << m_warps_per_cta) - 1) << base);
    int &turn = m_turn[static_cast<std::size_t>(m_slot_at[static_cast<std::size_t>(lowest)])];
    const uint64_t later = cta & (~uint64_t{0} << (base + turn));
    const int place = later ? __builtin_ctzll(later) : lowest;
    turn = place - base + 1 < m_warps_per_cta ? place - base + 1 : 0;
    m_ready &= ~(uint64_t{1} << place);
    return m_warp_at[static_cast<std::size_t>(place)];
  }

  // Oldest-CTA-first: the places of the warps, the slots of m_age first (oldest first), then the
  // slots that have not started a CTA yet (their warps become ready just before cta_started).
  void place_warps() {
    int rank = 0;
    const auto place = [&](int slot) {
      for (int w = 0; w < m_warps_per_cta; ++w) {
        const int id = slot * m_warps_per_cta + w, at = rank * m_warps_per_cta + w;
        m_place[static_cast<std::size_t>(id)] = at;
        m_warp_at[static_cast<std::size_t>(at)] = id;
        m_slot_at[static_cast<std::size_t>(at)] = slot;
        m_cta_base[static_cast<std::size_t>(at)] = rank * m_warps_per_cta;
      }
      ++rank;
    };
    for (int slot : m_age)
      place(slot);
    for (int slot = 0; slot < m_slots; ++slot)
      if (std::find(m_age.begin(), m_age.end(), slot) == m_age.end())
        place(slot);
  }

  bool m_issue_stage;
  bool m_oldest_first;
  int m_slots = 0;
  int m_warps_per_cta;
  // The issue stage: SM-cycles a warp's instructions up to its next load take; the warp being
  // issued (-1: none), when its instructions are issued (m_issue_end, exactly) and the first cycle
  // at or after that (m_issue_done).
  double m_issue_cycles = 0;
  int m_issuing = -1;
  double m_issue_end = 0;
  int64_t m_issue_done = 0;
  // 16-bit warp ids (real SMs hold at most 64 warps; the constructor refuses 2^15): the wheels of
  // an H100's SMs take 1 MB instead of 2, most of it cold in the host's caches.
  std::vector<int16_t> m_wheel; // kWheel slots: first warp that becomes ready then
  std::array<uint64_t, kWheel / 64> m_occupied{}; // bit k: slot k of the wheel holds a warp
  std::vector<int16_t> m_wheel_next;              // per warp: next warp in the same wheel slot
  std::vector<int> m_fifo;                        // ring of ready warps, oldest first
  std::size_t m_fifo_head = 0, m_fifo_size = 0, m_fifo_mask = 0;
  // Oldest-CTA-first: the CTA slots, the oldest CTA first; warp id's place in that order (its
  // slot's rank * warps_per_cta + its warp in the CTA) and the warp at each place; bit p of
  // m_ready: the warp at place p is ready.
  uint64_t m_ready = 0;
  std::vector<int> m_age;
  std::vector<int> m_place, m_warp_at;
  // Per place: its warp's CTA slot, and the CTA's first place (pick() without a division).
  std::vector<int> m_slot_at, m_cta_base;
  std::vector<int> m_turn; // per CTA slot: the warp (in the CTA) its next pick starts at
};

} // namespace cbi::sim::gpu
