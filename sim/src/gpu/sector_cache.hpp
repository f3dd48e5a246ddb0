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

#include "../engine.hpp" // detail::match_mask, sim::Cache's tag compare
#include "cbi/sim/set_hash.hpp"

#include <algorithm>
#include <cmath>
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
  // The victim when a set is full: the least recently used way, or (random) a way drawn from the
  // cache's own fixed-seed generator, so that a replay gives the same victims every time.
  bool random_victims = false;
  // Per sector, until when a read of it stays open for merging (the L2 request coalescer's: a
  // time the caller sets through Result::open; 0 when the sector's way is allocated).
  bool open_times = false;
};

class SectorCache {
public:
  explicit SectorCache(const SectorCacheConfig &c)
      : m_ways(static_cast<uint32_t>(c.ways == 0 ? c.capacity_lines : c.ways)),
        m_sets(static_cast<uint64_t>(c.capacity_lines / (c.ways == 0 ? c.capacity_lines : c.ways))),
        m_sectors(c.sectors_per_line), m_index(c.hash, m_sets), m_random(c.random_victims) {
    // One block per set, in 32-bit words: tags, stamps, the valid and partial masks (a byte each
    // per way), the set's clock, the fill times; rounded up to whole 64-byte host cache lines.
    m_stamps_at = m_ways;
    m_masks_at = 2 * m_ways;
    m_clock_at = m_masks_at + (2 * m_ways + 3) / 4;
    m_fill_at = m_clock_at + 1;
    m_block = (m_fill_at + m_ways * static_cast<uint32_t>(m_sectors) + 15) / 16 * 16;
    m_data.assign(static_cast<std::size_t>(m_sets) * m_block + 16, 0);
    // Align the blocks to the host's cache lines.
    const auto addr = reinterpret_cast<std::uintptr_t>(m_data.data());
    m_base = m_data.data() + ((64 - addr % 64) % 64) / 4;
    for (uint64_t set = 0; set < m_sets; ++set)
      std::fill_n(m_base + set * m_block, m_ways, kEmpty);
    if (c.writes)
      m_written.assign(static_cast<std::size_t>(m_sets * m_ways) * std::size_t(m_sectors), 0);
    if (c.open_times)
      m_open.assign(static_cast<std::size_t>(m_sets * m_ways) * std::size_t(m_sectors), 0);
  }

  // The host memory a cache of configuration `c` takes (its blocks and, with writes, the bytes
  // stores wrote).
  static double state_bytes(const SectorCacheConfig &c) {
    const double ways = double(c.ways == 0 ? c.capacity_lines : c.ways);
    const double sets = double(c.capacity_lines) / ways;
    const double words = 2 * ways + std::ceil(2 * ways / 4) + 1 + ways * c.sectors_per_line;
    return sets * std::ceil(words / 16) * 64 +
           (c.writes ? double(c.capacity_lines) * c.sectors_per_line * 4 : 0.0) +
           (c.open_times ? double(c.capacity_lines) * c.sectors_per_line * 4 : 0.0);
  }

  SectorCache(const SectorCache &) = delete;
  SectorCache &operator=(const SectorCache &) = delete;
  SectorCache(SectorCache &&) = default;

  struct Result {
    uint32_t hit = 0;     // sectors present and filled by `now`
    uint32_t pending = 0; // sectors allocated, their data still on its way
    uint32_t miss = 0;    // sectors allocated now: the caller fetches them and sets their fill
    uint32_t pending_ready = 0;
    uint32_t *fill = nullptr; // the line's fill times, one per sector (set_fill)
    uint32_t *open = nullptr; // open_times: the line's open-until times, one per sector
  };

  // Where line `line`'s set lives: fetching it ahead of a lookup hides the host's cache miss.
  void prefetch(uint64_t line) const {
    const uint32_t *block = m_base + m_index(line) * m_block;
    __builtin_prefetch(block);
    __builtin_prefetch(block + 16);
  }

  // A read of the sectors `sectors` (mask) of line `line` at time `now`.
  [[gnu::always_inline]] Result lookup(uint64_t line64, uint32_t sectors, uint32_t now) {
    Result r;
    const uint32_t line = static_cast<uint32_t>(line64);
    uint32_t *block = m_base + m_index(line64) * m_block;
    const uint32_t stamp = ++block[m_clock_at];
    uint32_t w = find(block, line);
    if (w < m_ways) {
      block[m_stamps_at + w] = stamp;
      uint8_t *valid = masks(block) + w;
      uint8_t &partial = valid[m_ways];
      // A sector that stores wrote only in part holds no data to read: it misses, and the fetch
      // from below makes it whole.
      const uint32_t readable = uint32_t{*valid} & ~uint32_t{partial};
      r.fill = block + m_fill_at + w * static_cast<uint32_t>(m_sectors);
      if (!m_open.empty())
        r.open = &m_open[(static_cast<std::size_t>(m_index(line64)) * m_ways + w) *
                         static_cast<std::size_t>(m_sectors)];
      for (uint32_t m = sectors & readable; m; m &= m - 1) {
        const int sec = __builtin_ctz(m);
        if (r.fill[sec] <= now) {
          r.hit |= 1u << sec;
        } else {
          r.pending |= 1u << sec;
          r.pending_ready = std::max(r.pending_ready, r.fill[sec]);
        }
      }
      r.miss = sectors & ~readable;
      *valid = static_cast<uint8_t>(*valid | sectors);
      partial = static_cast<uint8_t>(partial & ~sectors);
      return r;
    }
    w = allocate(block, line, stamp);
    masks(block)[w] = static_cast<uint8_t>(sectors);
    r.fill = block + m_fill_at + w * static_cast<uint32_t>(m_sectors);
    if (!m_open.empty()) {
      r.open = &m_open[(static_cast<std::size_t>(m_index(line64)) * m_ways + w) *
                       static_cast<std::size_t>(m_sectors)];
      std::fill_n(r.open, m_sectors, 0u);
    }
    r.miss = sectors;
    return r;
  }

  // A store of the bytes `bytes` (bit b: byte b of the sector; `full` = all of them) to sector
  // `sector` of line `line`: allocates the sector if absent, fetching nothing (its fill is `now`);
  // a sector stays partial, unreadable, until stores have written all its bytes or a read has
  // fetched it. Returns whether the sector was present (a write hit). Caches with `writes` only.
  bool write(uint64_t line64, int sector, uint32_t bytes, uint32_t full, uint32_t now) {
    const uint32_t line = static_cast<uint32_t>(line64);
    const uint64_t set = m_index(line64);
    uint32_t *block = m_base + set * m_block;
    const uint32_t stamp = ++block[m_clock_at];
    const uint32_t bit = 1u << sector;
    uint32_t w = find(block, line);
    uint8_t *valid = masks(block);
    bool hit = false;
    if (w < m_ways) {
      block[m_stamps_at + w] = stamp;
      hit = valid[w] & bit;
    } else {
      w = allocate(block, line, stamp);
      valid[w] = 0;
      if (!m_open.empty())
        std::fill_n(&m_open[static_cast<std::size_t>(set * m_ways + w) * std::size_t(m_sectors)],
                    m_sectors, 0u);
    }
    uint8_t &partial = valid[m_ways + w];
    const std::size_t sec =
        static_cast<std::size_t>(set * m_ways + w) * std::size_t(m_sectors) + std::size_t(sector);
    if (!hit) {
      valid[w] = static_cast<uint8_t>(valid[w] | bit);
      block[m_fill_at + w * static_cast<uint32_t>(m_sectors) + static_cast<uint32_t>(sector)] = now;
      m_written[sec] = 0;
      if (bytes != full)
        partial = static_cast<uint8_t>(partial | bit);
    }
    if (partial & bit) {
      m_written[sec] |= bytes;
      if (m_written[sec] == full)
        partial = static_cast<uint8_t>(partial & ~bit);
    }
    return hit;
  }

  // The fill time of sector `sector` of the line a lookup returned.
  static void set_fill(const Result &r, int sector, uint32_t when) { r.fill[sector] = when; }

private:
  static constexpr uint32_t kEmpty = ~uint32_t{0};

  uint8_t *masks(uint32_t *block) const { return reinterpret_cast<uint8_t *>(block + m_masks_at); }

  // The way of set `block` that holds `line`, or m_ways: the ways compared four at a time where
  // they come in fours and fit one mask, one by one otherwise (a fully associative L1).
  [[gnu::always_inline]] uint32_t find(const uint32_t *block, uint32_t line) const {
    if (m_ways == 16) {
      const uint32_t hits = sim::detail::match_mask16(block, line);
      return hits ? static_cast<uint32_t>(__builtin_ctz(hits)) : m_ways;
    }
    if (m_ways % 4 == 0 && m_ways <= 64) {
      const uint64_t hits = sim::detail::match_mask(block, m_ways, line);
      return hits ? static_cast<uint32_t>(__builtin_ctzll(hits)) : m_ways;
    }
    uint32_t w = 0;
    while (w < m_ways && block[w] != line)
      ++w;
    return w;
  }

  // An empty way of the set `block`, else its least recently used way or (random_victims) a
  // random one, takes `line`; returns the way.
  uint32_t allocate(uint32_t *block, uint32_t line, uint32_t stamp) {
    const uint32_t *stamps = block + m_stamps_at;
    uint32_t victim = 0;
    for (uint32_t v = 1; v < m_ways; ++v)
      if (stamps[v] < stamps[victim])
        victim = v;
    if (m_random && stamps[victim] != 0) {
      m_rng ^= m_rng << 13;
      m_rng ^= m_rng >> 7;
      m_rng ^= m_rng << 17;
      victim = static_cast<uint32_t>(m_rng % m_ways);
    }
    block[victim] = line;
    block[m_stamps_at + victim] = stamp;
    masks(block)[m_ways + victim] = 0; // partial
    return victim;
  }

  // Per set one block of 32-bit words (tags, stamps, masks, clock, fill times), so that a lookup
  // touches a few neighbouring host cache lines rather than one line in each of six arrays
  // (docs/results/gpu-model-speed.md). Limits, checked by the engine: line indices below 2^32 - 1
  // (byte addresses below 512 GiB), times below 2^32 cycles.
  uint32_t m_ways;
  uint64_t m_sets;
  int m_sectors;
  SetIndex m_index;
  bool m_random = false;
  uint64_t m_rng = 0x9E3779B97F4A7C15ull; // xorshift64, fixed seed (random_victims)
  uint32_t m_stamps_at = 0, m_masks_at = 0, m_clock_at = 0, m_fill_at = 0, m_block = 0;
  // Stamps: the set's clock at the way's last use (LRU); 0 = never.
  std::vector<uint32_t> m_data; // the blocks (m_base: the first, 64-byte aligned)
  uint32_t *m_base = nullptr;
  std::vector<uint32_t> m_written; // per sector, caches with writes: the bytes stores wrote
  std::vector<uint32_t> m_open;    // per sector, open_times: until when a read stays open
};

} // namespace cbi::sim::gpu
