// The tiled kernels as workloads (issue 20 §3): sgemm-tiled and stencil-smem replay the global
// loads that fill each CTA's shared-memory tiles, under a block order. Counts by hand on small
// cases, the block order's tile per CTA, lane_loads against load, and the tiny device (warp size 1,
// one SM, one resident warp), whose replay must give the sequential simulator's counts.
#include "cbi/sim/gpu_model.hpp"
#include "cbi/sim/simulate.hpp"
#include "tiny_reference.hpp"

#include "cbi/order_text.hpp"

#include <gtest/gtest.h>

#include <random>

namespace {

using namespace cbi;

sim::Workload sgemm(int64_t n, int64_t m, int64_t d, const char *block_order = "linear") {
  sim::Workload w;
  w.kind = sim::kind_of<sim::SgemmTiledWorkload>();
  w.width = n;
  w.height = m;
  w.depth = d;
  w.block_order = remap::parse_order(block_order, "--block-order");
  return w;
}

sim::Workload smem(int64_t width, int64_t height, int64_t window, int elem_bytes = 4,
                   const char *block_order = "linear") {
  sim::Workload w;
  w.kind = sim::kind_of<sim::StencilSmemWorkload>();
  w.width = width;
  w.height = height;
  w.stencil_w = w.stencil_h = window;
  w.elem_bytes = elem_bytes;
  w.block_order = remap::parse_order(block_order, "--block-order");
  return w;
}

sim::GpuResult run_h100(const sim::Workload &w, int l2_coalesce_cycles = -1) {
  sim::GpuConfig c;
  c.workload = w;
  c.device = sim::find_device("h100");
  if (l2_coalesce_cycles >= 0)
    c.device.l2_coalesce_cycles = l2_coalesce_cycles;
  c.block_threads = 256;
  c.stores = false;
  return sim::simulate_gpu(c);
}

} // namespace

TEST(SgemmTiled, OneCtaReadsEachElementOfItsTilesOnce) {
  // C 128x128, D = 64: one CTA, 8 steps. Per step a warp loads 16 rows of A (one 32-byte sector
  // each: 8 floats of a 256-byte row) and one 512-byte row of B (16 sectors in 4 lines): 2 requests
  // of 16 sectors. A (128 x 64 floats) and B (64 x 128) are 1024 sectors each, read once.
  const sim::Workload w = sgemm(128, 128, 64);
  EXPECT_EQ(sim::SgemmTiledWorkload::loads_per_task(w), 16);
  const sim::GpuResult r = run_h100(w);
  EXPECT_EQ(r.ctas, 1);
  EXPECT_EQ(r.threads, 256);
  EXPECT_EQ(r.metrics.l1_requests, 8 * 16);
  EXPECT_EQ(r.metrics.l1_sectors, 8 * 8 * (16 + 16));
  EXPECT_EQ(r.metrics.l1_sector_misses, 2048);
  EXPECT_EQ(r.metrics.l1_sector_hits, 0);
  EXPECT_EQ(r.metrics.l1_wavefronts, 8 * 8 * (16 + 4));
  EXPECT_EQ(r.metrics.dram_read_bytes, 2048 * 32);
}

TEST(SgemmTiled, TwoCtasOfATileRowShareTheirATileThroughL2) {
  // C 256 wide, 128 high, D = 64: CTAs 0 and 1 run on SMs 0 and 1 and read the same A tile
  // (1024 sectors) and a B tile each (1024 sectors each). Every sector misses its SM's L1; without
  // an L2 request coalescer the second read of each A sector hits L2 (or finds it on its way
  // there).
  const sim::GpuResult r = run_h100(sgemm(256, 128, 64), 0);
  EXPECT_EQ(r.ctas, 2);
  EXPECT_EQ(r.metrics.l1_sector_misses, 4096);
  EXPECT_EQ(r.metrics.l2_read_sectors, 4096);
  EXPECT_EQ(r.metrics.l2_hits, 1024);
  EXPECT_EQ(r.metrics.dram_read_bytes, (1024 + 2048) * 32);
  // The h100 row's coalescer merges no SGEMM read (SgemmTiledWorkload::l2_coalescable: the H200
  // merges 0.4-9% of them), though CTA 1 asks for each A sector within its window: the same
  // counts. A naive matmul's reads it merges (test_gpu_model.cpp).
  const sim::GpuResult h = run_h100(sgemm(256, 128, 64));
  EXPECT_EQ(h.metrics.l1_sector_misses, 4096);
  EXPECT_EQ(h.metrics.l2_requested_sectors, 4096);
  EXPECT_EQ(h.metrics.l2_read_sectors, 4096);
  EXPECT_EQ(h.metrics.l2_hits, 1024);
  EXPECT_EQ(h.metrics.dram_read_bytes, (1024 + 2048) * 32);
}

TEST(SgemmTiled, BlockOrderPicksEachCtasTile) {
  // 512 x 512, D = 8: 4 x 4 tiles. column:2 gives CTAs 0..3 the tiles (0,0), (1,0), (0,1), (1,1):
  // CTA 2's thread 0 loads A row 128 (byte 128 * 8 * 4) and B column 0; CTA 1's thread 0 loads B
  // column 128 (after A's 512 x 8 floats).
  const sim::SgemmTiledWorkload column(sgemm(512, 512, 8, "column:2"));
  EXPECT_EQ(column.load({0, 2}, 0).byte_addr, 128u * 8 * 4);
  EXPECT_EQ(column.load({0, 2}, 1).byte_addr, 512u * 8 * 4);
  EXPECT_EQ(column.load({0, 1}, 1).byte_addr, (512u * 8 + 128) * 4);
  // Linear: CTA 2 is tile (2, 0): the same A rows as CTA 0, B columns from 256.
  const sim::SgemmTiledWorkload linear(sgemm(512, 512, 8));
  EXPECT_EQ(linear.load({0, 2}, 0).byte_addr, 0u);
  EXPECT_EQ(linear.load({0, 2}, 1).byte_addr, (512u * 8 + 256) * 4);
  // Thread 37: A row 18, columns 4..7; B row 1, columns 20..23.
  EXPECT_EQ(linear.load({37, 0}, 0).byte_addr, (18u * 8 + 4) * 4);
  EXPECT_EQ(linear.load({37, 0}, 1).byte_addr, (512u * 8 + 512 + 20) * 4);
}

TEST(SgemmTiled, RefusesOtherElementSizesAndBlockOrdersOnNaiveKernels) {
  sim::Workload w = sgemm(128, 128, 8);
  w.elem_bytes = 8;
  try {
    sim::validate(w);
    FAIL() << "accepted double";
  } catch (const UsageError &e) {
    EXPECT_EQ(e.option(), "workload.elem_bytes");
  }
  sim::Workload naive;
  naive.kind = sim::kind_of<sim::MatmulWorkload>();
  naive.block_order = remap::parse_order("column:8");
  try {
    sim::validate(naive);
    FAIL() << "accepted a block order on matmul";
  } catch (const UsageError &e) {
    EXPECT_EQ(e.option(), "workload.block_order");
  }
}

TEST(StencilSmem, OneCtaLoadsItsClampedTileRowByRow) {
  // 9x9 float on 64 x 32: one CTA loads 40 rows of 72 columns (x from -4, clamped): 5 rows per
  // warp, 3 slots per row. Slot 0 reads x 0..27 (4 sectors), slot 1 x 28..59 (5), slot 2 x 60..63
  // (1; lanes 8..31 repeat lane 0): 10 sectors a row, 8 of them distinct. Rows 0 and 31 are read 5
  // times each (the clamped halo), the other 30 once: 256 distinct sectors of 400.
  const sim::Workload w = smem(64, 32, 9);
  EXPECT_EQ(sim::StencilSmemWorkload::loads_per_task(w), 15);
  const sim::GpuResult r = run_h100(w);
  EXPECT_EQ(r.metrics.l1_requests, 8 * 15);
  EXPECT_EQ(r.metrics.l1_sectors, 400);
  EXPECT_EQ(r.metrics.l1_sector_misses, 256);
  EXPECT_EQ(r.metrics.l1_sector_hits, 144);
  EXPECT_EQ(r.metrics.dram_read_bytes, 256 * 32);
}

TEST(StencilSmem, HalfLoadsPairsAndPadsAnOddRadius) {
  // 7x7 half: r_x = 3 is odd, so the tile starts one column further left (an even column) and
  // ends one further right: 72 columns from x0 - 4, 36 pairs, 2 slots of 32 pairs; 38 rows, 5
  // row slots.
  const sim::Workload w = smem(256, 256, 7, 2);
  EXPECT_EQ(sim::StencilSmemWorkload::cols_in(w), 72);
  EXPECT_EQ(sim::StencilSmemWorkload::loads_per_task(w), 5 * 2);
  const sim::StencilSmemWorkload p(w);
  // Thread 33 (warp 1, lane 1) of CTA 5 (tile (1, 1) in linear order: x0 64, y0 32): row
  // 32 - 3 + 1 = 30, column 64 - 4 + 2 = 62.
  EXPECT_EQ(p.load({33, 5}, 0).byte_addr, (30u * 256 + 62) * 2);
  // Its second slot: column 62 + 64.
  EXPECT_EQ(p.load({33, 5}, 1).byte_addr, (30u * 256 + 126) * 2);
}

TEST(TiledWorkloads, LaneLoadsEqualLoadPerLane) {
  std::mt19937_64 rng(20);
  const char *orders[] = {"linear", "column:3", "tile:2x3", "zigzag:2"};
  for (int trial = 0; trial < 60; ++trial) {
    const int64_t width = 1 + static_cast<int64_t>(rng() % 700);
    const int64_t height = 1 + static_cast<int64_t>(rng() % 300);
    const char *order = orders[rng() % 4];
    auto check = [&](const auto &program, const sim::Workload &w) {
      const remap::Shape<int64_t> shape = std::decay_t<decltype(program)>::task_shape(w);
      remap::Task<int64_t> lanes[32];
      for (auto &t : lanes)
        t = {static_cast<int64_t>(rng() % static_cast<uint64_t>(shape.width)),
             static_cast<int64_t>(rng() % static_cast<uint64_t>(shape.height))};
      uint64_t addr[32];
      for (int64_t j = 0; j < program.loads(); ++j) {
        program.lane_loads(lanes, 32, j, addr);
        for (int l = 0; l < 32; ++l) {
          ASSERT_EQ(addr[l], program.load(lanes[l], j).byte_addr) << w.describe() << " j " << j;
          ASSERT_LT(addr[l], static_cast<uint64_t>(w.output_base_bytes())) << w.describe();
        }
      }
    };
    const sim::Workload g = sgemm(width, height, 1 + static_cast<int64_t>(rng() % 40), order);
    check(sim::SgemmTiledWorkload(g), g);
    const sim::Workload s = smem(width, height, 1 + 2 * static_cast<int64_t>(rng() % 6),
                                 rng() % 3 == 0 ? 2 : (rng() % 2 ? 4 : 8), order);
    check(sim::StencilSmemWorkload(s), s);
  }
}

TEST(TiledWorkloads, TinyDeviceReplaysTheSequentialOrderWithTheSimulatorsCounts) {
  // As for the naive kernels (test_gpu_model.cpp): warp size 1, one SM, one warp at a time is the
  // sequential replay, so the L1 and L2 counts are the two-level simulator's exactly.
  std::mt19937_64 rng(21);
  const char *orders[] = {"linear", "column:2", "tile:2x2", "zigzag:3"};
  for (int trial = 0; trial < 16; ++trial) {
    sim::GpuConfig g;
    g.device = sim::find_device("tiny");
    g.device.l1_bytes = 128 * (4 + static_cast<int64_t>(rng() % 60));
    g.device.l2_bytes = 128 * 16 * (1 + static_cast<int64_t>(rng() % 8));
    g.block_threads = 1;
    g.stores = false;
    const int64_t width = 8 + static_cast<int64_t>(rng() % 300);
    const int64_t height = 4 + static_cast<int64_t>(rng() % 80);
    const char *order = orders[rng() % 4];
    g.workload = trial % 2 ? sgemm(width, height, 1 + static_cast<int64_t>(rng() % 24), order)
                           : smem(width, height, 1 + 2 * static_cast<int64_t>(rng() % 4),
                                  rng() % 2 ? 4 : 8, order);
    const sim::GpuResult r = sim::simulate_gpu(g);
    const sim::SimResult q = test::tiny_sequential(g);
    const std::string what = g.workload.describe();
    EXPECT_GT(q.levels[0].accesses, 0) << what;
    EXPECT_EQ(r.metrics.l1_requests, q.levels[0].accesses) << what;
    EXPECT_EQ(r.metrics.l1_sector_hits, q.levels[0].hits) << what;
    EXPECT_EQ(r.metrics.l1_sector_misses, q.levels[0].misses) << what;
    EXPECT_EQ(r.metrics.l2_read_sectors, q.levels[1].accesses) << what;
    EXPECT_EQ(r.metrics.l2_hits, q.levels[1].hits) << what;
    EXPECT_EQ(r.metrics.dram_read_bytes, q.levels[1].misses * 32) << what;
  }
}

namespace {

sim::GpuResult run_h100_stores(const sim::Workload &w) {
  sim::GpuConfig c;
  c.workload = w;
  c.device = sim::find_device("h100");
  c.block_threads = 256;
  return sim::simulate_gpu(c);
}

} // namespace

TEST(TiledWorkloads, StoreTheirWholeOutputTile) {
  // Stencil 64 x 32, one CTA: each thread stores 8 floats down column t%64 from row (t/64)*8; a
  // warp's store covers 32 consecutive floats (4 sectors), 8 stores a warp: the 2048 outputs in 256
  // sectors, written once each, after the 64 x 32 input (byte 8192 on).
  const sim::Workload s = smem(64, 32, 9);
  const sim::StencilSmemWorkload sp(s);
  EXPECT_EQ(sim::StencilSmemWorkload::stores(), 8);
  remap::Task<int64_t> lanes[2] = {{0, 0}, {65, 0}};
  uint64_t addr[2];
  uint32_t bytes[2];
  ASSERT_EQ(sp.lane_stores(lanes, 2, 3, addr, bytes), 2);
  EXPECT_EQ(addr[0], (64u * 32 + 3 * 64 + 0) * 4);  // thread 0: row 3, column 0
  EXPECT_EQ(addr[1], (64u * 32 + 11 * 64 + 1) * 4); // thread 65: row 8 + 3, column 1
  EXPECT_EQ(bytes[0], 4u);
  const sim::GpuResult r = run_h100_stores(s);
  EXPECT_EQ(r.metrics.l2_write_sectors, 256);
  EXPECT_EQ(r.metrics.l1_store_sectors, 256);
  // 72 x 32: a second tile with 8 columns in range (a 32-byte sector a row); its lanes past
  // column 71 store nothing.
  EXPECT_EQ(run_h100_stores(smem(72, 32, 3)).metrics.l2_write_sectors, 256 + 32);
  // SGEMM 128 x 128: 16 float4 stores a thread, rows ty*4 + i%4 (+64), columns tx*4 (+64): a
  // warp's store is two 256-byte row pieces, 16 sectors; the C tile's 2048 sectors once each.
  const sim::Workload g = sgemm(128, 128, 8);
  const sim::SgemmTiledWorkload gp(g);
  remap::Task<int64_t> t37[1] = {{37, 0}};              // ty 2, tx 5
  ASSERT_EQ(gp.lane_stores(t37, 1, 9, addr, bytes), 1); // i 4, part 1: row 64 + 8, column 84
  EXPECT_EQ(addr[0], (2u * 128 * 8 + 72 * 128 + 84) * 4);
  EXPECT_EQ(bytes[0], 16u);
  EXPECT_EQ(run_h100_stores(g).metrics.l2_write_sectors, 2048);
  // 130 wide: the second tile column's lanes with tx 0 store 2 floats, the others nothing.
  const sim::SgemmTiledWorkload edge(sgemm(130, 128, 8));
  remap::Task<int64_t> right[2] = {{0, 1}, {1, 1}};
  ASSERT_EQ(edge.lane_stores(right, 2, 0, addr, bytes), 1);
  EXPECT_EQ(bytes[0], 8u);
}

TEST(TiledWorkloads, StoresCountAsL2HitsAsNvidiaCountsThem) {
  // The stencil's output is never read: on the h100 row every store sector is a hit of
  // lts__t_sector_hit_rate.pct (l2_store_counts_as_hit), without it every one is a miss. In one
  // L2, a store is one lookup; in the h100 row's two partitions, a sector homed in the far one is
  // a second lookup there (over the fabric), a hit or a miss by the same rule: about half of them.
  const sim::Workload s = smem(128, 64, 5);
  sim::GpuConfig c;
  c.workload = s;
  c.device = sim::find_device("h100");
  for (int partitions : {1, 2}) {
    c.device.l2_partitions = partitions;
    c.device.l2_store_counts_as_hit = true;
    const sim::GpuResult counted = sim::simulate_gpu(c);
    c.device.l2_store_counts_as_hit = false;
    const sim::GpuResult missed = sim::simulate_gpu(c);
    const int64_t stores = counted.metrics.l2_write_sectors;
    ASSERT_GT(stores, 0);
    const int64_t moved = counted.metrics.l2_hits - missed.metrics.l2_hits;
    if (partitions == 1) {
      EXPECT_EQ(moved, stores);
    } else {
      EXPECT_GT(moved, stores + stores / 4);
      EXPECT_LT(moved, stores + 3 * stores / 4);
    }
    EXPECT_EQ(counted.metrics.dram_read_bytes, missed.metrics.dram_read_bytes);
  }
}

TEST(TiledWorkloads, OccupancyIsTheKernelsRegistersAndSharedMemory) {
  // SGEMM: 128 registers x 256 threads = 32 K of the SM's 64 K: two CTAs an SM, not the 8 that
  // its threads allow. The 9x9 float stencil: 32 registers, 22080 + 1024 bytes of shared memory:
  // 8. An 11x11 double stencil: 42 rows x 75 doubles + 42 x 65 sums = 47040 + 1024 bytes: 4 of
  // 228 KiB.
  EXPECT_EQ(run_h100(sgemm(512, 512, 8)).ctas_per_sm, 2);
  EXPECT_EQ(sim::StencilSmemWorkload::shared_bytes_per_cta(smem(64, 32, 9)), 22080);
  EXPECT_EQ(run_h100(smem(64, 32, 9)).ctas_per_sm, 8);
  EXPECT_EQ(sim::StencilSmemWorkload::shared_bytes_per_cta(smem(64, 32, 11, 8)), 47040);
  EXPECT_EQ(run_h100(smem(64, 32, 11, 8)).ctas_per_sm, 4);
}

TEST(TiledWorkloads, SgemmStepsArePacedByTheirArithmetic) {
  // One CTA of SGEMM, D = 64: 8 steps. A step's next loads wait for the step's arithmetic on the
  // SM: (544 FMAs and shared loads + 2 loads x 5) x 8 warps / 2.75 a cycle = 1611.6 cycles at the
  // SM's whole rate; a CTA alone on its SM issues 0.8324 of it (solo_cta_issue_fraction, the
  // sgemm_steps probe: docs/results/tight/y-set.md §6), 1936 cycles a step, where two sharing an
  // SM took 3223 each. Far above the L2's latency, so the replay takes at least 8 of them.
  const double solo_step =
      554.0 * 8 / 2.75 / sim::SgemmTiledWorkload::solo_cta_issue_fraction; // 1936
  const sim::GpuResult r = run_h100(sgemm(128, 128, 64));
  EXPECT_GE(r.cycles, 8 * static_cast<int64_t>(solo_step));
  EXPECT_LT(r.cycles, 8 * static_cast<int64_t>(solo_step) + 4000);
  EXPECT_LT(r.cycles, 8 * 3223); // faster than a CTA of a pair
}

TEST(TiledWorkloads, SmemStencilIssuesItsMeasuredInstructions) {
  // The smem stencil's count is ncu's on the H200 (docs/results/tight/drift.md §5: warp
  // instructions a warp, windows 3x3-11x11 at 3584); the fit stays within 3% of each.
  const struct {
    int window, elem_bytes;
    double measured;
  } ncu[] = {{3, 4, 576.0}, {5, 4, 649.7}, {9, 4, 713.3}, {11, 4, 745.4},
             {3, 2, 650.9}, {5, 2, 734.2}, {9, 2, 811.2}, {11, 2, 849.8},
             {3, 8, 577.0}, {5, 8, 650.7}, {9, 8, 714.3}, {11, 8, 746.4}};
  for (const auto &m : ncu)
    EXPECT_NEAR(sim::StencilSmemWorkload::kernel_instructions_per_task(
                    smem(3584, 3584, m.window, m.elem_bytes)) /
                    m.measured,
                1.0, 0.03)
        << m.window << "x" << m.window << ", " << m.elem_bytes << " bytes";
  // One CTA's step waits for the arithmetic of every resident warp at the kernel's issue rate:
  // 9x9 float, 711.4 instructions x 64 warps (8 CTAs of 8) / 3.2 a cycle = 14228 cycles, far
  // more than its loads' latency, where the estimate from the loop (fp_ops_per_task and the
  // loads) gave 5650.
  const sim::Workload w = smem(64, 32, 9);
  const double per_task = sim::StencilSmemWorkload::kernel_instructions_per_task(w);
  const sim::GpuResult r = run_h100(w);
  EXPECT_GE(double(r.cycles), per_task * 64 / 3.2);
  EXPECT_LT(double(r.cycles), per_task * 64 / 3.2 + 4000);
  // The issue bound of a large launch: its warps' measured instructions at 3.2 a cycle on 132 SMs.
  sim::GpuConfig c;
  c.workload = smem(2048, 2048, 5);
  c.device = sim::find_device("h100");
  c.block_threads = 256;
  c.sample_sms = 12;
  const sim::GpuResult p = sim::simulate_gpu(c);
  const double warps = 32.0 * 64 * 8; // 32 x 64 tiles of 8 warps
  EXPECT_NEAR(p.time.arithmetic_ms,
              1e3 * warps * sim::StencilSmemWorkload::kernel_instructions_per_task(c.workload) /
                  (132 * 3.2 * c.device.sm_clock_mhz * 1e6),
              1e-9);
}
