// A chain of cache levels (L1 -> L2 -> ... -> DRAM). An access goes to L1; a miss fetches the L1
// unit's bytes from the next level, which sees them as accesses to its own units; each unit that
// level misses is fetched from the level below it, and so on. Loads and stores take the same path
// (write-allocate, fetch-on-write, no write-back traffic); stores are counted apart.
#pragma once

#include "cbi/sim/cache.hpp"

#include <vector>

namespace cbi::sim {

class Hierarchy {
public:
  // classify_misses: also sort every level's misses into compulsory, capacity and conflict
  // (MissClassifier). Off by default: it keeps a fully associative shadow of each level.
  explicit Hierarchy(const std::vector<CacheConfig> &levels, bool classify_misses = false);

  // `count` accesses to L1 unit `unit`, loads or stores. Returns the level that served the first
  // one: 0 for an L1 hit, 1 for L2, ..., levels() for DRAM.
  int access(uint64_t unit, int64_t count = 1, bool is_store = false) {
    if (m_classify)
      return access_classified(unit, count, is_store);
    if (is_store)
      m_store_accesses[0] += count;
    if (m_levels[0].access(unit, count))
      return 0;
    if (m_levels.size() > 1)
      return is_store ? store_miss_below<false>(unit) : miss_below<false>(unit);
    m_store_misses[0] += is_store;
    return 1;
  }

  int levels() const { return static_cast<int>(m_levels.size()); }
  const Cache &level(int k) const { return m_levels[static_cast<std::size_t>(k)]; }
  bool classifies_misses() const { return m_classify; }
  // Per level: the cache's counts, loads and stores apart, and the 3C classes if classified. The
  // _bytes fields stay 0 (the hierarchy does not know the element size; sim::simulate fills them).
  std::vector<CacheStats> stats() const;

private:
  friend struct detail::Engines; // typed L1 access for replay loops (sim/src/engine.hpp)
  int access_classified(uint64_t unit, int64_t count, bool is_store);
  // An L1 miss: fetches the L1 unit from the levels below. The store variant (one store per
  // thread at most) counts the L1 store miss and charges what it causes below L1 to stores, from
  // each level's counts before and after.
  template <bool Classify> int miss_below(uint64_t l1_unit);
  template <bool Classify> int store_miss_below(uint64_t l1_unit);
  template <bool Classify> int fetch(std::size_t k, uint64_t first_byte, uint64_t bytes);
  template <bool Classify> bool lookup(std::size_t k, uint64_t unit, int64_t count);

  std::vector<Cache> m_levels;
  bool m_classify = false;
  std::vector<MissClassifier> m_classifiers;             // one per level when classifying
  std::vector<int64_t> m_store_accesses, m_store_misses; // per level
  std::vector<int64_t> m_before;                         // scratch: accesses, misses per level
};

} // namespace cbi::sim
