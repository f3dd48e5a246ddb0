// A chain of cache levels (L1 -> L2 -> ... -> DRAM). An access goes to L1; a miss fetches the L1
// unit's bytes from the next level, which sees them as accesses to its own units; each unit that
// level misses is fetched from the level below it, and so on.
#pragma once

#include "cbi/sim/cache.hpp"

#include <vector>

namespace cbi::sim {

class Hierarchy {
public:
  explicit Hierarchy(const std::vector<CacheConfig> &levels);

  // `count` accesses to L1 unit `unit`. Returns the level that served the first one: 0 for an L1
  // hit, 1 for L2, ..., levels() for DRAM.
  int access(uint64_t unit, int64_t count = 1) {
    if (m_levels[0].access(unit, count))
      return 0;
    return m_levels.size() == 1 ? 1 : miss_below(unit);
  }

  int levels() const { return static_cast<int>(m_levels.size()); }
  const Cache &level(int k) const { return m_levels[static_cast<std::size_t>(k)]; }
  std::vector<CacheStats> stats() const;

private:
  friend struct detail::Engines; // typed L1 access for replay loops (sim/src/engine.hpp)
  int miss_below(uint64_t l1_unit);
  int fetch(std::size_t k, uint64_t first_byte, uint64_t bytes);
  std::vector<Cache> m_levels;
};

} // namespace cbi::sim
