// The cache chain: misses fetched level by level, stores counted apart, and (opt-in) every
// level's misses classified.
#include "cbi/sim/hierarchy.hpp"

#include "cbi/error.hpp"

#include <algorithm>

namespace cbi::sim {

Hierarchy::Hierarchy(const std::vector<CacheConfig> &levels, bool classify_misses)
    : m_classify(classify_misses) {
  if (levels.empty())
    throw UsageError("cache.levels", "at least one cache level is needed");
  m_levels.reserve(levels.size());
  for (const CacheConfig &c : levels) {
    m_levels.emplace_back(c);
    if (m_classify)
      m_classifiers.emplace_back(c);
  }
  m_store_accesses.assign(levels.size(), 0);
  m_store_misses.assign(levels.size(), 0);
  m_before.resize(2 * levels.size());
}

std::vector<CacheStats> Hierarchy::stats() const {
  std::vector<CacheStats> out;
  for (std::size_t k = 0; k < m_levels.size(); ++k) {
    CacheStats s = m_levels[k].stats();
    s.stores = m_store_accesses[k];
    s.store_misses = m_store_misses[k];
    s.loads = s.accesses - s.stores;
    s.load_misses = s.misses - s.store_misses;
    if (m_classify) {
      s.classified = true;
      s.misses_compulsory = m_classifiers[k].compulsory();
      s.misses_capacity = m_classifiers[k].capacity();
      s.misses_conflict = m_classifiers[k].conflict();
    }
    out.push_back(s);
  }
  return out;
}

// One access of level k; with Classify, its lookup (not a repeat of the last unit) is classified.
template <bool Classify> bool Hierarchy::lookup(std::size_t k, uint64_t unit, int64_t count) {
  Cache &level = m_levels[k];
  if constexpr (Classify) {
    const bool repeat = level.repeats_last(unit);
    const bool hit = level.access(unit, count);
    if (!repeat)
      m_classifiers[k].observe(unit, hit);
    return hit;
  } else {
    return level.access(unit, count);
  }
}

template <bool Classify> int Hierarchy::miss_below(uint64_t l1_unit) {
  const uint64_t ub = static_cast<uint64_t>(m_levels[0].config().unit_bytes());
  return fetch<Classify>(1, l1_unit * ub, ub);
}
template int Hierarchy::miss_below<false>(uint64_t);
template int Hierarchy::miss_below<true>(uint64_t);

// Level k is asked for bytes [first_byte, first_byte + bytes): each of its units there is one
// access, and each unit it misses is fetched from level k+1 on its own, so a lower level sees
// exactly the units the level above it missed (never the hits between two misses).
template <bool Classify> int Hierarchy::fetch(std::size_t k, uint64_t first_byte, uint64_t bytes) {
  if (k == m_levels.size())
    return static_cast<int>(k);
  const uint64_t ub = static_cast<uint64_t>(m_levels[k].config().unit_bytes());
  const uint64_t u_first = first_byte / ub, u_last = (first_byte + bytes - 1) / ub;
  int served = static_cast<int>(k);
  for (uint64_t u = u_first; u <= u_last; ++u)
    if (!lookup<Classify>(k, u, 1))
      served = std::max(served, fetch<Classify>(k + 1, u * ub, ub));
  return served;
}

template <bool Classify> int Hierarchy::store_miss_below(uint64_t l1_unit) {
  ++m_store_misses[0];
  const std::size_t n = m_levels.size();
  for (std::size_t k = 1; k < n; ++k) {
    m_before[2 * k] = m_levels[k].accesses();
    m_before[2 * k + 1] = m_levels[k].misses();
  }
  const int served = miss_below<Classify>(l1_unit);
  for (std::size_t k = 1; k < n; ++k) {
    m_store_accesses[k] += m_levels[k].accesses() - m_before[2 * k];
    m_store_misses[k] += m_levels[k].misses() - m_before[2 * k + 1];
  }
  return served;
}
template int Hierarchy::store_miss_below<false>(uint64_t);

int Hierarchy::access_classified(uint64_t unit, int64_t count, bool is_store) {
  if (is_store)
    m_store_accesses[0] += count;
  if (lookup<true>(0, unit, count))
    return 0;
  if (m_levels.size() > 1)
    return is_store ? store_miss_below<true>(unit) : miss_below<true>(unit);
  m_store_misses[0] += is_store;
  return 1;
}

} // namespace cbi::sim
