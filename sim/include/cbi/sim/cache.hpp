// One cache level: geometry (line bytes, capacity, ways), a replacement policy, optional 32-byte
// sectors, and exact statistics. The replacement engine is picked once per cache
// (sim/src/engine.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cbi::sim {

enum class Policy { lru, fifo, random, volta };

struct CacheConfig {
  int64_t line_bytes = 16;     // L
  int64_t capacity_lines = 24; // M_l
  int64_t ways = 0;            // 0 = fully associative
  Policy policy = Policy::lru;
  int64_t sector_bytes = 0; // 0 = unsectored; else lines hold line_bytes/sector_bytes sectors
  uint64_t seed = 1;        // random and volta policies

  int64_t capacity_bytes() const { return line_bytes * capacity_lines; }
  int64_t ways_effective() const { return ways == 0 ? capacity_lines : ways; }
  int64_t sets() const { return capacity_lines / ways_effective(); }
  // Bytes of one cache unit: what is looked up, counted and fetched (a sector if sectored).
  int64_t unit_bytes() const { return sector_bytes ? sector_bytes : line_bytes; }
  std::string describe() const; // "32 KiB 8-way LRU, 128 B lines"
};

// Throws UsageError naming the wrong field under `field` (field + ".line_bytes", ".capacity",
// ".ways", ".sector_bytes") for line sizes out of range, capacities that do not divide into whole
// sets, and sectors that do not divide the line; the CLI maps fields to its options.
void validate(const CacheConfig &c, const std::string &field = "cache");

// Bytes that Cache(c) allocates for its state: the layout's tags (32-bit and 64-bit ones both,
// as while a cache whose line indices outgrow 32 bits widens them), sector masks, set heads, and
// the hash index and recency links of a large fully associative cache. An upper bound, for the
// memory check before a run.
double state_bytes(const CacheConfig &c);

// "lru", "fifo", "random", "volta"; UsageError naming `field` otherwise.
Policy parse_policy(const std::string &text, const std::string &field = "cache.policy");
const char *to_string(Policy p);
// The policies that draw random numbers, and so take a seed (CacheConfig::seed).
constexpr bool policy_uses_seed(Policy p) { return p == Policy::random || p == Policy::volta; }

// Counts in the level's units (lines, or sectors if sectored) unless named _bytes.
struct CacheStats {
  int64_t accesses = 0;
  int64_t hits = 0;
  int64_t misses = 0;    // accesses that had to fetch their unit from the next level
  int64_t fetches = 0;   // units (lines, or sectors if sectored) brought in
  int64_t evictions = 0; // lines removed to make room
  int64_t bytes_fetched = 0;
  double hit_rate() const { return accesses ? double(hits) / double(accesses) : 0.0; }

  // Loads and stores apart: accesses = loads + stores, misses = load_misses + store_misses. The
  // write policy is write-allocate with fetch-on-write and no write-back traffic: a store is looked
  // up, and on a miss fetched, exactly as a load; evicting a stored-to line sends nothing down.
  // Below L1 an access has the kind of the L1 access whose miss caused it. A Cache alone sees
  // only loads; Hierarchy counts stores. Bytes: what was asked of this level (sim::simulate fills
  // them: L1 from the element size, level k+1 from level k's misses times its unit bytes).
  int64_t loads = 0, stores = 0;
  int64_t load_misses = 0, store_misses = 0;
  int64_t load_bytes = 0, store_bytes = 0;
  int64_t load_hits() const { return loads - load_misses; }
  int64_t store_hits() const { return stores - store_misses; }

  // 3C classification (Hierarchy with classify_misses; `classified` says whether it ran): every
  // miss is compulsory, capacity or conflict (MissClassifier), so the three sum to `misses`.
  bool classified = false;
  int64_t misses_compulsory = 0, misses_capacity = 0, misses_conflict = 0;
};

namespace detail {
struct Engines; // the specialised lookups, sim/src/engine.hpp
}

class Cache {
public:
  explicit Cache(const CacheConfig &config);

  // `count` consecutive accesses to `unit` (a line index, or a sector index if sectored). Returns
  // true if the first one hit; the other count-1 always hit and change no policy state.
  bool access(uint64_t unit, int64_t count = 1) {
    m_accesses += count;
    if (unit == m_last_unit) // already most recent: a hit under every policy, no state change
      return true;
    m_last_unit = unit;
    return lookup(unit);
  }

  // True when access(unit) would be the shortcut above: a repeat of the last unit looked up, a hit
  // that changes no state (MissClassifier skips those).
  bool repeats_last(uint64_t unit) const { return unit == m_last_unit; }
  bool contains(uint64_t unit) const;
  // Calls f(unit) for every resident unit (every valid sector of every line if sectored).
  template <class F> void for_each_resident(F &&f) const {
    const uint64_t spl = static_cast<uint64_t>(m_sectors_per_line);
    auto line_units = [&](uint64_t line, uint8_t valid) {
      for (uint64_t s = 0; s < spl; ++s)
        if (valid >> s & 1u)
          f(line * spl + s);
    };
    if (m_layout == Layout::hashed) {
      for (std::size_t slot = 0; slot < m_tags64.size(); ++slot)
        if (m_tags64[slot] != kInvalid64)
          line_units(m_tags64[slot], m_valid[slot]);
      return;
    }
    for (uint64_t set = 0; set < m_sets; ++set)
      for (uint32_t k = 0; k < m_ways; ++k) {
        const std::size_t slot = static_cast<std::size_t>(set * m_stride + k);
        const uint64_t tag =
            m_layout == Layout::narrow ? widen_tag(m_tags32[slot]) : m_tags64[slot];
        if (tag != kInvalid64)
          line_units(tag, valid_of(slot));
      }
  }

  int64_t accesses() const { return m_accesses; }
  int64_t misses() const { return m_misses; }
  // hits = accesses - misses and fetches = misses: every miss fetches exactly one unit.
  CacheStats stats() const;
  const CacheConfig &config() const { return m_config; }
  void reset();

private:
  friend struct detail::Engines;

  // How tags are stored: 32-bit tags while every line index seen fits (the common case, half the
  // bytes to compare), 64-bit ones after the first line that does not, or a hash index for fully
  // associative caches with more than 64 ways.
  enum class Layout : uint8_t { narrow, wide, hashed };
  static constexpr uint64_t kInvalid64 = ~uint64_t{0};
  static constexpr uint32_t kInvalid32 = ~uint32_t{0};
  static uint64_t widen_tag(uint32_t t) { return t == kInvalid32 ? kInvalid64 : t; }
  uint8_t valid_of(std::size_t slot) const { return m_sectors_per_line == 1 ? 1 : m_valid[slot]; }

  bool lookup(uint64_t unit); // dispatches on m_layout and the policy
  void go_wide();             // converts narrow tags to 64-bit ones, keeping every line's place
  uint64_t next_random();

  // Hash index (fully associative caches with many lines): open addressing, linear probing.
  bool lookup_hashed(uint64_t unit);
  int32_t hash_find(uint64_t line) const;
  void hash_insert(uint64_t line, int32_t slot);
  void hash_erase(uint64_t line);
  void list_unlink(int32_t slot);
  void list_push_front(int32_t slot);
  int32_t evict_hashed_slot(); // frees a slot according to the policy and returns it

  CacheConfig m_config;
  int64_t m_accesses = 0, m_misses = 0, m_evictions = 0;
  uint64_t m_last_unit = kInvalid64;
  Layout m_layout;
  uint32_t m_ways;             // ways per set
  uint32_t m_stride;           // slots per set in storage: ways rounded up to a multiple of 4
  uint64_t m_sets, m_set_mask; // m_set_mask = sets - 1 when sets is a power of two, else 0
  bool m_sets_pow2;
  int64_t m_sectors_per_line;
  int m_sector_shift;      // log2(sectors per line) when a power of two, else -1
  uint64_t m_narrow_limit; // narrow layout: line indices below this fit 32-bit tags
  uint64_t m_rng;

  // Set-associative storage: slot = set*stride + physical way. LRU and FIFO keep each set as a
  // ring whose logical order (most recent / newest first) starts at m_head[set]; random and volta
  // leave ways in place. Padding slots (way >= ways) stay invalid.
  std::vector<uint32_t> m_tags32; // narrow layout
  std::vector<uint64_t> m_tags64; // wide and hashed layouts
  std::vector<uint8_t> m_valid;   // sector mask per slot, sectored caches only
  std::vector<uint8_t> m_head;    // ring start per set (LRU, FIFO)

  // Hashed storage (one set): slots + doubly linked recency list + hash of line -> slot.
  std::vector<int32_t> m_prev, m_next;
  int32_t m_list_head = -1, m_list_tail = -1, m_used = 0;
  std::vector<uint64_t> m_hash_keys;
  std::vector<int32_t> m_hash_vals;
  uint64_t m_hash_mask = 0;
  std::vector<int32_t> m_free; // volta: slots freed by a 4-line eviction
};

// The 3C classification of one level's misses (Hill; what DineroIV and pycachesim users expect),
// fed with every lookup of that level. A miss is
// - compulsory: the first access to its unit ever;
// - capacity: not compulsory, and the same cache made fully associative with LRU replacement
//   (same line and sector bytes, same capacity; a shadow fed the same units) misses it too;
// - conflict: the rest, misses that full associativity would have avoided (set mapping and, for
//   other policies than LRU, the policy).
// Each miss is classified on its own, so the three are never negative and sum to the misses. A
// fully associative LRU level has no conflict misses. Counted in the level's units.
//   Example: direct-mapped, 2 lines; units 0, 2, 0, 2 (both map to set 0): 2 compulsory, then 2
//   conflict (a 2-line fully associative cache holds both).
class MissClassifier {
public:
  explicit MissClassifier(const CacheConfig &level);

  // One lookup of the level (not a repeats_last shortcut, which hits everywhere and changes no
  // state): `unit` and whether the real level hit.
  void observe(uint64_t unit, bool hit) {
    const bool shadow_hit = m_shadow.access(unit);
    const bool seen = test_and_set_seen(unit);
    if (hit)
      return;
    if (!seen)
      ++m_compulsory;
    else if (!shadow_hit)
      ++m_capacity;
    else
      ++m_conflict;
  }
  // Bytes a classifier of `level` allocates when its trace touches addresses below
  // `address_bytes`: its fully associative shadow (state_bytes of it) and the bitmap of units seen,
  // one bit a unit in pages of 2^16 units. An upper bound.
  static double state_bytes(const CacheConfig &level, int64_t address_bytes);

  int64_t compulsory() const { return m_compulsory; }
  int64_t capacity() const { return m_capacity; }
  int64_t conflict() const { return m_conflict; }

private:
  // Units seen so far: a bitmap in pages of 2^16 units, allocated as the trace reaches them.
  static constexpr int kPageShift = 16;
  bool test_and_set_seen(uint64_t unit) {
    const uint64_t page = unit >> kPageShift;
    if (page != m_last_page || !m_last_bits)
      find_page(page);
    const uint64_t bit = unit & ((uint64_t{1} << kPageShift) - 1);
    uint64_t &word = m_last_bits[bit >> 6];
    const uint64_t mask = uint64_t{1} << (bit & 63);
    const bool seen = word & mask;
    word |= mask;
    return seen;
  }
  void find_page(uint64_t page);

  Cache m_shadow;
  std::vector<std::pair<uint64_t, std::vector<uint64_t>>> m_pages; // sorted by page
  uint64_t m_last_page = 0;
  uint64_t *m_last_bits = nullptr;
  int64_t m_compulsory = 0, m_capacity = 0, m_conflict = 0;
};

} // namespace cbi::sim
