// One cache level: geometry (line bytes, capacity, ways), a replacement policy, optional 32-byte
// sectors, and exact statistics. access() is inline because it is the simulator's hot path.
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

// Throws UsageError for non-positive sizes, line sizes that are not a power of two multiple of the
// element, capacities that do not divide into whole sets, and sectors that do not divide the line.
void validate(const CacheConfig &c, const std::string &option = "--level");

Policy parse_policy(const std::string &text, const std::string &option = "--policy");
const char *to_string(Policy p);

struct CacheStats {
  int64_t accesses = 0;
  int64_t hits = 0;
  int64_t misses = 0;    // accesses that had to fetch their unit from the next level
  int64_t fetches = 0;   // units (lines, or sectors if sectored) brought in
  int64_t evictions = 0; // lines removed to make room
  int64_t bytes_fetched = 0;
  double hit_rate() const { return accesses ? double(hits) / double(accesses) : 0.0; }
};

class Cache {
public:
  explicit Cache(const CacheConfig &config);

  // `count` consecutive accesses to `unit` (a line index, or a sector index if sectored). Returns
  // true if the first one hit; the other count-1 always hit and change no policy state.
  bool access(uint64_t unit, int64_t count = 1) {
    m_stats.accesses += count;
    if (unit == m_last_unit) { // already most recent: a hit under every policy, no state change
      m_stats.hits += count;
      return true;
    }
    m_last_unit = unit;
    const bool hit = m_hashed ? access_hashed(unit) : access_sets(unit);
    m_stats.hits += count - (hit ? 0 : 1);
    return hit;
  }

  bool contains(uint64_t unit) const;
  // Calls f(unit) for every resident unit (every valid sector of every line if sectored).
  template <class F> void for_each_resident(F &&f) const {
    for (std::size_t slot = 0; slot < m_tags.size(); ++slot) {
      if (m_tags[slot] == kInvalid)
        continue;
      for (int64_t s = 0; s < m_sectors_per_line; ++s)
        if (m_valid[slot] >> s & 1u)
          f(m_tags[slot] * static_cast<uint64_t>(m_sectors_per_line) + static_cast<uint64_t>(s));
    }
  }

  const CacheStats &stats() const { return m_stats; }
  const CacheConfig &config() const { return m_config; }
  void reset();

private:
  static constexpr uint64_t kInvalid = ~uint64_t{0};

  bool access_sets(uint64_t unit);
  bool access_hashed(uint64_t unit);
  void count_fetch();
  uint64_t next_random();

  // Hash index (fully associative caches with many lines): open addressing, linear probing.
  int32_t hash_find(uint64_t line) const;
  void hash_insert(uint64_t line, int32_t slot);
  void hash_erase(uint64_t line);
  void list_unlink(int32_t slot);
  void list_push_front(int32_t slot);
  int32_t evict_hashed_slot(); // frees a slot according to the policy and returns it

  CacheConfig m_config;
  CacheStats m_stats;
  uint64_t m_last_unit = kInvalid;
  int64_t m_sets, m_ways, m_sectors_per_line;
  uint64_t m_rng;
  bool m_hashed;

  // Set-associative storage: m_tags[set*ways + k]. For LRU and FIFO the ways of a set are kept in
  // recency / insertion order, most recent first; random and volta leave them in place.
  std::vector<uint64_t> m_tags;
  std::vector<uint8_t> m_valid; // sector mask per slot (bit 0 only if unsectored)
  std::vector<int32_t> m_fill;  // valid ways per set (LRU, FIFO)

  // Hashed storage (one set): slots + doubly linked recency list + hash of line -> slot.
  std::vector<int32_t> m_prev, m_next;
  int32_t m_head = -1, m_tail = -1, m_used = 0;
  std::vector<uint64_t> m_hash_keys;
  std::vector<int32_t> m_hash_vals;
  uint64_t m_hash_mask = 0;
  std::vector<int32_t> m_free; // volta: slots freed by a 4-line eviction
};

} // namespace cbi::sim
