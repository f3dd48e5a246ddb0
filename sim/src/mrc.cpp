#include "cbi/sim/mrc.hpp"

#include "cbi/error.hpp"
#include "cbi/sim/user_workload.hpp"

#include <algorithm>
#include <unordered_map>

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

// Each unit's last use: a slot per unit of the addresses' span (dense), or one per unit touched
// (sparse: a trace whose addresses span far more than it touches, two buffers terabytes apart,
// kept a slot for every line between them and could not run).
class DenseLastUse {
public:
  explicit DenseLastUse(int64_t units) : m_time(static_cast<std::size_t>(units), kNever) {}
  int64_t &at(uint64_t unit) { return m_time[unit]; }
  template <class F> void each_live(F &&f) {
    for (int64_t &t : m_time)
      if (t != kNever)
        f(t);
  }

private:
  std::vector<int64_t> m_time;
};

class SparseLastUse {
public:
  explicit SparseLastUse(int64_t) {}
  int64_t &at(uint64_t unit) { return m_time.try_emplace(unit, kNever).first->second; }
  template <class F> void each_live(F &&f) {
    for (auto &entry : m_time)
      if (entry.second != kNever)
        f(entry.second);
  }

private:
  std::unordered_map<uint64_t, int64_t> m_time; // references stay valid as it grows
};

// The units a curve's table spans, and the most units it touches: per access the most lines its
// bytes can straddle (a trace's 128-byte lanes in 16-byte lines touch 9 where unaligned).
int64_t span_units(const SimConfig &c) {
  return c.workload.footprint_bytes() / c.levels[0].line_bytes + 2;
}
double touched_bound(const SimConfig &c) {
  return double(mrc_lines_per_access(c)) * double(c.workload.accesses()) + 2;
}

template <class LastUse>
MissRatioCurve curve_of(const SimConfig &c, const Progress &progress, int64_t units) {
  MissRatioCurve curve;
  curve.unit_bytes = c.levels[0].line_bytes;
  LastUse last_time(units);
  // Times are renumbered (compacted) whenever the tree fills, and the tree grows to four times
  // the live units when they fill half of it (never, for a dense table: it starts at that).
  Fenwick live(static_cast<std::size_t>(std::max<int64_t>(4 * units, 1 << 16)));
  int64_t now = 0, live_count = 0;
  uint64_t previous_unit = ~uint64_t{0};

  auto compact = [&] {
    std::vector<int64_t *> order; // the live units' last-use times
    order.reserve(static_cast<std::size_t>(live_count));
    last_time.each_live([&](int64_t &t) { order.push_back(&t); });
    std::sort(order.begin(), order.end(),
              [](const int64_t *a, const int64_t *b) { return *a < *b; });
    if (2 * order.size() > live.size())
      live = Fenwick(4 * order.size());
    else
      live.clear();
    for (std::size_t k = 0; k < order.size(); ++k) {
      *order[k] = static_cast<int64_t>(k);
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
    int64_t &last = last_time.at(unit);
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

} // namespace

int64_t MissRatioCurve::misses(int64_t capacity_lines) const {
  int64_t m = cold_misses;
  for (std::size_t d = static_cast<std::size_t>(std::max<int64_t>(capacity_lines, 0));
       d < distance_counts.size(); ++d)
    m += distance_counts[d];
  return m;
}

int64_t mrc_lines_per_access(const SimConfig &c) {
  const int64_t bytes = c.workload.user ? c.workload.user->widest_access_bytes()
                                        : c.workload.elem_bytes,
                line = c.levels.at(0).line_bytes;
  // An access of B bytes starting at the last byte of a line reaches (B - 1) bytes further.
  return 1 + (std::max<int64_t>(bytes, 1) - 1 + line - 1) / line;
}

bool mrc_sparse(const SimConfig &c) { return double(span_units(c)) > touched_bound(c); }

double mrc_state_bytes(const SimConfig &c) {
  // Dense: per unit of the span a last-use time (8 B), four Fenwick slots (16 B), a compaction
  // entry (16 B) and a distance count (8 B). Sparse: per unit touched a hash node and its bucket
  // (about 56 B), four Fenwick slots, a compaction pointer and a distance count (32 B).
  return mrc_sparse(c) ? 88.0 * touched_bound(c) : 48.0 * double(span_units(c));
}

MissRatioCurve miss_ratio_curve(const SimConfig &c, const Progress &progress) {
  validate(c);
  if (c.levels.size() != 1 || c.levels[0].sector_bytes != 0)
    throw UsageError("cache.levels",
                     "a miss-ratio curve needs exactly one unsectored level; allowed: "
                     "one --line-bytes (capacity, ways and policy are ignored)");
  const int64_t units = span_units(c);
  return mrc_sparse(c) ? curve_of<SparseLastUse>(c, progress, 0)
                       : curve_of<DenseLastUse>(c, progress, units);
}

} // namespace cbi::sim
