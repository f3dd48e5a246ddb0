#include "cbi/sim/hierarchy.hpp"

#include "cbi/error.hpp"

namespace cbi::sim {

Hierarchy::Hierarchy(const std::vector<CacheConfig> &levels) {
  if (levels.empty())
    throw UsageError("--level", "at least one cache level is needed");
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
  // The byte range the missing level fetches, passed down level by level.
  uint64_t first_byte = l1_unit * static_cast<uint64_t>(m_levels[0].config().unit_bytes());
  uint64_t bytes = static_cast<uint64_t>(m_levels[0].config().unit_bytes());
  int served = 1;
  for (std::size_t k = 1; k < m_levels.size(); ++k) {
    Cache &level = m_levels[k];
    const uint64_t ub = static_cast<uint64_t>(level.config().unit_bytes());
    const uint64_t u_first = first_byte / ub, u_last = (first_byte + bytes - 1) / ub;
    bool all_hit = true;
    uint64_t miss_first = 0, miss_last = 0;
    for (uint64_t u = u_first; u <= u_last; ++u) {
      if (!level.access(u)) {
        if (all_hit)
          miss_first = u;
        miss_last = u;
        all_hit = false;
      }
    }
    if (all_hit)
      return served;
    served = static_cast<int>(k) + 1;
    first_byte = miss_first * ub;
    bytes = (miss_last - miss_first + 1) * ub;
  }
  return served;
}

} // namespace cbi::sim
