// The replay loop and the workload interface: simulate_observed() and simulate() give the same
// counts on random configurations (issue 9 §7); every workload's run fast path equals its
// per-instruction program merged unit by unit; the 3-D 7-point stencil (issue 9 §4) against a
// literal transcription; loads and stores counted apart, by hand for a small stencil and matmul.
#include "cbi/sim/model.hpp"
#include "cbi/sim/mrc.hpp"
#include "cbi/sim/simulate.hpp"

#include <gtest/gtest.h>

#include "sim_random.hpp"

#include <random>
#include <set>
#include <type_traits>

namespace {

using namespace cbi;
using sim::CacheConfig;
using sim::Workload;
using sim::WorkloadKind;
using test::random_level;
using test::random_order;

struct CountingObserver {
  int64_t threads = 0, runs = 0, accesses = 0;
  std::vector<int64_t> served; // runs served per level (index levels() = memory)
  int64_t last_thread = -1;
  bool ordered = true;
  void on_thread(int64_t i, remap::Task<int64_t>) {
    ordered = ordered && i == last_thread + 1;
    last_thread = i;
    ++threads;
  }
  void on_access(uint64_t, int64_t count, bool, int level) {
    ++runs;
    accesses += count;
    if (static_cast<std::size_t>(level) >= served.size())
      served.resize(static_cast<std::size_t>(level) + 1);
    ++served[static_cast<std::size_t>(level)];
  }
};

sim::SimConfig random_config(std::mt19937_64 &rng) {
  sim::SimConfig c;
  Workload &w = c.workload;
  w.kind = WorkloadKind{static_cast<int>(rng() % std::tuple_size_v<sim::WorkloadTypes>)};
  w.width = 1 + static_cast<int64_t>(rng() % 40);
  w.height = 1 + static_cast<int64_t>(rng() % 30);
  w.stencil_w = 1 + 2 * static_cast<int64_t>(rng() % 4);
  w.stencil_h = 1 + 2 * static_cast<int64_t>(rng() % 4);
  w.depth = 1 + static_cast<int64_t>(rng() % 12);
  const int elem[] = {2, 4, 8};
  w.elem_bytes = elem[rng() % 3];
  if (w.kind == sim::kind_of<sim::SgemmTiledWorkload>())
    w.elem_bytes = 4; // float only
  w.boundary = w.kind == sim::kind_of<sim::StencilWorkload>() && rng() % 2 ? sim::Boundary::none
                                                                           : sim::Boundary::clamp;
  w.writes = rng() % 3 == 0;
  c.granularity = rng() % 4 == 0 ? sim::Granularity::thread : sim::Granularity::exact;
  c.order = random_order(rng, w.width);
  c.levels.clear();
  const int levels = 1 + static_cast<int>(rng() % 3);
  for (int k = 0; k < levels; ++k)
    c.levels.push_back(random_level(rng, w.elem_bytes));
  return c;
}

} // namespace

TEST(Simulate, ObservedAndPlainGiveTheSameCountsOnRandomConfigurations) {
  std::mt19937_64 rng(9);
  for (int trial = 0; trial < 300; ++trial) {
    const sim::SimConfig c = random_config(rng);
    sim::validate(c);
    const sim::SimResult plain = sim::simulate(c);
    sim::Hierarchy h(c.levels);
    CountingObserver obs;
    const sim::SimResult observed = sim::simulate_observed(c, h, obs);
    const std::string what = c.workload.describe() + ", " + remap::to_string(c.order);
    ASSERT_EQ(plain.levels.size(), observed.levels.size()) << what;
    for (std::size_t k = 0; k < plain.levels.size(); ++k) {
      EXPECT_EQ(plain.levels[k].accesses, observed.levels[k].accesses) << what << " L" << k + 1;
      EXPECT_EQ(plain.levels[k].misses, observed.levels[k].misses) << what << " L" << k + 1;
      EXPECT_EQ(plain.levels[k].evictions, observed.levels[k].evictions) << what << " L" << k + 1;
      EXPECT_EQ(plain.levels[k].bytes_fetched, observed.levels[k].bytes_fetched) << what;
      // Loads and stores apart, the same through both paths, adding up to the totals.
      const sim::CacheStats &p = plain.levels[k];
      EXPECT_EQ(p.stores, observed.levels[k].stores) << what << " L" << k + 1;
      EXPECT_EQ(p.store_misses, observed.levels[k].store_misses) << what << " L" << k + 1;
      EXPECT_EQ(p.store_bytes, observed.levels[k].store_bytes) << what << " L" << k + 1;
      EXPECT_EQ(p.loads + p.stores, p.accesses) << what << " L" << k + 1;
      EXPECT_EQ(p.load_misses + p.store_misses, p.misses) << what << " L" << k + 1;
      EXPECT_GE(p.load_hits(), 0) << what;
      EXPECT_GE(p.store_hits(), 0) << what;
      if (k > 0) { // a level is asked for the bytes of the units the level above missed
        EXPECT_EQ(p.load_bytes + p.store_bytes, plain.levels[k - 1].bytes_fetched) << what;
      }
    }
    // One store per thread at L1 when the workload writes, none otherwise.
    EXPECT_EQ(plain.levels[0].stores, c.workload.writes ? c.workload.tasks() : 0) << what;
    if (c.granularity == sim::Granularity::exact) {
      EXPECT_EQ(plain.levels[0].load_bytes + plain.levels[0].store_bytes,
                c.workload.accesses() * c.workload.elem_bytes)
          << what;
    }
    // Classifying changes no count, and sorts every miss of every level.
    sim::SimConfig classified = c;
    classified.classify_misses = true;
    const sim::SimResult cl = sim::simulate(classified);
    for (std::size_t k = 0; k < plain.levels.size(); ++k) {
      const sim::CacheStats &s = cl.levels[k];
      EXPECT_EQ(s.misses, plain.levels[k].misses) << what << " L" << k + 1;
      EXPECT_EQ(s.store_misses, plain.levels[k].store_misses) << what << " L" << k + 1;
      EXPECT_EQ(s.misses_compulsory + s.misses_capacity + s.misses_conflict, s.misses)
          << what << " L" << k + 1;
    }
    EXPECT_EQ(plain.threads, c.workload.tasks()) << what;
    EXPECT_EQ(obs.threads, c.workload.tasks()) << what;
    EXPECT_TRUE(obs.ordered) << what;
    EXPECT_EQ(obs.accesses, plain.accesses) << what;
    if (c.granularity == sim::Granularity::exact) {
      EXPECT_EQ(plain.accesses, c.workload.accesses()) << what;
    }
    // Runs that missed L1 are exactly the L1 misses (each run's first access decides).
    int64_t missed_runs = 0;
    for (std::size_t k = 1; k < obs.served.size(); ++k)
      missed_runs += obs.served[k];
    EXPECT_EQ(missed_runs, plain.levels[0].misses) << what;
  }
}

namespace {

// Expands a workload's run stream into one unit per load (loads only).
template <class W>
std::vector<uint64_t> runs_of(const Workload &w, int64_t unit_bytes, int64_t x, int64_t y) {
  sim::RunGenerator<W> gen(w, unit_bytes, sim::Granularity::exact);
  std::vector<uint64_t> units;
  gen.thread(x, y, [&](uint64_t unit, int64_t count, bool write) {
    EXPECT_GE(count, 1);
    if (!write)
      units.insert(units.end(), static_cast<std::size_t>(count), unit);
  });
  return units;
}

template <class W>
std::vector<uint64_t> program_of(const Workload &w, int64_t unit_bytes, int64_t x, int64_t y) {
  const W program(w);
  std::vector<uint64_t> units;
  for (int64_t j = 0; j < program.loads(); ++j) {
    const sim::MemAccess a = program.load({x, y}, j);
    EXPECT_EQ(a.bytes, w.elem_bytes);
    EXPECT_FALSE(a.is_store);
    units.push_back(a.byte_addr / static_cast<uint64_t>(unit_bytes));
  }
  return units;
}

} // namespace

TEST(Workloads, RunsEqualThePerInstructionProgramMergedUnitByUnit) {
  // StencilWorkload's Runs fast path and the generic merge agree on random shapes and units.
  std::mt19937_64 rng(4);
  for (int trial = 0; trial < 200; ++trial) {
    Workload w;
    w.kind = WorkloadKind{static_cast<int>(rng() % std::tuple_size_v<sim::WorkloadTypes>)};
    w.width = 1 + static_cast<int64_t>(rng() % 50);
    w.height = 1 + static_cast<int64_t>(rng() % 20);
    w.stencil_w = 1 + 2 * static_cast<int64_t>(rng() % 5);
    w.stencil_h = 1 + 2 * static_cast<int64_t>(rng() % 5);
    w.depth = 1 + static_cast<int64_t>(rng() % 6);
    w.boundary = w.kind == sim::kind_of<sim::StencilWorkload>() && rng() % 2 ? sim::Boundary::none
                                                                             : sim::Boundary::clamp;
    const int64_t unit_bytes =
        w.elem_bytes * (int64_t{1} << (rng() % 6)) * (rng() % 4 == 0 ? 3 : 1);
    sim::visit_workload(w.kind, [&](auto tag) {
      using W = typename decltype(tag)::type;
      const auto shape = W::task_shape(w);
      for (int k = 0; k < 10; ++k) {
        const int64_t x = static_cast<int64_t>(rng() % static_cast<uint64_t>(shape.width));
        const int64_t y = static_cast<int64_t>(rng() % static_cast<uint64_t>(shape.height));
        ASSERT_EQ((runs_of<W>(w, unit_bytes, x, y)), (program_of<W>(w, unit_bytes, x, y)))
            << w.describe() << " unit " << unit_bytes << " task " << x << "," << y;
      }
    });
  }
}

TEST(Workloads, RegistryNamesParseAndReject) {
  EXPECT_EQ(sim::workload_names(), "stencil, matmul, stencil3d, sgemm-tiled, stencil-smem");
  for (WorkloadKind k :
       {sim::kind_of<sim::StencilWorkload>(), sim::kind_of<sim::MatmulWorkload>(),
        sim::kind_of<sim::Stencil3dWorkload>(), sim::kind_of<sim::SgemmTiledWorkload>(),
        sim::kind_of<sim::StencilSmemWorkload>()})
    EXPECT_EQ(sim::parse_workload_kind(sim::to_string(k)), k);
  try {
    sim::parse_workload_kind("stencil4d");
    FAIL() << "accepted stencil4d";
  } catch (const UsageError &e) {
    EXPECT_NE(std::string(e.what()).find("stencil, matmul, stencil3d"), std::string::npos)
        << e.what();
  }
}

// A workload is its header plus its entry in WorkloadTypes: its kind is its position there, and its
// name, --workload spelling, visit and option traits all follow from the entry (stencil3d, the
// last one added, has no other registration).
TEST(Workloads, KindsNamesAndTraitsFollowFromTheTypeList) {
  int count = 0;
  sim::for_each_workload([&](auto tag) {
    using W = typename decltype(tag)::type;
    const WorkloadKind k = sim::kind_of<W>();
    EXPECT_EQ(k.index, count++) << W::name;
    EXPECT_STREQ(sim::to_string(k), W::name);
    EXPECT_EQ(sim::parse_workload_kind(W::name), k);
    EXPECT_TRUE(sim::visit_workload(k, [](auto t) {
      return std::is_same_v<typename decltype(t)::type, W>;
    })) << W::name;
    EXPECT_STREQ(sim::workload_traits(k).name, W::name);
  });
  EXPECT_EQ(count, static_cast<int>(std::tuple_size_v<sim::WorkloadTypes>));
  const sim::WorkloadTraits s3 = sim::workload_traits(sim::kind_of<sim::Stencil3dWorkload>());
  EXPECT_EQ(s3.size_dims, 3);
  EXPECT_TRUE(s3.has_depth);
  EXPECT_EQ(sim::workload_traits(sim::kind_of<sim::MatmulWorkload>()).table_lines, 32);
  EXPECT_EQ(Workload{}.kind, sim::kind_of<sim::StencilWorkload>()) << "the default";
  Workload unknown;
  unknown.kind = WorkloadKind{static_cast<int>(std::tuple_size_v<sim::WorkloadTypes>)};
  EXPECT_THROW(sim::validate(unknown), UsageError);
}

namespace {

// The 3-D 7-point stencil, literally: for z, y, x, the clamped neighbours in ascending address.
std::vector<int64_t> seven_point(const Workload &w, int64_t x, int64_t y, int64_t z) {
  auto clamp = [](int64_t v, int64_t n) { return std::min(n - 1, std::max<int64_t>(0, v)); };
  auto at = [&](int64_t i, int64_t j, int64_t k) {
    return (clamp(k, w.depth) * w.height + clamp(j, w.height)) * w.width + clamp(i, w.width);
  };
  return {at(x, y, z - 1), at(x, y - 1, z), at(x - 1, y, z), at(x, y, z),
          at(x + 1, y, z), at(x, y + 1, z), at(x, y, z + 1)};
}

} // namespace

TEST(Stencil3d, SevenPointProgramMatchesTheLiteralStencilOverTheFoldedGrid) {
  Workload w;
  w.kind = sim::kind_of<sim::Stencil3dWorkload>();
  w.width = 5;
  w.height = 4;
  w.depth = 3;
  EXPECT_EQ(w.tasks(), 5 * 4 * 3);
  EXPECT_EQ(w.accesses(), 5 * 4 * 3 * 7);
  EXPECT_EQ(w.footprint_bytes(), 5 * 4 * 3 * 4);
  EXPECT_EQ(w.describe(), "stencil3d 7-point on 5x4x3 float, clamp");
  const sim::Stencil3dWorkload program(w);
  int64_t checked = 0;
  for (int64_t z = 0; z < w.depth; ++z)
    for (int64_t y = 0; y < w.height; ++y)
      for (int64_t x = 0; x < w.width; ++x) {
        // §4.1.2's fold: task (x, y + I_h z) of the I_w x (I_h P) grid.
        const remap::Task<int64_t> t{x, y + w.height * z};
        const std::vector<int64_t> expect = seven_point(w, x, y, z);
        for (int64_t j = 0; j < 7; ++j)
          EXPECT_EQ(program.load(t, j).byte_addr, static_cast<uint64_t>(expect[j] * 4))
              << x << "," << y << "," << z << " load " << j;
        ++checked;
      }
  EXPECT_EQ(checked, w.tasks());
}

TEST(Stencil3d, SimulatesInEveryOrderAndAgreesWithTheMrc) {
  sim::SimConfig c;
  c.workload.kind = sim::kind_of<sim::Stencil3dWorkload>();
  c.workload.width = 16;
  c.workload.height = 8;
  c.workload.depth = 6;
  c.levels[0].line_bytes = 16;
  c.levels[0].capacity_lines = 40;
  int64_t linear_misses = 0, column_misses = 0;
  for (const char *order : {"linear", "column:4", "zigzag:4", "tile:4x2"}) {
    c.order = remap::parse_order(order);
    const sim::SimResult r = sim::simulate(c);
    EXPECT_EQ(r.accesses, 16 * 8 * 6 * 7) << order;
    // Cold misses alone: every line of the volume is touched at least once.
    EXPECT_GE(r.levels[0].misses, 16 * 8 * 6 * 4 / 16) << order;
    const sim::MissRatioCurve curve = sim::miss_ratio_curve(c);
    EXPECT_EQ(curve.misses(40), r.levels[0].misses) << order;
    if (std::string(order) == "linear")
      linear_misses = r.levels[0].misses;
    if (std::string(order) == "column:4")
      column_misses = r.levels[0].misses;
  }
  // 40 lines of 4 floats hold two 16x8 planes (64 lines) only in part: linear order re-fetches the
  // z-1 plane, a column of width 4 keeps its three planes' neighbours and fetches less.
  EXPECT_NE(linear_misses, column_misses);
}

TEST(Stencil3d, AnalyticalModelSaysItHasNoFormulaInsteadOfBorrowingMatmuls) {
  sim::SimConfig c;
  c.workload.kind = sim::kind_of<sim::Stencil3dWorkload>();
  c.workload.width = 16;
  c.workload.height = 8;
  c.workload.depth = 4;
  const sim::ModelReport r = sim::analyze_model(c);
  ASSERT_EQ(r.levels.size(), 1u);
  EXPECT_EQ(r.levels[0].fetch_kind, sim::FetchKind::none);
  EXPECT_TRUE(r.levels[0].quantities.empty());
  ASSERT_FALSE(r.levels[0].notes.empty());
  EXPECT_NE(r.levels[0].notes[0].find("3-D 7-point"), std::string::npos) << r.levels[0].notes[0];
}

namespace {

sim::SimResult run_small(Workload w, CacheConfig l1, std::vector<CacheConfig> below = {}) {
  sim::SimConfig c;
  c.workload = w;
  c.levels = {l1};
  c.levels.insert(c.levels.end(), below.begin(), below.end());
  return sim::simulate(c);
}

CacheConfig lines_of_16_bytes(int64_t lines, int64_t ways) {
  CacheConfig c;
  c.line_bytes = 16;
  c.capacity_lines = lines;
  c.ways = ways;
  return c;
}

} // namespace

TEST(LoadsAndStores, StencilCountsByHand) {
  // 3x3 clamped stencil on 4x4 floats, writing out[i]: 16 tasks x 9 loads of 4 B, 16 stores of
  // 4 B. Input bytes 0..63 (lines 0..3), output 64..127 (lines 4..7).
  Workload w;
  w.width = w.height = 4;
  w.stencil_w = w.stencil_h = 3;
  w.writes = true;
  // A cache that holds everything: each line misses once, loads on the input, stores on the output.
  const sim::SimResult big = run_small(w, lines_of_16_bytes(64, 0), {lines_of_16_bytes(64, 0)});
  const sim::CacheStats &l1 = big.levels[0];
  EXPECT_EQ(l1.loads, 144);
  EXPECT_EQ(l1.load_bytes, 576);
  EXPECT_EQ(l1.stores, 16);
  EXPECT_EQ(l1.store_bytes, 64);
  EXPECT_EQ(l1.load_misses, 4);
  EXPECT_EQ(l1.load_hits(), 140);
  EXPECT_EQ(l1.store_misses, 4);
  EXPECT_EQ(l1.store_hits(), 12);
  // L2 sees the L1 misses, by the kind that caused them: 4 line fetches each, 64 B each.
  const sim::CacheStats &l2 = big.levels[1];
  EXPECT_EQ(l2.loads, 4);
  EXPECT_EQ(l2.load_bytes, 64);
  EXPECT_EQ(l2.load_misses, 4);
  EXPECT_EQ(l2.stores, 4);
  EXPECT_EQ(l2.store_bytes, 64);
  EXPECT_EQ(l2.store_misses, 4);
  // Without --writes nothing is stored, and the loads are unchanged.
  Workload reads = w;
  reads.writes = false;
  const sim::SimResult r = run_small(reads, lines_of_16_bytes(64, 0));
  EXPECT_EQ(r.levels[0].stores, 0);
  EXPECT_EQ(r.levels[0].loads, 144);
  EXPECT_EQ(r.levels[0].load_misses, 4);

  // 1x1 stencil on 4x1: load in[x] (line 0), store out[x] (bytes 16..31, line 1). One
  // direct-mapped line: the store evicts the input and the next load evicts the output, so all 8
  // accesses miss; two lines (two sets) keep both: one miss of each kind.
  Workload one;
  one.width = 4;
  one.height = 1;
  one.stencil_w = one.stencil_h = 1;
  one.writes = true;
  const sim::CacheStats thrash = run_small(one, lines_of_16_bytes(1, 1)).levels[0];
  EXPECT_EQ(thrash.load_misses, 4);
  EXPECT_EQ(thrash.store_misses, 4);
  const sim::CacheStats fits = run_small(one, lines_of_16_bytes(2, 1)).levels[0];
  EXPECT_EQ(fits.load_misses, 1);
  EXPECT_EQ(fits.load_hits(), 3);
  EXPECT_EQ(fits.store_misses, 1);
  EXPECT_EQ(fits.store_hits(), 3);
}

TEST(LoadsAndStores, MatmulCountsByHand) {
  // 2x2 tasks, depth 3, floats, writing C: A (2x3) at bytes 0..23, B (3x2) at 24..47, C at 48..63;
  // 16 B lines: A in lines 0-1, B in lines 1-2, C in line 3. 4 tasks x 6 loads, 4 stores.
  Workload w;
  w.kind = sim::kind_of<sim::MatmulWorkload>();
  w.width = w.height = 2;
  w.depth = 3;
  w.writes = true;
  const sim::CacheStats big = run_small(w, lines_of_16_bytes(64, 0)).levels[0];
  EXPECT_EQ(big.loads, 24);
  EXPECT_EQ(big.load_bytes, 96);
  EXPECT_EQ(big.stores, 4);
  EXPECT_EQ(big.store_bytes, 16);
  EXPECT_EQ(big.load_misses, 3);  // lines 0, 1, 2
  EXPECT_EQ(big.store_misses, 1); // line 3, then 3 hits
  // One line: every change of line misses. Task (x, y) loads A[3y+i], B[2i+x] for i = 0..2, then
  // stores C[2y+x]. Lines, linear order:
  //   (0,0): 0 1 0 2 0 2 | 3    (1,0): 0 1 0 2 0 2 | 3      all 7 miss
  //   (0,1): 0 1 1 2 1 2 | 3    (1,1): 0 1 1 2 1 2 | 3      the repeated 1 hits, 6 miss
  const sim::CacheStats one = run_small(w, lines_of_16_bytes(1, 0)).levels[0];
  EXPECT_EQ(one.loads, 24);
  EXPECT_EQ(one.load_misses, 22);
  EXPECT_EQ(one.load_hits(), 2);
  EXPECT_EQ(one.stores, 4);
  EXPECT_EQ(one.store_misses, 4);
}
