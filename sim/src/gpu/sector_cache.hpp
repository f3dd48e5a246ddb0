// The GPU model's cache: sectored, set-associative, LRU or random, and aware of time (each sector
// remembers when its data arrives, so a lookup tells a hit from a sector still on its way). Used
// for the per-SM L1s and the L2 (sim/src/gpu/memory.hpp). It only answers requests: the coalescer
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
#include "host_prefetch.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
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
};

class SectorCache {
public:
  explicit SectorCache(const SectorCacheConfig &c)
      : m_ways(static_cast<uint32_t>(c.ways == 0 ? c.capacity_lines : c.ways)),
        m_sets(static_cast<uint64_t>(c.capacity_lines / (c.ways == 0 ? c.capacity_lines : c.ways))),
        m_sectors(c.sectors_per_line), m_index(c.hash, m_sets), m_random(c.random_victims) {
    const Layout l = layout(c);
    m_hash_words = l.hash_words;
    m_summary_words = l.summary_words;
    m_record_words = l.record_words;
    m_partial_at = c.writes ? 1 + static_cast<uint32_t>(m_sectors) : 0;
    m_summary = aligned(m_summary_data, m_sets * m_summary_words);
    m_records = aligned(m_record_data, m_sets * m_ways * m_record_words);
    for (uint64_t set = 0; set < m_sets; ++set) {
      uint32_t *sum = summary(set);
      if (m_ways <= 16) {
        uint64_t order = 0; // way i at place i: any order serves until the set is full
        for (uint32_t w = 0; w < m_ways; ++w)
          order |= uint64_t{w} << (4 * w);
        std::memcpy(sum + m_hash_words, &order, sizeof order);
      }
      for (uint32_t w = 0; w < m_ways; ++w)
        std::fill_n(record(set, w) + 1, m_sectors, kInvalid);
    }
    if (c.writes)
      m_written.assign(static_cast<std::size_t>(m_sets * m_ways) * std::size_t(m_sectors), 0);
  }

  // The host memory a cache of configuration `c` takes (its summaries and records and, with
  // writes, the bytes stores wrote).
  static double state_bytes(const SectorCacheConfig &c) {
    const Layout l = layout(c);
    const double ways = double(c.ways == 0 ? c.capacity_lines : c.ways);
    const double sets = double(c.capacity_lines) / ways;
    return sets * 4.0 * (l.summary_words + ways * l.record_words) +
           (c.writes ? double(c.capacity_lines) * c.sectors_per_line * 4 : 0.0);
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
  };

  // Where line `line`'s way most likely lives: fetching it ahead of a lookup hides the host's
  // cache miss.
  void prefetch(uint64_t line64) const {
    const uint64_t set = m_index(line64);
    const uint32_t *sum = summary(set);
    if (m_ways > 16) {
      host_prefetch(sum);
      return;
    }
    const uint32_t m = byte_matches(sum, tag_byte(static_cast<uint32_t>(line64))) &
                       used_mask(sum[m_hash_words + 2]);
    if (m)
      host_prefetch(record(set, static_cast<uint32_t>(__builtin_ctz(m))));
  }

  // Fetches the summary of line `line`'s set into the host's caches, without waiting for it.
  void prefetch_summary(uint64_t line64) const { host_prefetch(summary(m_index(line64))); }

  // Fetches every set's summary into the host's caches (an L1's: 3.4 KB on the H100).
  void prefetch_summaries() const {
    const uint32_t *end = m_summary + m_sets * m_summary_words;
    for (const uint32_t *p = m_summary; p < end; p += 16)
      host_prefetch(p);
  }

  // A read of the sectors `sectors` (mask) of line `line` at time `now`. The caller sets the
  // fill time of every sector of `miss` (set_fill): until then they hold no data.
  [[gnu::always_inline]] Result lookup(uint64_t line64, uint32_t sectors, uint32_t now) {
    Result r;
    const uint32_t line = static_cast<uint32_t>(line64);
    const uint64_t set = m_index(line64);
    uint32_t *sum = summary(set);
    uint32_t w = find(set, sum, line);
    if (w < m_ways) {
      touch(sum, w);
      uint32_t *rec = record(set, w);
      r.fill = rec + 1;
      uint32_t invalid = 0, late = 0;
      states(r.fill, sectors, now, invalid, late);
      // A sector that stores wrote only in part holds no data to read: it misses, and the fetch
      // from below makes it whole.
      if (m_partial_at) {
        invalid |= rec[m_partial_at];
        rec[m_partial_at] &= ~sectors;
      }
      r.miss = sectors & invalid;
      r.hit = sectors & ~invalid & ~late;
      r.pending = sectors & ~invalid & late;
      if (r.pending)
        r.pending_ready = latest(r.fill, r.pending);
      return r;
    }
    uint32_t *rec = allocate(set, sum, line);
    r.fill = rec + 1;
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
    uint32_t *sum = summary(set);
    const uint32_t bit = 1u << sector;
    uint32_t w = find(set, sum, line);
    uint32_t *rec = nullptr;
    if (w < m_ways) {
      touch(sum, w);
      rec = record(set, w);
    } else {
      rec = allocate(set, sum, line);
      w = static_cast<uint32_t>((rec - record(set, 0)) / m_record_words);
    }
    uint32_t &fill = rec[1 + sector];
    const bool hit = fill != kInvalid;
    uint32_t &partial = rec[m_partial_at];
    const std::size_t sec =
        static_cast<std::size_t>(set * m_ways + w) * std::size_t(m_sectors) + std::size_t(sector);
    if (!hit) {
      fill = now;
      m_written[sec] = 0;
      if (bytes != full)
        partial |= bit;
    }
    if (partial & bit) {
      m_written[sec] |= bytes;
      if (m_written[sec] == full)
        partial &= ~bit;
    }
    return hit;
  }

  // The fill time of sector `sector` of the line a lookup returned.
  static void set_fill(const Result &r, int sector, uint32_t when) { r.fill[sector] = when; }

private:
  static constexpr uint32_t kInvalid = ~uint32_t{0}; // a fill time: the sector holds no data

  // Per set a summary, small enough to stay in the host's caches for every SM's L1 (32 bytes for
  // 16 ways): a byte of each way's tag (tag_byte), then for up to 16 ways the LRU order (4 bits
  // a place, the most recent first) or for more the set's clock and a stamp per way, and the
  // number of ways in use (the first ones: a set fills its ways in order). Per way a record of
  // 32-bit words, a power of two of them (a record never spans two host lines where it fits one):
  // its line, its sectors' fill times (kInvalid: no data), with writes the mask of its partial
  // sectors. A lookup that hits reads its set's summary and one record, a host cache miss where the
  // old layout had two to five (docs/results/gpu-model-speed.md).
  struct Layout {
    uint32_t hash_words, summary_words, record_words;
  };
  static Layout layout(const SectorCacheConfig &c) {
    const uint32_t ways = static_cast<uint32_t>(c.ways == 0 ? c.capacity_lines : c.ways);
    const uint32_t sectors = static_cast<uint32_t>(c.sectors_per_line);
    Layout l;
    l.hash_words = (ways + 15) / 16 * 4;
    // [hash][order: 2 words][in use][clock][stamps] (order, clock and stamps where they apply)
    const uint32_t stamps = !c.random_victims && ways > 16 ? ways + 1 : 0;
    l.summary_words = (l.hash_words + 3 + stamps + 7) / 8 * 8;
    const uint32_t words = 1 + sectors + (c.writes ? 1 : 0);
    l.record_words = 8;
    while (l.record_words < words)
      l.record_words *= 2;
    return l;
  }

  static uint32_t *aligned(std::vector<uint32_t> &data, uint64_t words) {
    data.assign(static_cast<std::size_t>(words) + 16, 0);
    const auto addr = reinterpret_cast<std::uintptr_t>(data.data());
    return data.data() + ((64 - addr % 64) % 64) / 4;
  }

  uint32_t *summary(uint64_t set) const { return m_summary + set * m_summary_words; }
  uint32_t *record(uint64_t set, uint32_t way) const {
    return m_records + (set * m_ways + way) * m_record_words;
  }

  // A byte of the line's tag for the summary: bits of a multiplicative hash that the set index
  // (its own hash, reduced mod the sets) does not fix.
  static uint8_t tag_byte(uint32_t line) {
    return static_cast<uint8_t>((line * 0x2545F491u) >> 24);
  }
  static uint32_t used_mask(uint32_t used) {
    return used >= 16 ? 0xFFFFu : (uint32_t{1} << used) - 1;
  }

  // Bit w: byte w of the 16 at `hash` is `key`.
  static uint32_t byte_matches(const uint32_t *hash, uint8_t key) {
#if defined(__SSE2__)
    const __m128i h = _mm_load_si128(reinterpret_cast<const __m128i *>(hash));
    return static_cast<uint32_t>(
        _mm_movemask_epi8(_mm_cmpeq_epi8(h, _mm_set1_epi8(static_cast<char>(key)))));
#else
    uint32_t m = 0;
    const auto *b = reinterpret_cast<const uint8_t *>(hash);
    for (int k = 0; k < 16; ++k)
      m |= uint32_t{b[k] == key} << k;
    return m;
#endif
  }

  // The way of the set that holds `line`, or m_ways: the ways in use whose tag byte matches, then
  // their records' lines.
  [[gnu::always_inline]] uint32_t find(uint64_t set, const uint32_t *sum, uint32_t line) const {
    const uint8_t key = tag_byte(line);
    const uint32_t used = sum[m_hash_words + 2];
    for (uint32_t base = 0; base < used; base += 16) {
      for (uint32_t m = byte_matches(sum + base / 4, key) & used_mask(used - base); m; m &= m - 1) {
        const uint32_t w = base + static_cast<uint32_t>(__builtin_ctz(m));
        if (record(set, w)[0] == line)
          return w;
      }
    }
    return m_ways;
  }

  // Way w of the set is used now: the LRU order (or stamp) says so.
  [[gnu::always_inline]] void touch(uint32_t *sum, uint32_t w) {
    if (m_random)
      return;
    if (m_ways <= 16) {
      uint64_t order;
      std::memcpy(&order, sum + m_hash_words, sizeof order);
      // w's place: the lowest nibble equal to w (the lowest flagged zero nibble is exact).
      constexpr uint64_t kOnes = 0x1111111111111111ull, kHighs = 0x8888888888888888ull;
      const uint64_t x = order ^ (uint64_t{w} * kOnes);
      const int place = __builtin_ctzll((x - kOnes) & ~x & kHighs) >> 2;
      const uint64_t low = place == 15 ? ~uint64_t{0} : (uint64_t{1} << (4 * place + 4)) - 1;
      order = (order & ~low) | ((order << 4) & low) | w;
      std::memcpy(sum + m_hash_words, &order, sizeof order);
      return;
    }
    uint32_t *clock = sum + m_hash_words + 3;
    clock[1 + w] = ++*clock;
  }

  // Of the sectors `sectors` of a way with fill times `fill`: those without data (`invalid`) and
  // those whose data arrives after `now` (`late`). Four sectors (every device row) are compared at
  // once, without a branch per sector.
  [[gnu::always_inline]] void states(const uint32_t *fill, uint32_t sectors, uint32_t now,
                                     uint32_t &invalid, uint32_t &late) const {
#if defined(__SSE2__)
    if (m_sectors == 4) {
      const __m128i f = _mm_loadu_si128(reinterpret_cast<const __m128i *>(fill));
      const __m128i sign = _mm_set1_epi32(INT32_MIN); // unsigned compare as signed
      const __m128i after = _mm_cmpgt_epi32(
          _mm_xor_si128(f, sign), _mm_xor_si128(_mm_set1_epi32(static_cast<int>(now)), sign));
      invalid = static_cast<uint32_t>(
          _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(f, _mm_set1_epi32(-1)))));
      late = static_cast<uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(after)));
      return;
    }
#endif
    for (uint32_t m = sectors; m; m &= m - 1) {
      const int sec = __builtin_ctz(m);
      if (fill[sec] == kInvalid)
        invalid |= 1u << sec;
      else if (fill[sec] > now)
        late |= 1u << sec;
    }
  }

  // The latest fill time of the sectors `mask` (not empty) of a way with fill times `fill`. Four
  // sectors (every device row) at once, as states() compares them.
  [[gnu::always_inline]] uint32_t latest(const uint32_t *fill, uint32_t mask) const {
#if defined(__SSE2__)
    if (m_sectors == 4) {
      const __m128i bits = _mm_set_epi32(8, 4, 2, 1);
      const __m128i sign = _mm_set1_epi32(INT32_MIN); // unsigned order as signed
      const __m128i chosen =
          _mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32(static_cast<int>(mask)), bits), bits);
      // The sectors not in `mask` become 0, the least fill time (INT32_MIN once flipped).
      __m128i v = _mm_xor_si128(
          _mm_and_si128(_mm_loadu_si128(reinterpret_cast<const __m128i *>(fill)), chosen), sign);
      __m128i t = _mm_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2));
      __m128i gt = _mm_cmpgt_epi32(v, t);
      v = _mm_or_si128(_mm_and_si128(gt, v), _mm_andnot_si128(gt, t));
      t = _mm_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1));
      gt = _mm_cmpgt_epi32(v, t);
      v = _mm_or_si128(_mm_and_si128(gt, v), _mm_andnot_si128(gt, t));
      return static_cast<uint32_t>(_mm_cvtsi128_si32(_mm_xor_si128(v, sign)));
    }
#endif
    uint32_t m = 0;
    for (; mask; mask &= mask - 1)
      m = std::max(m, fill[__builtin_ctz(mask)]);
    return m;
  }

  // The first way not in use, else the least recently used way or (random_victims) a random one,
  // takes `line`; returns its record, its sectors without data. (The first empty way is what a
  // scan for the lowest LRU stamp finds: 0, never used.)
  uint32_t *allocate(uint64_t set, uint32_t *sum, uint32_t line) {
    uint32_t &used = sum[m_hash_words + 2];
    uint32_t victim = 0;
    if (used < m_ways) {
      victim = used++;
    } else if (m_random) {
      m_rng ^= m_rng << 13;
      m_rng ^= m_rng >> 7;
      m_rng ^= m_rng << 17;
      victim = static_cast<uint32_t>(m_rng % m_ways);
    } else if (m_ways <= 16) {
      uint64_t order;
      std::memcpy(&order, sum + m_hash_words, sizeof order);
      victim = static_cast<uint32_t>(order >> (4 * (m_ways - 1))) & 15;
    } else {
      const uint32_t *stamps = sum + m_hash_words + 4;
      for (uint32_t v = 1; v < m_ways; ++v)
        if (stamps[v] < stamps[victim])
          victim = v;
    }
    reinterpret_cast<uint8_t *>(sum)[victim] = tag_byte(line);
    touch(sum, victim);
    uint32_t *rec = record(set, victim);
    rec[0] = line;
    std::fill_n(rec + 1, m_sectors, kInvalid);
    if (m_partial_at)
      rec[m_partial_at] = 0;
    return rec;
  }

  // Limits, checked by the engine: line indices below 2^32 (byte addresses below 512 GiB), times
  // below 2^32 - 1 cycles.
  uint32_t m_ways;
  uint64_t m_sets;
  int m_sectors;
  SetIndex m_index;
  bool m_random = false;
  uint64_t m_rng = 0x9E3779B97F4A7C15ull; // xorshift64, fixed seed (random_victims)
  uint32_t m_hash_words = 0, m_summary_words = 0, m_record_words = 0;
  uint32_t m_partial_at = 0;                           // in a record; m_partial_at 0: no writes
  std::vector<uint32_t> m_summary_data, m_record_data; // m_summary, m_records: 64-byte aligned
  uint32_t *m_summary = nullptr, *m_records = nullptr;
  std::vector<uint32_t> m_written; // per sector, caches with writes: the bytes stores wrote
};

} // namespace cbi::sim::gpu
