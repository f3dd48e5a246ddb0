#include "cbi/sim/mrc.hpp"

#include "cbi/error.hpp"

#include <algorithm>

namespace cbi::sim {
namespace {

// Fenwick tree over access times; a 1 at time t marks "the unit last used at t is still live".
class Fenwick {
public:
  explicit Fenwick(std::size_t n) : m_tree(n + 1, 0) {}
  std::size_t size() const { return m_tree.size() - 1; }
  void add(std::size_t i, int32_t v) {
    for (++i; i < m_tree.size(); i += i & (~i + 1))
      m_tree[i] += v;
  }
  int64_t prefix(std::size_t i) const { // sum of [0, i)
    int64_t s = 0;
    for (; i > 0; i -= i & (~i + 1))
      s += m_tree[i];
    return s;
  }
  void clear() { std::fill(m_tree.begin(), m_tree.end(), 0); }

private:
  std::vector<int32_t> m_tree;
};

constexpr int64_t kNever = -1;

} // namespace

int64_t MissRatioCurve::misses(int64_t capacity_lines) const {
  int64_t m = cold_misses;
  for (std::size_t d = static_cast<std::size_t>(std::max<int64_t>(capacity_lines, 0));
       d < distance_counts.size(); ++d)
    m += distance_counts[d];
  return m;
}

MissRatioCurve miss_ratio_curve(const SimConfig &c, const Progress &progress) {
  validate(c);
  if (c.levels.size() != 1 || c.levels[0].sector_bytes != 0)
    throw UsageError("cache.levels",
                     "a miss-ratio curve needs exactly one unsectored level; allowed: "
                     "one --line-bytes (capacity, ways and policy are ignored)");
  MissRatioCurve curve;
  curve.unit_bytes = c.levels[0].line_bytes;
  const int64_t units = c.workload.footprint_bytes() / curve.unit_bytes + 2;
  std::vector<int64_t> last_time(static_cast<std::size_t>(units), kNever);
  // Times are renumbered (compacted) whenever the tree fills; live marks never exceed `units`.
  Fenwick live(static_cast<std::size_t>(std::max<int64_t>(4 * units, 1 << 16)));
  int64_t now = 0, live_count = 0;
  uint64_t previous_unit = ~uint64_t{0};

  auto compact = [&] {
    std::vector<std::pair<int64_t, int64_t>> order; // (time, unit)
    order.reserve(static_cast<std::size_t>(live_count));
    for (int64_t u = 0; u < units; ++u)
      if (last_time[u] != kNever)
        order.emplace_back(last_time[u], u);
    std::sort(order.begin(), order.end());
    live.clear();
    for (std::size_t k = 0; k < order.size(); ++k) {
      last_time[order[k].second] = static_cast<int64_t>(k);
      live.add(k, 1);
    }
    now = static_cast<int64_t>(order.size());
  };

  auto touch = [&](uint64_t unit, int64_t count) {
    curve.accesses += count;
    if (unit == previous_unit) { // distance 0: the unit is the most recent
      curve.distance_counts.resize(std::max<std::size_t>(curve.distance_counts.size(), 1));
      curve.distance_counts[0] += count;
      return;
    }
    previous_unit = unit;
    if (now == static_cast<int64_t>(live.size()))
      compact();
    int64_t &last = last_time[unit];
    if (last == kNever) {
      ++curve.cold_misses;
      ++live_count;
    } else {
      // Distinct units used since: live marks strictly after `last`.
      const int64_t d = live.prefix(static_cast<std::size_t>(now)) -
                        live.prefix(static_cast<std::size_t>(last) + 1);
      if (static_cast<std::size_t>(d) >= curve.distance_counts.size())
        curve.distance_counts.resize(static_cast<std::size_t>(d) + 1);
      ++curve.distance_counts[static_cast<std::size_t>(d)];
      live.add(static_cast<std::size_t>(last), -1);
    }
    live.add(static_cast<std::size_t>(now), 1);
    last = now++;
    if (count > 1) {
      curve.distance_counts.resize(std::max<std::size_t>(curve.distance_counts.size(), 1));
      curve.distance_counts[0] += count - 1;
    }
  };

  replay(
      c, curve.unit_bytes, [](int64_t, remap::Task<int64_t>) {},
      [&](uint64_t unit, int64_t count, bool) { touch(unit, count); }, progress);
  return curve;
}

} // namespace cbi::sim
