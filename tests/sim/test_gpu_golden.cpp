// The GPU model's predictions pinned (issue 18 §1, §4): every count, the replay's cycles and the
// predicted time of a set of configurations, as the model gave them at commit b596542 (main, issue
// 21 §1's store fix, before the engine's split). Restructuring the engine (its split into
// sim/src/gpu/, the parallel SMs) must give them bit for bit. A change that means to move
// predictions updates the table in the same commit and says why: CBI_GOLDEN_PRINT=1
// test_sim_gpu_golden prints the new rows. Changed since: l2_hits on the NVIDIA rows with stores
// (every store sector a hit, Device::l2_store_counts_as_hit, issue 20 §3: the H200 reports no
// store miss; docs/results/tight/model-vs-tiled.md); the tiny row and the row without stores keep
// theirs, and no other count or time moved. 2026-11-27: the L1's wavefronts are its banks'
// conflicts (l1_bank_wavefronts, kernels/probes/l1_lines on the H100), no longer its lines: the
// wavefront count and with it the cycles and time move on the stencil rows, the 3-D stencil's and
// matmul column:33's (whose A loads span lines); the 8-SM stencil's L1 hits move by 0.15% (its
// requests leave the L1 sooner); matmul linear, tile:32x8, the sampled and the tiny rows keep
// theirs. 2026-11-28: one L2 read serves at most 4 reads of a sector (l2_coalesce_max_reads,
// kernels/probes/lrc_cap on the H100): the h100 rows' L2 reads, lookups and hits move (matmul 256
// linear 76337 -> 288076 L2 read sectors), no L1 count, cycle or time moves. 2026-11-28 (fourth
// stop): the float naive matmul keeps a sliding window of 12 loads in passes of 32
// (MatmulWorkload::sliding_loads_in_flight, its SASS: docs/results/tight/slide.md): the five float
// matmul rows' cycles, times and L2/DRAM counts move (matmul 256 linear 51316 -> 36189 cycles);
// their L1 requests and sectors do not; stencils, double matmul and the tiny row keep theirs.
// 2026-11-28 (fifth stop): the L1's input takes a request 1.1 cycles at least (l1_request_cycles,
// kernels/probes/l1_rate: docs/results/tight/l1-rate.md): the h100 float matmul 256 linear and
// the sampled matmul move (cycles 36189 -> 36409 and 113218 -> 122610, their L1 hits and L2
// counts with them); every other row keeps its numbers (their issue stage is slower than 1.1
// cycles a load, or their requests take 2 cycles or more).
// 2026-11-28 (sixth stop): a request that mixes sectors ready in L1 with sectors on their way
// takes one more data-stage wavefront (l1_mixed_request_wavefronts, kernels/probes/l1_fill:
// docs/results/tight/miss-cost.md): the L1 wavefronts of the h100 stencil rows, matmul column:33
// (its A loads span lines) and the double matmul move; the cycles and time of matmul column:33,
// the round-robin 8-byte stencil and the double matmul (18997, 2264, 22841 cycles) with them, and
// through the new timing a few pending hits and L2 reads. The a100, rtx2080super, v100 and tiny
// rows (0: not probed) and the float matmuls whose requests are one line keep theirs.
#include "cbi/sim/gpu_model.hpp"
#include "gpu_test_config.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using namespace cbi;

struct Case {
  const char *name;
  sim::GpuConfig config;
};

constexpr auto make = cbi::test::gpu_config;

std::vector<Case> cases() {
  std::vector<Case> v;
  v.push_back(
      {"stencil9 128x96 linear b256 h100", make("stencil", 128, 96, 1, 9, "linear", 256, "h100")});
  v.push_back({"stencil9 128x96 column:32 b128 h100",
               make("stencil", 128, 96, 1, 9, "column:32", 128, "h100")});
  v.push_back(
      {"matmul 256 linear b256 h100", make("matmul", 256, 256, 256, 1, "linear", 256, "h100")});
  v.push_back(
      {"matmul 128 column:33 b64 h100", make("matmul", 128, 128, 128, 1, "column:33", 64, "h100")});
  v.push_back(
      {"matmul 96 tile:32x8 b256 a100", make("matmul", 96, 96, 96, 1, "tile:32x8", 256, "a100")});
  v.push_back({"stencil3 200x50 zigzag:8 b96 rtx2080super",
               make("stencil", 200, 50, 1, 3, "zigzag:8", 96, "rtx2080super")});
  v.push_back({"stencil3d 40x30x6 column:16 b128 v100",
               make("stencil3d", 40, 30, 6, 3, "column:16", 128, "v100")});
  Case rr{"stencil5 elem8 300x40 column:5 b160 h100 round-robin",
          make("stencil", 300, 40, 1, 5, "column:5", 160, "h100")};
  rr.config.workload.elem_bytes = 8;
  rr.config.device.scheduler = sim::WarpScheduler::round_robin;
  v.push_back(rr);
  Case sampled{"matmul 1024x128x256 linear b256 24 SMs sampled 6",
               make("matmul", 1024, 128, 256, 1, "linear", 256, "h100")};
  sampled.config.device.sms = 24;
  sampled.config.device.l2_bytes = 4 << 20;
  sampled.config.sample_sms = 6;
  v.push_back(sampled);
  Case small_l1{"stencil9 256x64 column:64 b256 h100 L1 16 KiB fully associative",
                make("stencil", 256, 64, 1, 9, "column:64", 256, "h100")};
  small_l1.config.l1_bytes = 16 << 10;
  small_l1.config.l1_ways = 0;
  v.push_back(small_l1);
  Case no_stores{"matmul 64 linear b32 h100 no stores",
                 make("matmul", 64, 64, 64, 1, "linear", 32, "h100")};
  no_stores.config.stores = false;
  v.push_back(no_stores);
  v.push_back({"stencil1 33x1 linear b32 h100 (issue 21 repro)",
               make("stencil", 33, 1, 1, 1, "linear", 32, "h100")});
  v.push_back(
      {"stencil3 37x11 column:5 b1 tiny", make("stencil", 37, 11, 1, 3, "column:5", 1, "tiny")});
  Case few{"stencil9 512x64 linear b256 8 SMs",
           make("stencil", 512, 64, 1, 9, "linear", 256, "h100")};
  few.config.device.sms = 8;
  few.config.device.l2_bytes = 1 << 20;
  v.push_back(few);
  // The h100 row's L1 data stage: a double warp's broadcast of one A element takes 2 cycles.
  Case dbl{"matmul elem8 128 linear b256 h100",
           make("matmul", 128, 128, 128, 1, "linear", 256, "h100")};
  dbl.config.workload.elem_bytes = 8;
  v.push_back(dbl);
  return v;
}

struct Golden {
  int64_t l1_requests, l1_sectors, l1_sector_hits, l1_sector_misses, l1_wavefronts, l1_pending_hits,
      l2_read_sectors, l2_write_sectors, l2_hits, l2_lookups, dram_read_bytes, cycles,
      simulated_ctas;
  double predicted_ms;
};

// Printed by the model of issue 20's fix (CBI_GOLDEN_PRINT=1), one row per case above, in order;
// b596542's rows until then. What moved, and why (docs/results/tight/model-fix.md): the L2 reads
// and L2 hits of the h100 rows (the L2 request coalescer merges reads sent within 32 cycles of
// another), the pending hits and cycles of every row with more than one warp (a CTA's warps take
// turns; CTAs due at one cycle start in index order), the L1 hits of the h100 rows where a set
// fills (random victims). The tiny device's row is unchanged.
// Printed again by the model of docs/results/tight/tails.md (2026-11-26): the h100 rows issue the
// warp ready longest (round_robin) and return at most 128 bytes of lane data a cycle from the
// L1. What moved: the pending hits, L1 and L2 hits, L2 reads and cycles of the h100 rows whose SMs
// hold several CTAs or warps that contend (stencil9 linear and column:32, matmul 256, the sampled
// matmul, the 16 KiB L1, the 8 SMs): their warps issue in another order. Unchanged: matmul 128
// column:33 b64, the round-robin row (already round_robin; its 8-byte loads span two lines, so the
// data stage's 2 cycles equal the tag stage's), the one-warp rows (no stores, issue 21) and the
// a100, rtx2080super, v100 and tiny rows (oldest CTA first, no data stage). New last row: a
// double matmul on the h100 row, whose A loads are 8-byte broadcasts (the data stage's case).
// Printed again by the model of docs/results/tight/l2-partitions.md (2026-11-26): the L2 of the
// h100 and a100 rows is two partitions (a sector missing in the SM's near partition and homed in
// the other is looked up there too, a second lookup and hit or miss of the hit rate; the near
// partition keeps a copy), and the h100 row's L2 request coalescer merges only reads of SMs of one
// GPC. What moved: the L2 lookups and hits of every h100 and a100 row (the fabric's lookups); the
// L2 reads, pending hits and cycles of the h100 rows with SMs in more than one GPC or a line homed
// far (fewer merges, reads that take the fabric's 183 cycles longer); the L1 hits and misses of
// matmul 256 and the 8-SM stencil (warps wait longer for far lines, so they meet other warps' L1
// lines at other times); the sampled matmul's DRAM bytes (B in two 2 MiB partitions: copies). The
// rtx2080super, v100 and tiny rows (one L2, no coalescer) are unchanged.
// Changed by docs/results/tight/sm.md (2026-11-26): the instruction-issue bound counts the stencil
// and matmul kernels' warp instructions as ncu measured them on the H200 and the h100 row issues
// 2.4 a cycle (2.75 before): only the predicted time of the row bound by instruction issue moved
// (stencil9 512x64 linear b256 8 SMs); no count and no cycle moved.
// Printed again by the model of docs/results/tight/tail-float.md (2026-11-28): the h100 rows issue
// a warp's measured instructions up to each load oldest CTA first at 2.4 a cycle, the L1 taking
// the loads in issue order (oldest_issues_first), and the launcher refills one SM's freed slots
// 832 cycles apart. What moved: the pending hits, L2 reads and hits and cycles of every h100 row
// but the round-robin one (its scheduler is set by the case); the L1 hits of matmul 256, the
// sampled matmul and the 8-SM stencil (younger CTAs fall behind the oldest and miss B or halo
// lines); the predicted time of every h100 row (the replay's cycles; the 8-SM stencil is now
// bound by its replay, which issues at the rate of the issue bound). The a100, rtx2080super,
// v100, tiny and round-robin rows are unchanged. Printed again with that model and the L1's
// wavefronts as its banks' conflicts together (the note at the top of this file, 2026-11-27).
// Printed again by the model of docs/results/tight/dram-rw.md §5 (2026-11-28, third stop): the
// launcher starts one SM's CTAs 127 cycles apart after the first wave (832 before;
// kernels/probes/cta_launch). What moved: only the sampled matmul (1024x128x256 on 24 SMs), whose
// simulated SMs refill several slots a round: its L1 hits, L2 reads, cycles and time.
// Printed again with DRAM's latency growing with its load (dram_loaded_cycles 641 on the h100
// row, dram-rw.md §7): the cycles and time of most h100 rows (their DRAM reads arrive later) and,
// through the new arrival times, their pending hits and a few L1 and L2 hits; DRAM bytes moved
// only in the sampled matmul. The a100, rtx2080super, v100 and tiny rows are unchanged.
// 2026-11-28 (seventh stop): the device's launcher starts at most launcher_ctas_per_us CTAs a us
// after the first wave (1660 on the h100 row, kernels/probes/cta_launch; docs/results/tight/
// l-set.md): only the sampled matmul moves (its 24-SM device keeps the h100 row's rate, of which
// its simulated SMs get their share; cycles 122610 -> 122052). No other row refills fast enough.
// 2026-11-29 (fourth stop): the L1 takes one line with sectors missing or on their way a cycle
// (l1_miss_lines_per_cycle 1 on the h100 row, kernels/probes/l1_miss_lines: docs/results/tight/
// miss-lines.md): the L1 wavefronts of the h100 stencil rows (their window rows of two waiting
// lines take 2 cycles) and matmul column:33 move (stencil9 linear 33412 -> 41861); the cycles of
// matmul column:33, the round-robin 8-byte stencil and the 8-SM stencil by 2-5 (and with them a
// few pending hits and L2 reads of the last two); the float matmuls (one line a request), the
// sampled, no-store, double matmul and the a100, rtx2080super, v100 and tiny rows keep theirs.

const Golden kGolden[] = {
#include "gpu_golden.inc"
};

} // namespace

TEST(GpuGolden, PredictionsAreBitIdenticalToThePinnedOnes) {
  const std::vector<Case> all = cases();
  const bool print = std::getenv("CBI_GOLDEN_PRINT") != nullptr;
  if (!print) {
    ASSERT_EQ(all.size(), sizeof(kGolden) / sizeof(kGolden[0]));
  }
  for (std::size_t k = 0; k < all.size(); ++k) {
    const sim::GpuResult r = sim::simulate_gpu(all[k].config);
    const sim::GpuMetrics &m = r.metrics;
    if (print) {
      std::printf("    {%lld, %lld, %lld, %lld, %lld, %lld, %lld, %lld, %lld, %lld, %lld, %lld, "
                  "%lld, %a}, // %s\n",
                  (long long)m.l1_requests, (long long)m.l1_sectors, (long long)m.l1_sector_hits,
                  (long long)m.l1_sector_misses, (long long)m.l1_wavefronts,
                  (long long)m.l1_pending_hits, (long long)m.l2_read_sectors,
                  (long long)m.l2_write_sectors, (long long)m.l2_hits, (long long)m.l2_lookups,
                  (long long)m.dram_read_bytes, (long long)r.cycles, (long long)r.simulated_ctas,
                  r.time.predicted_ms, all[k].name);
      continue;
    }
    const Golden &g = kGolden[k];
    const std::string what = all[k].name;
    EXPECT_EQ(m.l1_requests, g.l1_requests) << what;
    EXPECT_EQ(m.l1_sectors, g.l1_sectors) << what;
    EXPECT_EQ(m.l1_sector_hits, g.l1_sector_hits) << what;
    EXPECT_EQ(m.l1_sector_misses, g.l1_sector_misses) << what;
    EXPECT_EQ(m.l1_wavefronts, g.l1_wavefronts) << what;
    EXPECT_EQ(m.l1_pending_hits, g.l1_pending_hits) << what;
    EXPECT_EQ(m.l2_read_sectors, g.l2_read_sectors) << what;
    EXPECT_EQ(m.l2_write_sectors, g.l2_write_sectors) << what;
    EXPECT_EQ(m.l2_hits, g.l2_hits) << what;
    EXPECT_EQ(m.l2_lookups, g.l2_lookups) << what;
    EXPECT_EQ(m.dram_read_bytes, g.dram_read_bytes) << what;
    EXPECT_EQ(r.cycles, g.cycles) << what;
    EXPECT_EQ(r.simulated_ctas, g.simulated_ctas) << what;
    EXPECT_EQ(r.time.predicted_ms, g.predicted_ms) << what; // bit-identical, not near
  }
}
