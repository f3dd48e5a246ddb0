// The GPU model's cache: sectored, set-associative, LRU, and aware of time (each sector remembers
// when its data arrives, so a lookup tells a hit from a sector still on its way). Used for the
// per-SM L1s and the L2 (sim/src/gpu/memory.hpp). It only answers requests: the coalescer
// (coalescer.hpp) makes them, and the set-index function is part of its configuration, as in
// GPGPU-Sim's cache_config.
//
// Why not sim::Cache: that engine keeps no per-sector arrival times (it has no clock), and its
// LRU rings rotate tags on every hit; adding fill times and partial-store masks to it would slow
// the sequential simulator's hot path for every policy, so the two stay apart. Both are checked
// against each other on the tiny device (tests/sim/test_gpu_model.cpp).
#pragma once

#include "cbi/sim/set_hash.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace cbi::sim::gpu {

// Sectors per line are at most 8 (a line of at most 8 sectors): popcount of a sector mask.
inline int popcount8(uint32_t m) {
  static constexpr uint8_t kBits[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
  return kBits[m & 15] + kBits[(m >> 4) & 15];
}

struct SectorCacheConfig {
  int64_t capacity_lines = 0;
  int64_t ways = 0; // 0 = fully associative
  int sectors_per_line = 4;
  SetHash hash = SetHash::none; // the set-index function (cbi/sim/set_hash.hpp)
  // The cache also takes stores (the L2): it keeps per sector the bytes stores wrote, so that a
  // sector only partly written is not taken for one read from below (issue 21 §1).
  bool writes = false;
};

class SectorCache {
public:
  explicit SectorCache(const SectorCacheConfig &c)
      : m_ways(static_cast<uint32_t>(c.ways == 0 ? c.capacity_lines : c.ways)),
        m_sets(static_cast<uint64_t>(c.capacity_lines / (c.ways == 0 ? c.capacity_lines : c.ways))),
        m_sectors(c.sectors_per_line), m_hash(c.hash) {
    const std::size_t slots = static_cast<std::size_t>(m_sets * m_ways);
    m_tag.assign(slots, kEmpty);
    m_stamp.assign(slots, 0);
    m_valid.assign(slots, 0);
    m_partial.assign(slots, 0);
    m_clock.assign(static_cast<std::size_t>(m_sets), 0);
    m_fill.assign(slots * static_cast<std::size_t>(m_sectors), 0);
    if (c.writes)
      m_written.assign(slots * static_cast<std::size_t>(m_sectors), 0);
  }

  struct Result {
    uint32_t hit = 0;     // sectors present and filled by `now`
    uint32_t pending = 0; // sectors allocated, their data still on its way
    uint32_t miss = 0;    // sectors allocated now: the caller fetches them and sets their fill
    uint32_t pending_ready = 0;
    std::size_t slot = 0;
  };

  // A read of the sectors `sectors` (mask) of line `line` at time `now`.
  [[gnu::always_inline]] Result lookup(uint64_t line64, uint32_t sectors, uint32_t now) {
    Result r;
    const uint32_t line = static_cast<uint32_t>(line64);
    const uint64_t set = set_index(m_hash, line64, m_sets);
    const std::size_t base = static_cast<std::size_t>(set * m_ways);
    const uint32_t stamp = ++m_clock[static_cast<std::size_t>(set)];
    const uint32_t *tags = &m_tag[base];
    uint32_t w = 0;
    while (w < m_ways && tags[w] != line)
      ++w;
    if (w < m_ways) {
      m_stamp[base + w] = stamp;
      r.slot = base + w;
      uint8_t &valid = m_valid[r.slot];
      // A sector that stores wrote only in part holds no data to read: it misses, and the fetch
      // from below makes it whole.
      const uint32_t readable = uint32_t{valid} & ~uint32_t{m_partial[r.slot]};
      const uint32_t *fill = &m_fill[r.slot * static_cast<std::size_t>(m_sectors)];
      for (uint32_t m = sectors & readable; m; m &= m - 1) {
        const int sec = __builtin_ctz(m);
        if (fill[sec] <= now) {
          r.hit |= 1u << sec;
        } else {
          r.pending |= 1u << sec;
          r.pending_ready = std::max(r.pending_ready, fill[sec]);
        }
      }
      r.miss = sectors & ~readable;
      valid = static_cast<uint8_t>(valid | sectors);
      m_partial[r.slot] = static_cast<uint8_t>(m_partial[r.slot] & ~sectors);
      return r;
    }
    r.slot = allocate(base, line, stamp);
    m_valid[r.slot] = static_cast<uint8_t>(sectors);
    r.miss = sectors;
    return r;
  }

  // A store of the bytes `bytes` (bit b: byte b of the sector; `full` = all of them) to sector
  // `sector` of line `line`: allocates the sector if absent, fetching nothing (its fill is `now`);
  // a sector stays partial, unreadable, until stores have written all its bytes or a read has
  // fetched it. Returns whether the sector was present (a write hit). Caches with `writes` only.
  bool write(uint64_t line64, int sector, uint32_t bytes, uint32_t full, uint32_t now) {
    const uint32_t line = static_cast<uint32_t>(line64);
    const uint64_t set = set_index(m_hash, line64, m_sets);
    const std::size_t base = static_cast<std::size_t>(set * m_ways);
    const uint32_t stamp = ++m_clock[static_cast<std::size_t>(set)];
    const uint32_t bit = 1u << sector;
    uint32_t w = 0;
    while (w < m_ways && m_tag[base + w] != line)
      ++w;
    std::size_t slot = base + w;
    bool hit = false;
    if (w < m_ways) {
      m_stamp[slot] = stamp;
      hit = m_valid[slot] & bit;
    } else {
      slot = allocate(base, line, stamp);
      m_valid[slot] = 0;
    }
    const std::size_t sec = slot * static_cast<std::size_t>(m_sectors) + std::size_t(sector);
    if (!hit) {
      m_valid[slot] = static_cast<uint8_t>(m_valid[slot] | bit);
      m_fill[sec] = now;
      m_written[sec] = 0;
      if (bytes != full)
        m_partial[slot] = static_cast<uint8_t>(m_partial[slot] | bit);
    }
    if (m_partial[slot] & bit) {
      m_written[sec] |= bytes;
      if (m_written[sec] == full)
        m_partial[slot] = static_cast<uint8_t>(m_partial[slot] & ~bit);
    }
    return hit;
  }

  void set_fill(std::size_t slot, int sector, uint32_t when) {
    m_fill[slot * static_cast<std::size_t>(m_sectors) + static_cast<std::size_t>(sector)] = when;
  }

private:
  static constexpr uint32_t kEmpty = ~uint32_t{0};

  // The least recently used way of the set at `base` takes `line`; returns its slot.
  std::size_t allocate(std::size_t base, uint32_t line, uint32_t stamp) {
    const uint32_t *stamps = &m_stamp[base];
    uint32_t victim = 0;
    for (uint32_t v = 1; v < m_ways; ++v)
      if (stamps[v] < stamps[victim])
        victim = v;
    const std::size_t slot = base + victim;
    m_tag[slot] = line;
    m_stamp[slot] = stamp;
    m_partial[slot] = 0;
    return slot;
  }

  // Flat arrays, 32-bit tags, stamps and fill times: the 132 L1s and the L2 of an H100 take about
  // 16 MB of host memory, so that lookups mostly stay in the host's caches (docs/results/
  // gpu-model-speed.md). Limits, checked by the engine: line indices below 2^32 - 1 (byte
  // addresses below 512 GiB), times below 2^32 cycles.
  uint32_t m_ways;
  uint64_t m_sets;
  int m_sectors;
  SetHash m_hash;
  std::vector<uint32_t> m_tag;     // per slot (set * ways + way)
  std::vector<uint32_t> m_stamp;   // per slot: the set's clock at its last use (LRU); 0 = never
  std::vector<uint8_t> m_valid;    // per slot: sector mask
  std::vector<uint8_t> m_partial;  // per slot: sectors that stores wrote in part (not readable)
  std::vector<uint32_t> m_clock;   // per set: lookups so far
  std::vector<uint32_t> m_fill;    // per sector: the time its data is (or will be) there
  std::vector<uint32_t> m_written; // per sector, caches with writes: the bytes stores wrote
};

} // namespace cbi::sim::gpu
