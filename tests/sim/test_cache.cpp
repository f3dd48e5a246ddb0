// The fast cache engines (sim/src/engine.hpp: ring-ordered sets, 32-bit SIMD tags, hashed fully
// associative storage) against a deliberately plain reference model, on random access streams and
// random geometries; plus issue 2's exact counts from independent simulators (pycachesim,
// DineroIV); and the 3C miss classification against a plain reference (a real and a fully
// associative LRU reference cache and a set of the units seen) and hand-computed streams.
#include "cbi/sim/hierarchy.hpp"
#include "cbi/sim/simulate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <random>
#include <set>
#include <vector>

namespace {

using namespace cbi;
using sim::CacheConfig;
using sim::Policy;

// A textbook set-associative cache: each set is a deque of {line, sector mask}, front = most recent
// (LRU) or newest (FIFO). Linear searches only; nothing clever to get wrong.
class ReferenceCache {
public:
  explicit ReferenceCache(const CacheConfig &c)
      : m_config(c), m_sets(static_cast<std::size_t>(c.sets())),
        m_sectors_per_line(c.sector_bytes ? c.line_bytes / c.sector_bytes : 1) {}

  // One access to `unit` (a sector index if sectored). Returns true on a hit.
  bool access(uint64_t unit) {
    ++accesses;
    const uint64_t line = unit / static_cast<uint64_t>(m_sectors_per_line);
    const uint32_t bit = 1u << (unit % static_cast<uint64_t>(m_sectors_per_line));
    auto &set = m_sets[line % m_sets.size()];
    auto it = std::find_if(set.begin(), set.end(), [&](const Way &w) { return w.line == line; });
    if (it != set.end()) {
      const bool hit = (it->sectors & bit) != 0;
      it->sectors |= bit;
      if (m_config.policy == Policy::lru) { // move to the front
        const Way w = *it;
        set.erase(it);
        set.push_front(w);
      }
      if (!hit)
        ++misses;
      return hit;
    }
    ++misses;
    if (static_cast<int64_t>(set.size()) == m_config.ways_effective()) {
      set.pop_back(); // least recent (LRU) or oldest (FIFO)
      ++evictions;
    }
    set.push_front(Way{line, bit});
    return false;
  }

  int64_t accesses = 0, misses = 0, evictions = 0;

private:
  struct Way {
    uint64_t line;
    uint32_t sectors;
  };
  CacheConfig m_config;
  std::vector<std::deque<Way>> m_sets;
  int64_t m_sectors_per_line;
};

// A stream with locality (so that hits happen) and occasional far jumps, over `span` units.
std::vector<uint64_t> random_stream(std::mt19937_64 &rng, int64_t n, uint64_t span, uint64_t base) {
  std::vector<uint64_t> units;
  units.reserve(static_cast<std::size_t>(n));
  uint64_t cursor = 0;
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t r = rng() % 100;
    if (r < 60)
      cursor = (cursor + rng() % 3) % span; // near: repeats and neighbours
    else if (r < 90)
      cursor = (cursor + span - rng() % 16) % span; // recent past
    else
      cursor = rng() % span; // anywhere
    units.push_back(base + cursor);
  }
  return units;
}

CacheConfig random_geometry(std::mt19937_64 &rng, Policy policy) {
  CacheConfig c;
  c.policy = policy;
  c.line_bytes = int64_t{16} << (rng() % 4); // 16..128
  const int64_t ways_choices[] = {0, 1, 2, 3, 4, 5, 8, 12, 16, 32, 64};
  c.ways = ways_choices[rng() % std::size(ways_choices)];
  const int64_t sets =
      c.ways == 0 ? 1 : 1 + static_cast<int64_t>(rng() % 9); // not only powers of 2
  c.capacity_lines = c.ways == 0 ? 1 + static_cast<int64_t>(rng() % 300) : c.ways * sets;
  if (rng() % 3 == 0 && c.line_bytes >= 64)
    c.sector_bytes = 32;
  return c;
}

void expect_same_as_reference(const CacheConfig &c, const std::vector<uint64_t> &units) {
  sim::Cache fast(c);
  ReferenceCache ref(c);
  for (std::size_t i = 0; i < units.size(); ++i) {
    const bool ref_hit = ref.access(units[i]);
    ASSERT_EQ(fast.access(units[i]), ref_hit) << c.describe() << ", access " << i;
  }
  const sim::CacheStats s = fast.stats();
  EXPECT_EQ(s.accesses, ref.accesses) << c.describe();
  EXPECT_EQ(s.misses, ref.misses) << c.describe();
  EXPECT_EQ(s.hits, ref.accesses - ref.misses) << c.describe();
  EXPECT_EQ(s.fetches, ref.misses) << c.describe();
  EXPECT_EQ(s.evictions, ref.evictions) << c.describe();
}

TEST(Cache, LruAndFifoMatchTheReferenceOnRandomStreamsAndGeometries) {
  std::mt19937_64 rng(2022);
  for (int trial = 0; trial < 400; ++trial) {
    for (Policy policy : {Policy::lru, Policy::fifo}) {
      const CacheConfig c = random_geometry(rng, policy);
      sim::validate(c);
      const uint64_t span = static_cast<uint64_t>(c.capacity_lines) * (1 + rng() % 4) *
                            static_cast<uint64_t>(c.sector_bytes ? c.line_bytes / 32 : 1);
      expect_same_as_reference(c, random_stream(rng, 3000, span, 0));
    }
  }
}

TEST(Cache, TagsBeyond32BitsMatchTheReference) {
  // Line indices past 2^32 force the engines from 32-bit to 64-bit tags mid-stream.
  std::mt19937_64 rng(7);
  for (Policy policy : {Policy::lru, Policy::fifo}) {
    for (int64_t ways : {0, 4, 16}) {
      CacheConfig c;
      c.policy = policy;
      c.line_bytes = 128;
      c.ways = ways;
      c.capacity_lines = ways == 0 ? 96 : ways * 8;
      std::vector<uint64_t> units = random_stream(rng, 5000, 400, 0);
      const std::vector<uint64_t> high = random_stream(rng, 5000, 400, (uint64_t{1} << 32) - 200);
      units.insert(units.end(), high.begin(), high.end());
      expect_same_as_reference(c, units);
    }
  }
}

TEST(Cache, LargeFullyAssociativeUsesTheSameLruOrder) {
  // More than 64 lines fully associative takes the hashed layout.
  std::mt19937_64 rng(11);
  for (int64_t lines : {65, 256, 1000, 4096}) {
    CacheConfig c;
    c.line_bytes = 64;
    c.capacity_lines = lines;
    expect_same_as_reference(c, random_stream(rng, 40000, static_cast<uint64_t>(lines) * 3, 0));
  }
}

TEST(Cache, RandomAndVoltaAreReproducibleAndBounded) {
  std::mt19937_64 rng(3);
  const std::vector<uint64_t> units = random_stream(rng, 20000, 300, 0);
  for (Policy policy : {Policy::random, Policy::volta}) {
    for (int64_t ways : {0, 8}) {
      CacheConfig c;
      c.policy = policy;
      c.ways = ways;
      c.capacity_lines = 64;
      auto run = [&](uint64_t seed) {
        CacheConfig s = c;
        s.seed = seed;
        sim::Cache cache(s);
        for (uint64_t u : units)
          cache.access(u);
        return cache.stats();
      };
      const sim::CacheStats a = run(1), b = run(1), other = run(99);
      EXPECT_EQ(a.misses, b.misses) << "same seed, same result";
      EXPECT_EQ(a.evictions, b.evictions);
      EXPECT_NE(a.misses, other.misses) << "the seed must matter";
      // Never better than the compulsory misses, never worse than every access missing.
      std::vector<uint64_t> distinct = units;
      std::sort(distinct.begin(), distinct.end());
      distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
      EXPECT_GE(a.misses, static_cast<int64_t>(distinct.size()));
      EXPECT_LT(a.misses, a.accesses);
    }
  }
}

TEST(Cache, VoltaEvictsFourLinesAtATime) {
  // Fully associative, 8 lines, a cyclic stream over 9 lines: every miss on a full cache frees 4
  // lines at once, so evictions come in fours and the cache then refills 3 misses without evicting.
  CacheConfig c;
  c.policy = Policy::volta;
  c.capacity_lines = 8;
  sim::Cache cache(c);
  for (uint64_t u = 0; u < 8; ++u)
    cache.access(u);
  EXPECT_EQ(cache.stats().evictions, 0);
  cache.access(100);
  EXPECT_EQ(cache.stats().evictions, 4);
  int64_t resident = 0;
  cache.for_each_resident([&](uint64_t) { ++resident; });
  EXPECT_EQ(resident, 5); // 8 - 4 + the new line
  for (uint64_t u = 101; u < 104; ++u)
    cache.access(u);
  EXPECT_EQ(cache.stats().evictions, 4) << "three more lines fit without evicting";
}

TEST(Hierarchy, TwoLevelsMatchChainedReferences) {
  // An L1 miss asks L2 for the L1 unit's bytes, as L2 units; L2 only ever sees L1 misses.
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 60; ++trial) {
    CacheConfig l1 = random_geometry(rng, Policy::lru);
    CacheConfig l2;
    l2.line_bytes = 128;
    l2.ways = 8;
    l2.capacity_lines = 8 * (4 + static_cast<int64_t>(rng() % 12));
    sim::Hierarchy h({l1, l2});
    ReferenceCache r1(l1), r2(l2);
    const int64_t u1_bytes = l1.unit_bytes(), u2_bytes = l2.unit_bytes();
    const uint64_t span = static_cast<uint64_t>(l1.capacity_lines) * 6;
    for (uint64_t u : random_stream(rng, 4000, span, 0)) {
      // Served by L1 (0), by L2 when every L2 unit of the L1 unit's bytes hits (1), else DRAM (2).
      int expected = 0;
      if (!r1.access(u)) {
        expected = 1;
        const int64_t first = static_cast<int64_t>(u) * u1_bytes;
        for (int64_t b = first / u2_bytes * u2_bytes; b < first + u1_bytes; b += u2_bytes)
          if (!r2.access(static_cast<uint64_t>(b / u2_bytes)))
            expected = 2;
      }
      ASSERT_EQ(h.access(u), expected) << l1.describe();
    }
    const auto stats = h.stats();
    EXPECT_EQ(stats[0].misses, r1.misses);
    EXPECT_EQ(stats[1].accesses, r2.accesses);
    EXPECT_EQ(stats[1].misses, r2.misses);
  }
}

// A plain chain of reference caches: an access to level k's unit that misses asks level k+1 for
// that unit's bytes, one level-(k+1) unit at a time. Returns the level that served it (levels() =
// memory). Ref is any reference with bool access(unit): ReferenceCache, or ReferenceClasses below.
template <class Ref>
int chained_access(std::vector<Ref> &refs, const std::vector<CacheConfig> &cfg, std::size_t k,
                   uint64_t unit) {
  if (refs[k].access(unit))
    return static_cast<int>(k);
  if (k + 1 == refs.size())
    return static_cast<int>(k) + 1;
  const int64_t ub = cfg[k].unit_bytes(), below = cfg[k + 1].unit_bytes();
  const int64_t first = static_cast<int64_t>(unit) * ub;
  int served = static_cast<int>(k) + 1;
  for (int64_t b = first / below * below; b < first + ub; b += below)
    served = std::max(served, chained_access(refs, cfg, k + 1, static_cast<uint64_t>(b / below)));
  return served;
}

// One random level of a chain: lines of 16..128 B (in any order between levels), fully associative
// or 1, 2 or 4 ways, 32 B sectors on half the lines of 64 B or more; with `any_policy` LRU or FIFO,
// else the default. The draws keep one order, so a seed gives the same chain in every test.
CacheConfig random_chain_level(std::mt19937_64 &rng, bool any_policy) {
  CacheConfig c;
  c.line_bytes = int64_t{16} << (rng() % 4);
  const int64_t ways[] = {0, 1, 2, 4};
  c.ways = ways[rng() % 4];
  if (any_policy)
    c.policy = rng() % 2 ? Policy::lru : Policy::fifo;
  c.capacity_lines = c.ways == 0 ? 1 + static_cast<int64_t>(rng() % 40)
                                 : c.ways * (1 + static_cast<int64_t>(rng() % 8));
  if (c.line_bytes >= 64 && rng() % 2)
    c.sector_bytes = 32;
  return c;
}

TEST(Hierarchy, ThreeAndFourLevelsMatchAPlainChainWithMixedLineAndSectorSizes) {
  // Issue 12's bug: L3 was charged for the whole byte range between the first and last unit that
  // L2 missed, L2's hits between them included.
  std::mt19937_64 rng(12);
  int64_t lower_level_accesses = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const int levels = 3 + trial % 2;
    std::vector<CacheConfig> cfg;
    for (int k = 0; k < levels; ++k)
      cfg.push_back(random_chain_level(rng, false));
    sim::Hierarchy h(cfg);
    std::vector<ReferenceCache> refs;
    for (const CacheConfig &c : cfg)
      refs.emplace_back(c);
    const uint64_t span = static_cast<uint64_t>(cfg[0].capacity_lines) * 8 + 16;
    for (uint64_t u : random_stream(rng, 3000, span, 0))
      ASSERT_EQ(h.access(u), chained_access(refs, cfg, 0, u)) << "trial " << trial;
    const auto stats = h.stats();
    for (int k = 0; k < levels; ++k) {
      EXPECT_EQ(stats[k].accesses, refs[k].accesses) << "trial " << trial << " L" << k + 1;
      EXPECT_EQ(stats[k].misses, refs[k].misses) << "trial " << trial << " L" << k + 1;
      EXPECT_EQ(stats[k].evictions, refs[k].evictions) << "trial " << trial << " L" << k + 1;
    }
    lower_level_accesses += stats[2].accesses;
  }
  EXPECT_GT(lower_level_accesses, 0) << "the streams never reached L3";
}

TEST(Hierarchy, IssueTwelveExampleChargesL3OnlyForWhatL2Missed) {
  // cbi simulate --workload matmul --size 5x1 --depth 6 --order zigzag:3 --level lines=1,line=64
  //   --level lines=5,line=16,ways=1 --level lines=256,line=16 gave 129 L2 misses, 132 L3 accesses.
  sim::SimConfig c;
  c.workload.kind = sim::kind_of<sim::MatmulWorkload>();
  c.workload.width = 5;
  c.workload.height = 1;
  c.workload.depth = 6;
  c.order = remap::parse_order("zigzag:3");
  CacheConfig l1, l2, l3;
  l1.line_bytes = 64;
  l1.capacity_lines = 1;
  l2.line_bytes = 16;
  l2.capacity_lines = 5;
  l2.ways = 1;
  l3.line_bytes = 16;
  l3.capacity_lines = 256;
  c.levels = {l1, l2, l3};
  const sim::SimResult r = sim::simulate(c);
  EXPECT_EQ(r.levels[2].accesses, r.levels[1].misses); // equal unit sizes: one access per miss
  EXPECT_EQ(r.levels[1].accesses, r.levels[0].misses * 4);
}

// Issue 2, section 6: a 9x9 clamped stencil on a 1024x1024 float array in linear order, 84,934,656
// loads; the miss counts come from pycachesim and DineroIV.
sim::SimConfig reference_trace(std::vector<CacheConfig> levels) {
  sim::SimConfig c;
  c.workload.width = c.workload.height = 1024;
  c.workload.stencil_w = c.workload.stencil_h = 9;
  c.levels = std::move(levels);
  return c;
}

CacheConfig level(int64_t capacity_bytes, int64_t line_bytes, int64_t ways) {
  CacheConfig c;
  c.line_bytes = line_bytes;
  c.capacity_lines = capacity_bytes / line_bytes;
  c.ways = ways;
  return c;
}

TEST(ExactCounts, IssueTwoReferenceTrace) {
  const int64_t loads = 84934656;
  {
    const auto r = sim::simulate(reference_trace({level(24 * 16, 16, 0)}));
    EXPECT_EQ(r.accesses, loads);
    EXPECT_EQ(r.levels[0].misses, 27892352); // (a) 24 lines x 16 B, fully associative
  }
  for (int64_t ways : {4, 8}) {
    const auto r = sim::simulate(reference_trace({level(256 << 10, 128, ways)}));
    EXPECT_EQ(r.levels[0].misses, 32768) << ways << "-way"; // (b) 256 KiB, 128 B lines
  }
  {
    const auto r =
        sim::simulate(reference_trace({level(32 << 10, 128, 8), level(4 << 20, 128, 16)}));
    EXPECT_EQ(r.levels[0].misses, 11371328); // (c) L1 32 KiB 8-way
    EXPECT_EQ(r.levels[1].accesses, 11371328);
    EXPECT_EQ(r.levels[1].misses, 32768); // L2 4 MiB 16-way
  }
}

} // namespace

namespace {

// 3C by definition, with reference caches: a miss of `real` is compulsory on the unit's first
// access, capacity when a fully associative LRU cache of the same lines and sectors misses too,
// conflict otherwise.
struct ReferenceClasses {
  explicit ReferenceClasses(const CacheConfig &c) : real(c), shadow(fully_associative_lru(c)) {}
  static CacheConfig fully_associative_lru(CacheConfig c) {
    c.ways = 0;
    c.policy = Policy::lru;
    return c;
  }
  bool access(uint64_t unit) {
    const bool hit = real.access(unit);
    const bool shadow_hit = shadow.access(unit);
    const bool first = seen.insert(unit).second;
    if (!hit)
      ++(first ? compulsory : !shadow_hit ? capacity : conflict);
    return hit;
  }
  ReferenceCache real, shadow;
  std::set<uint64_t> seen;
  int64_t compulsory = 0, capacity = 0, conflict = 0;
};

void expect_classes(const sim::CacheStats &s, int64_t compulsory, int64_t capacity,
                    int64_t conflict, const std::string &what) {
  EXPECT_TRUE(s.classified) << what;
  EXPECT_EQ(s.misses_compulsory, compulsory) << what;
  EXPECT_EQ(s.misses_capacity, capacity) << what;
  EXPECT_EQ(s.misses_conflict, conflict) << what;
  EXPECT_EQ(s.misses_compulsory + s.misses_capacity + s.misses_conflict, s.misses) << what;
}

sim::CacheStats classify(const CacheConfig &c, const std::vector<uint64_t> &units) {
  sim::Hierarchy h({c}, true);
  for (uint64_t u : units)
    h.access(u);
  return h.stats()[0];
}

} // namespace

TEST(MissClasses, MatchTheDefinitionOnRandomStreamsGeometriesAndPolicies) {
  // LRU and FIFO against the reference; every policy: the three sum to the misses, compulsory =
  // distinct units, and classifying does not change what the cache does.
  std::mt19937_64 rng(33);
  int64_t seen_conflict = 0, seen_capacity = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Policy policies[] = {Policy::lru, Policy::fifo, Policy::random, Policy::volta};
    const Policy policy = policies[trial % 4];
    CacheConfig c = random_geometry(rng, policy);
    if (policy == Policy::volta && c.ways_effective() < 4)
      c.policy = Policy::random;
    c.seed = rng();
    const uint64_t span = static_cast<uint64_t>(c.capacity_lines) * (1 + rng() % 4) *
                          static_cast<uint64_t>(c.sector_bytes ? c.line_bytes / 32 : 1);
    const std::vector<uint64_t> units = random_stream(rng, 3000, span, rng() % 2 ? 0 : 1u << 20);
    const sim::CacheStats s = classify(c, units);
    sim::Cache plain(c);
    for (uint64_t u : units)
      plain.access(u);
    const std::string what = c.describe() + ", trial " + std::to_string(trial);
    EXPECT_EQ(s.misses, plain.stats().misses) << what;
    EXPECT_EQ(s.misses_compulsory + s.misses_capacity + s.misses_conflict, s.misses) << what;
    EXPECT_EQ(s.misses_compulsory,
              static_cast<int64_t>(std::set<uint64_t>(units.begin(), units.end()).size()))
        << what;
    if (c.policy == Policy::lru || c.policy == Policy::fifo) {
      ReferenceClasses ref(c);
      for (uint64_t u : units)
        ref.access(u);
      expect_classes(s, ref.compulsory, ref.capacity, ref.conflict, what);
    }
    seen_conflict += s.misses_conflict;
    seen_capacity += s.misses_capacity;
  }
  EXPECT_GT(seen_conflict, 0) << "the streams never produced a conflict miss";
  EXPECT_GT(seen_capacity, 0) << "the streams never produced a capacity miss";
}

TEST(MissClasses, FullyAssociativeLruHasNoConflictMisses) {
  std::mt19937_64 rng(34);
  for (int64_t lines : {1, 3, 24, 64, 65, 500}) { // array and hashed layouts
    for (int64_t sector_bytes : {0, 32}) {
      CacheConfig c;
      c.line_bytes = 128;
      c.sector_bytes = sector_bytes;
      c.capacity_lines = lines;
      const uint64_t span = static_cast<uint64_t>(lines) * 3 * (sector_bytes ? 4 : 1);
      const sim::CacheStats s = classify(c, random_stream(rng, 20000, span, 0));
      EXPECT_EQ(s.misses_conflict, 0) << c.describe();
      EXPECT_GT(s.misses_capacity, 0) << c.describe();
    }
  }
}

TEST(MissClasses, HandComputedStreams) {
  CacheConfig dm; // direct-mapped, 2 lines (2 sets)
  dm.capacity_lines = 2;
  dm.ways = 1;
  // Ping-pong: 0 and 2 share set 0. 0, 2 are first references; every later access misses in the
  // direct-mapped cache but would hit in a 2-line fully associative one: all conflict.
  expect_classes(classify(dm, {0, 2, 0, 2, 0, 2}), 2, 0, 4, "ping-pong");
  // 0, 1 fill both sets; then a cyclic sweep over 3 units misses in both caches: capacity.
  CacheConfig fa2 = dm;
  fa2.ways = 0;
  expect_classes(classify(fa2, {0, 1, 2, 0, 1, 2}), 3, 3, 0, "cyclic over 3, 2 lines");
  // 4 sets, direct-mapped: 0 1 2 3 fill their sets; 4 (set 0) evicts 0, compulsory. 0 misses,
  // and a 4-line fully associative LRU cache, holding {1, 2, 3, 4}, misses it too: capacity (it
  // then evicts 1). 4 misses in the direct-mapped cache (0 took set 0 back) but hits in the fully
  // associative one, {2, 3, 4, 0}: conflict.
  CacheConfig dm4 = dm;
  dm4.capacity_lines = 4;
  expect_classes(classify(dm4, {0, 1, 2, 3, 4, 0, 4}), 5, 1, 1, "4 sets");
  // Sectored: 2 lines of 4 sectors, direct-mapped. Sector 1 of line 0 is a first reference even
  // though its line is resident.
  CacheConfig sec = dm;
  sec.line_bytes = 128;
  sec.sector_bytes = 32;
  // units 0 (line 0), 1 (line 0), 8 (line 2, set 0: evicts line 0), 0 (conflict).
  expect_classes(classify(sec, {0, 1, 8, 0}), 3, 0, 1, "sectored");
}

TEST(MissClasses, EachLevelOfAHierarchyIsClassifiedOnItsOwnInputStream) {
  // Per level, the reference classifier is fed exactly the units that level sees (the plain chain
  // of chained_access), so L2's classes are about L2's stream of L1 misses.
  std::mt19937_64 rng(35);
  for (int trial = 0; trial < 150; ++trial) {
    const int levels = 2 + trial % 2;
    std::vector<CacheConfig> cfg;
    for (int k = 0; k < levels; ++k)
      cfg.push_back(random_chain_level(rng, true));
    sim::Hierarchy h(cfg, true);
    std::vector<ReferenceClasses> refs;
    for (const CacheConfig &c : cfg)
      refs.emplace_back(c);
    const uint64_t span = static_cast<uint64_t>(cfg[0].capacity_lines) * 8 + 16;
    for (uint64_t u : random_stream(rng, 3000, span, 0))
      ASSERT_EQ(h.access(u), chained_access(refs, cfg, 0, u)) << "trial " << trial;
    const auto stats = h.stats();
    for (int k = 0; k < levels; ++k)
      expect_classes(stats[k], refs[k].compulsory, refs[k].capacity, refs[k].conflict,
                     "trial " + std::to_string(trial) + " L" + std::to_string(k + 1));
  }
}

TEST(MissClasses, OffByDefaultAndTheSameCountsWhenOn) {
  sim::SimConfig c = reference_trace({level(32 << 10, 128, 8), level(256 << 10, 128, 4)});
  c.workload.width = c.workload.height = 256;
  const sim::SimResult off = sim::simulate(c);
  c.classify_misses = true;
  const sim::SimResult on = sim::simulate(c);
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_FALSE(off.levels[k].classified);
    EXPECT_EQ(off.levels[k].misses_compulsory + off.levels[k].misses_capacity +
                  off.levels[k].misses_conflict,
              0);
    EXPECT_EQ(on.levels[k].accesses, off.levels[k].accesses) << "L" << k + 1;
    EXPECT_EQ(on.levels[k].misses, off.levels[k].misses) << "L" << k + 1;
    EXPECT_EQ(on.levels[k].evictions, off.levels[k].evictions) << "L" << k + 1;
    EXPECT_EQ(on.levels[k].misses_compulsory + on.levels[k].misses_capacity +
                  on.levels[k].misses_conflict,
              on.levels[k].misses);
  }
  // Compulsory misses are the distinct units touched: every 128 B line of the 256x256 float input
  // (the clamped stencil reads every element), at both levels.
  EXPECT_EQ(on.levels[0].misses_compulsory, 256 * 256 * 4 / 128);
  EXPECT_EQ(on.levels[1].misses_compulsory, 256 * 256 * 4 / 128);
}
