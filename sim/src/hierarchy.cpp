#include "cbi/sim/hierarchy.hpp"

#include "cbi/error.hpp"

#include <algorithm>

namespace cbi::sim {

Hierarchy::Hierarchy(const std::vector<CacheConfig> &levels) {
  if (levels.empty())
    throw UsageError("cache.levels", "at least one cache level is needed");
  m_levels.reserve(levels.size());
  for (const CacheConfig &c : levels)
    m_levels.emplace_back(c);
}

std::vector<CacheStats> Hierarchy::stats() const {
  std::vector<CacheStats> out;
  for (const Cache &c : m_levels)
    out.push_back(c.stats());
  return out;
}

int Hierarchy::miss_below(uint64_t l1_unit) {
  const uint64_t ub = static_cast<uint64_t>(m_levels[0].config().unit_bytes());
  return fetch(1, l1_unit * ub, ub);
}

// Level k is asked for bytes [first_byte, first_byte + bytes): each of its units there is one
// access, and each unit it misses is fetched from level k+1 on its own, so a lower level sees
// exactly the units the level above it missed (never the hits between two misses).
int Hierarchy::fetch(std::size_t k, uint64_t first_byte, uint64_t bytes) {
  if (k == m_levels.size())
    return static_cast<int>(k);
  Cache &level = m_levels[k];
  const uint64_t ub = static_cast<uint64_t>(level.config().unit_bytes());
  const uint64_t u_first = first_byte / ub, u_last = (first_byte + bytes - 1) / ub;
  int served = static_cast<int>(k);
  for (uint64_t u = u_first; u <= u_last; ++u)
    if (!level.access(u))
      served = std::max(served, fetch(k + 1, u * ub, ub));
  return served;
}

} // namespace cbi::sim
