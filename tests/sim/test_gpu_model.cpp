// The GPU execution model (issue 10 §2): the device table, exact request counts, hand-computed
// coalescing, and the tiny device (warp size 1, one SM, one resident warp), whose replay is the
// sequential one and must give the existing simulator's counts exactly.
#include "cbi/sim/gpu_model.hpp"
#include "tiny_reference.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <vector>

namespace {

using namespace cbi;
using sim::WorkloadKind;

sim::GpuConfig config(WorkloadKind kind, int64_t width, int64_t height, const char *order,
                      int64_t block, const char *device = "h100") {
  sim::GpuConfig c;
  c.workload.kind = kind;
  c.workload.width = width;
  c.workload.height = height;
  c.workload.depth = kind == sim::kind_of<sim::MatmulWorkload>() ? width : 1;
  c.workload.stencil_w = c.workload.stencil_h = 9;
  c.order = remap::parse_order(order);
  c.block_threads = block;
  c.device = sim::find_device(device);
  return c;
}

// Two SMs of the h100 row, one CTA each: rows 0 and 1 of a 32-wide matmul, depth 64. Both read
// B[k][0..31], one line of 4 sectors, at the same cycles (256 B sectors in all), and their own row
// of A (8 sectors each).
sim::GpuConfig two_sms_read_b() {
  sim::GpuConfig c = config(sim::kind_of<sim::MatmulWorkload>(), 32, 2, "linear", 32);
  c.workload.depth = 64;
  c.device.sms = 2;
  return c;
}

// A tiny-device configuration drawn at random: L1 and L2 sizes, workload, size (at least
// min_width x min_height), element size and order.
sim::GpuConfig random_tiny(std::mt19937_64 &rng, int64_t min_width, int64_t min_height) {
  sim::GpuConfig g;
  g.device = sim::find_device("tiny");
  g.device.l1_bytes = 128 * (4 + static_cast<int64_t>(rng() % 60));
  g.device.l2_bytes = 128 * 16 * (1 + static_cast<int64_t>(rng() % 8));
  g.block_threads = 1;
  sim::Workload &w = g.workload;
  w.kind = WorkloadKind{static_cast<int>(rng() % std::tuple_size_v<sim::WorkloadTypes>)};
  w.width = min_width + static_cast<int64_t>(rng() % 40);
  w.height = min_height + static_cast<int64_t>(rng() % 20);
  w.depth = 1 + static_cast<int64_t>(rng() % 16);
  w.stencil_w = 1 + 2 * static_cast<int64_t>(rng() % 4);
  w.stencil_h = 1 + 2 * static_cast<int64_t>(rng() % 4);
  w.elem_bytes = rng() % 2 || w.kind == sim::kind_of<sim::SgemmTiledWorkload>() ? 4 : 8;
  const char *orders[] = {"linear", "column:5", "zigzag:8", "tile:4x3"};
  g.order = remap::parse_order(orders[rng() % 4]);
  return g;
}

} // namespace

TEST(Devices, TableHasTheIssuesRowsWithSourcesAndRejectsUnknownNames) {
  const sim::Device &h = sim::find_device("h100");
  EXPECT_EQ(h.sms, 132);
  EXPECT_EQ(h.max_threads_per_sm, 2048);
  EXPECT_EQ(h.max_warps_per_sm, 64);
  EXPECT_EQ(h.max_ctas_per_sm, 32);
  EXPECT_EQ(h.l2_bytes, 52428800);
  EXPECT_EQ(h.l2_partitions, 2);
  // The first wave's SMs in 8 GPCs, 66 near each partition (kernels/probes/l2_parts on the H200).
  ASSERT_EQ(h.sm_gpc.size(), std::size_t(h.sms));
  ASSERT_EQ(h.gpc_l2_partition.size(), 8u);
  EXPECT_EQ(*std::max_element(h.sm_gpc.begin(), h.sm_gpc.end()), 7);
  EXPECT_EQ(std::count_if(h.sm_gpc.begin(), h.sm_gpc.end(),
                          [&](int g) { return h.gpc_l2_partition[std::size_t(g)] == 0; }),
            66);
  EXPECT_GT(h.l2_fabric_cycles, 0);
  EXPECT_EQ(h.l1_line_bytes, 128);
  EXPECT_EQ(h.l1_sector_bytes, 32);
  EXPECT_LE(h.l1_bytes, 256 << 10); // part of the 256 KiB unified L1/shared memory
  const sim::Device &t = sim::find_device("rtx2080super");
  EXPECT_EQ(t.sms, 48);
  EXPECT_EQ(t.max_threads_per_sm, 1024);
  EXPECT_EQ(t.max_ctas_per_sm, 16);
  EXPECT_EQ(t.l1_bytes, 64 << 10);
  EXPECT_EQ(t.l2_bytes, 4 << 20);
  for (const char *name : {"a100", "v100"})
    EXPECT_GT(sim::find_device(name).sms, 0) << name;
  for (const sim::Device &d : sim::devices()) {
    EXPECT_FALSE(d.sources.empty()) << d.name;
    EXPECT_EQ(d.l1_bytes % d.l1_line_bytes, 0) << d.name;
    EXPECT_EQ(d.max_warps_per_sm * d.warp_size, d.max_threads_per_sm) << d.name;
  }
  try {
    sim::find_device("h200x");
    FAIL() << "accepted h200x";
  } catch (const UsageError &e) {
    EXPECT_EQ(e.option(), "--device");
    EXPECT_NE(std::string(e.what()).find("h100, h200, rtx2080super, a100, v100"),
              std::string::npos);
  }
}

// A GPU's CUDA name finds its row (cbi reproduce labels its measurements so), by the row's own
// gpu_name_part; a GPU without a row finds none.
TEST(Devices, TheCudaNameOfAGpuFindsItsRow) {
  const std::pair<const char *, const char *> named[] = {
      {"NVIDIA H100 80GB HBM3", "h100"},
      {"NVIDIA H200", "h200"},
      {"NVIDIA GeForce RTX 2080 SUPER", "rtx2080super"},
      {"NVIDIA A100-SXM4-40GB", "a100"},
      {"Tesla V100-SXM2-16GB", "v100"}};
  for (const auto &[gpu, row] : named) {
    const sim::Device *d = sim::device_of_gpu(gpu);
    ASSERT_NE(d, nullptr) << gpu;
    EXPECT_EQ(d->name, row) << gpu;
  }
  EXPECT_EQ(sim::device_of_gpu("NVIDIA GeForce RTX 2080"), nullptr); // not the Super
  EXPECT_EQ(sim::device_of_gpu("Tesla K80"), nullptr);
}

TEST(SetHash, XorAndIpolyFillEverySetOncePerAlignedRunAndSpreadPowerOfTwoStrides) {
  for (uint64_t sets : {16u, 64u, 1024u}) {
    for (sim::SetHash h : {sim::SetHash::none, sim::SetHash::xor_fold, sim::SetHash::ipoly}) {
      for (uint64_t base : {uint64_t{0}, 12345 * sets, (uint64_t{1} << 31) - sets}) {
        std::vector<int> seen(sets, 0);
        for (uint64_t i = 0; i < sets; ++i)
          ++seen[sim::set_index(h, base + i, sets)];
        EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<long>(sets))
            << sim::to_string(h) << " sets " << sets << " base " << base;
      }
      // Lines a multiple of `sets` apart: all in set 0 unhashed, spread by a hash.
      std::vector<int> seen(sets, 0);
      for (uint64_t k = 0; k < sets; ++k)
        ++seen[sim::set_index(h, k * sets, sets)];
      const auto used = std::count_if(seen.begin(), seen.end(), [](int n) { return n > 0; });
      if (h == sim::SetHash::none)
        EXPECT_EQ(used, 1);
      else
        EXPECT_GE(used, static_cast<long>(sets / 2)) << sim::to_string(h) << " sets " << sets;
    }
    for (uint64_t line = 0; line < 5000; line += 7)
      EXPECT_LT(sim::set_index(sim::SetHash::fibonacci, line, sets + 3), sets + 3);
  }
  EXPECT_EQ(sim::set_index(sim::SetHash::none, 37, 16), 5u);
  // The devices: every real row hashes both levels; tiny maps as sim::Cache does.
  EXPECT_EQ(sim::find_device("tiny").l2_set_hash, sim::SetHash::none);
  EXPECT_EQ(sim::find_device("h100").l1_set_hash, sim::SetHash::fibonacci);
}

// SetIndex replaces set_index's division by multiplications; it must agree on every line,
// including the largest values and set counts that are and are not powers of two.
TEST(SetHash, SetIndexWithoutADivisionAgreesWithSetIndex) {
  uint64_t x = 0x243F6A8885A308D3ull; // xorshift64
  for (uint64_t sets :
       std::initializer_list<uint64_t>{1, 2, 3, 7, 16, 108, 1000, 25600, 65537,
                                       (uint64_t{1} << 32) - 1, (uint64_t{1} << 40) + 13}) {
    for (sim::SetHash h : {sim::SetHash::none, sim::SetHash::fibonacci, sim::SetHash::xor_fold,
                           sim::SetHash::ipoly}) {
      const sim::SetIndex index(h, sets);
      for (uint64_t line : std::initializer_list<uint64_t>{
               0, 1, sets - 1, sets, sets + 1, ~uint64_t{0}, ~uint64_t{0} - 1, uint64_t{1} << 63})
        ASSERT_EQ(index(line), sim::set_index(h, line, sets)) << sets << " " << line;
      for (int k = 0; k < 2000; ++k) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        const uint64_t line = k % 2 ? x : x >> (k % 60);
        ASSERT_EQ(index(line), sim::set_index(h, line, sets)) << sets << " " << line;
      }
    }
  }
}

TEST(Coalescing, ThirtyTwoConsecutiveFloatsAreOneRequestOfFourSectorsInOneLine) {
  uint64_t addr[32], sectors[32];
  for (int l = 0; l < 32; ++l)
    addr[l] = 4096 + 4 * static_cast<uint64_t>(l);
  ASSERT_EQ(sim::coalesce_sectors(addr, 32, 5, sectors), 4);
  EXPECT_EQ(sectors[0], 4096u / 32);
  EXPECT_EQ(sectors[3], 4096u / 32 + 3);
  // The same through a workload: a linear matmul warp's B load (lanes x = 32..63 of one row).
  const sim::WarpRequest b = sim::warp_request(
      config(sim::kind_of<sim::MatmulWorkload>(), 1024, 1024, "linear", 256), 1, 1);
  EXPECT_EQ(b.lanes, 32);
  EXPECT_EQ(b.sectors, 4);
  EXPECT_EQ(b.lines, 1);
}

// The L1's data stage gives each of its 32 banks (4 bytes wide) one word a wavefront: a load takes
// as many wavefronts as the most distinct words one bank holds, whatever its lines. The cases of
// kernels/probes/l1_lines, whose wavefronts ncu counted on the H100 (h100-fresh.md §3).
TEST(Coalescing, TheL1sWavefrontsAreItsBanksConflictsNotItsLines) {
  uint64_t addr[32];
  const auto groups = [&](int n, uint64_t shift, uint64_t elem) { // n runs 256 bytes apart
    for (int l = 0; l < 32; ++l)
      addr[l] = 4096 + static_cast<uint64_t>(l / (32 / n)) * 256 + shift +
                static_cast<uint64_t>(l % (32 / n)) * elem;
    return sim::l1_bank_wavefronts(addr, 32, elem);
  };
  EXPECT_EQ(groups(1, 0, 4), 1);   // one line
  EXPECT_EQ(groups(1, 100, 4), 1); // two lines, every bank once
  EXPECT_EQ(groups(2, 0, 4), 2);   // two runs on the same 16 banks
  EXPECT_EQ(groups(32, 4, 4), 32);
  EXPECT_EQ(groups(1, 8, 8), 2); // 32 doubles: 64 words, two a bank, over three lines
  EXPECT_EQ(groups(2, 8, 8), 2); // a double column 16 wide on two rows: four lines
  EXPECT_EQ(groups(4, 0, 8), 4);
  // Two half-warps on other banks of two lines: no conflict. A broadcast: one word.
  for (int l = 0; l < 32; ++l)
    addr[l] = l < 16 ? 4 * static_cast<uint64_t>(l) : 192 + 4 * static_cast<uint64_t>(l - 16);
  EXPECT_EQ(sim::l1_bank_wavefronts(addr, 32, 4), 1);
  for (uint64_t &a : addr)
    a = 4100;
  EXPECT_EQ(sim::l1_bank_wavefronts(addr, 32, 8), 1);
  // Through a workload: column:33's matmul warp 1 reads B words 0..30 and 32 (bank 0 twice) and
  // A words 1 and 1025 (bank 1 twice); column:32's B row is one wavefront.
  const auto c33 = config(sim::kind_of<sim::MatmulWorkload>(), 1024, 1024, "column:33", 256);
  EXPECT_EQ(sim::warp_request(c33, 1, 0).wavefronts, 2);
  EXPECT_EQ(sim::warp_request(c33, 1, 1).wavefronts, 2);
  const auto c32 = config(sim::kind_of<sim::MatmulWorkload>(), 1024, 1024, "column:32", 256);
  EXPECT_EQ(sim::warp_request(c32, 1, 1).wavefronts, 1);
}

TEST(Coalescing, Column33SplitsAMatmulWarpsLoadsOverTwoRows) {
  // Warp 1 of column:33 holds thread 32 = task (32, 0) and threads 33..63 = tasks (0..30, 1).
  // B[i*1024 + x] for x in {32, 0..30}: bytes 0..123 and 128..131 of the row, sectors 0-3 and 4,
  // two lines. A[y*1024 + i] for y in {0, 1}: two rows, two sectors in two lines.
  const auto c33 = config(sim::kind_of<sim::MatmulWorkload>(), 1024, 1024, "column:33", 256);
  const sim::WarpRequest a = sim::warp_request(c33, 1, 0), b = sim::warp_request(c33, 1, 1);
  EXPECT_EQ(a.sectors, 2);
  EXPECT_EQ(a.lines, 2);
  EXPECT_EQ(b.sectors, 5);
  EXPECT_EQ(b.lines, 2);
  // column:32 keeps warp 1 on one row: tasks (0..31, 1), one A sector, one B line of 4 sectors.
  const auto c32 = config(sim::kind_of<sim::MatmulWorkload>(), 1024, 1024, "column:32", 256);
  EXPECT_EQ(sim::warp_request(c32, 1, 0).sectors, 1);
  EXPECT_EQ(sim::warp_request(c32, 1, 1).sectors, 4);
  EXPECT_EQ(sim::warp_request(c32, 1, 1).lines, 1);
}

TEST(GpuModel, RequestCountsAreWarpsTimesInstructions) {
  // A 9x9 stencil on N^2 issues N^2/32 x 81 requests (4096^2: 42,467,328); matmul N^3 issues
  // N^2/32 x 2N (1024: 67,108,864). Checked here at sizes a test can afford.
  auto sc = config(sim::kind_of<sim::StencilWorkload>(), 256, 256, "column:32", 256);
  sc.device.l1_mixed_request_wavefronts = 0; // the banks' wavefronts alone
  sc.device.l1_miss_lines_per_cycle = 0;
  const sim::GpuResult s = sim::simulate_gpu(sc);
  EXPECT_EQ(s.metrics.l1_requests, 256 * 256 / 32 * 81);
  // Each warp reads 32 floats of one row, shifted by the window's column (two lines for most
  // shifts): one L1 wavefront a request (l1_bank_wavefronts), not one a line.
  EXPECT_EQ(s.metrics.l1_wavefronts, s.metrics.l1_requests);
  const sim::GpuResult m =
      sim::simulate_gpu(config(sim::kind_of<sim::MatmulWorkload>(), 128, 128, "linear", 128));
  EXPECT_EQ(m.metrics.l1_requests, 128 * 128 / 32 * 2 * 128);
  EXPECT_EQ(m.metrics.l1_sector_hits + m.metrics.l1_sector_misses, m.metrics.l1_sectors);
  // Linear matmul: A is one sector per request (one row per warp), B four.
  EXPECT_EQ(m.metrics.l1_sectors, 128 * 128 / 32 * 128 * (1 + 4));
  // Every miss asks the L2; the coalescer merges what other SMs ask at about the same time (the
  // 128 CTAs read B in step here, started 2 cycles apart), so the L2 reads fewer sectors, and at
  // least A's and B's 4096 once.
  EXPECT_EQ(m.metrics.l2_requested_sectors, m.metrics.l1_sector_misses);
  EXPECT_LT(m.metrics.l2_read_sectors, m.metrics.l2_requested_sectors / 2);
  EXPECT_GE(m.metrics.l2_read_sectors, 2 * 128 * 128 * 4 / 32);
  EXPECT_EQ(m.ctas, 128);
}

TEST(GpuModel, WarpsOfACtaSharingBLinesHitWhereLinearMatmulOnOneSmDoesNot) {
  // Block 256 with column:32: the CTA's 8 warps read the same B line at every i, and the tag stage
  // finds it allocated after the first warp's miss; with linear order each warp has its own.
  auto c = config(sim::kind_of<sim::MatmulWorkload>(), 256, 256, "column:32", 256);
  c.device.sms = 1;
  const double column = sim::simulate_gpu(c).metrics.l1_hit_pct();
  c.order = remap::parse_order("linear");
  const double linear = sim::simulate_gpu(c).metrics.l1_hit_pct();
  EXPECT_GT(column, 85.0);
  EXPECT_GT(column, linear);
}

TEST(GpuModel, TinyDeviceReplaysTheSequentialOrderWithTheSimulatorsCounts) {
  std::mt19937_64 rng(10);
  for (int trial = 0; trial < 40; ++trial) {
    sim::GpuConfig g = random_tiny(rng, 8, 4);
    g.stores = false;
    const sim::Workload &w = g.workload;
    const sim::GpuResult r = sim::simulate_gpu(g);
    const sim::SimResult q = test::tiny_sequential(g);
    const std::string what = w.describe() + " " + remap::to_string(g.order);
    EXPECT_EQ(r.metrics.l1_requests, q.levels[0].accesses) << what;
    EXPECT_EQ(r.metrics.l1_sectors, q.levels[0].accesses) << what;
    EXPECT_EQ(r.metrics.l1_sector_hits, q.levels[0].hits) << what;
    EXPECT_EQ(r.metrics.l1_sector_misses, q.levels[0].misses) << what;
    EXPECT_EQ(r.metrics.l1_pending_hits, 0) << what;
    EXPECT_EQ(r.metrics.l2_read_sectors, q.levels[1].accesses) << what;
    EXPECT_EQ(r.metrics.l2_hits, q.levels[1].hits) << what;
    EXPECT_EQ(r.metrics.dram_read_bytes, q.levels[1].misses * 32) << what;
  }
}

namespace {

// The tiny device's replay with stores, computed without the model: the sequential order through
// one LRU L1 (loads only) and one LRU L2 (sim::Cache) that takes the L1's load misses and every
// store. A store allocates its sector in L2 without reading it; a sector that stores have written
// only in part holds nothing to read, so a load of it misses and reads it from DRAM.
struct TinyReference {
  int64_t l1_sectors = 0, l1_hits = 0, l2_reads = 0, l2_writes = 0, l2_hits = 0, dram_bytes = 0;
};

TinyReference tiny_reference(const sim::GpuConfig &g) {
  sim::SimConfig s = test::tiny_config(g);
  s.workload.writes = g.stores;
  sim::Cache c1(s.levels[0]), c2(s.levels[1]);
  std::map<uint64_t, uint32_t> written; // L2 sectors that stores wrote in part: their bytes
  TinyReference r;
  remap::Task<int64_t> task{0, 0};
  const int64_t width = sim::visit_workload(
      g.workload.kind, [&](auto tag) { return decltype(tag)::type::task_shape(g.workload).width; });
  const uint64_t out = static_cast<uint64_t>(g.workload.output_base_bytes());
  const uint64_t elem = static_cast<uint64_t>(g.workload.elem_bytes);
  sim::replay(
      s, 32, [&](int64_t, remap::Task<int64_t> t) { task = t; },
      [&](uint64_t sector, int64_t count, bool is_write) {
        const bool present = c2.contains(sector);
        if (is_write) {
          const uint64_t byte = out + static_cast<uint64_t>(task.y * width + task.x) * elem;
          EXPECT_EQ(byte / 32, sector);
          const uint32_t bytes = static_cast<uint32_t>(((uint64_t{1} << elem) - 1) << (byte % 32));
          c2.access(sector);
          ++r.l2_writes;
          if (!present)
            written[sector] = 0;
          else
            ++r.l2_hits;
          auto it = written.find(sector);
          if (it != written.end() && (it->second |= bytes) == ~uint32_t{0})
            written.erase(it);
          return;
        }
        r.l1_sectors += count;
        if (c1.access(sector, count)) {
          r.l1_hits += count;
          return;
        }
        r.l1_hits += count - 1;
        ++r.l2_reads;
        c2.access(sector);
        auto it = written.find(sector);
        if (present && it == written.end()) {
          ++r.l2_hits;
          return;
        }
        if (it != written.end())
          written.erase(it);
        r.dram_bytes += 32;
      });
  return r;
}

} // namespace

TEST(GpuModel, PartialOutputStoreLeavesTheInputTailToBeReadFromDram) {
  // Issue 21 §1: a 33x1 copy (1x1 stencil) at block 32 reads 33 floats, bytes 0..131: 5 sectors.
  // The output starts at byte 132, inside the input's last sector; warp 0's store writes bytes
  // 132..159 of it, and the read of bytes 128..131 must still come from DRAM (it gave 128).
  auto c = config(sim::kind_of<sim::StencilWorkload>(), 33, 1, "linear", 32);
  c.workload.stencil_w = c.workload.stencil_h = 1;
  const sim::GpuResult r = sim::simulate_gpu(c);
  EXPECT_EQ(r.metrics.dram_read_bytes, 160);
  EXPECT_EQ(r.metrics.l2_write_sectors, 5 + 1); // warp 0: sectors 4..8; CTA 1: sector 8
  // Whole-sector stores read nothing: a 32x1 copy reads its 4 input sectors only.
  c.workload.width = 32;
  EXPECT_EQ(sim::simulate_gpu(c).metrics.dram_read_bytes, 128);
}

TEST(GpuModel, TinyDeviceWithStoresMatchesTheSequentialReplay) {
  // Stores on (as `cbi simulate --model gpu` runs): L1 counts are the sequential simulator's, and
  // every L2 and DRAM count is the sequential replay's through an L2 that takes the stores.
  std::mt19937_64 rng(21);
  int partial = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const sim::GpuConfig g = random_tiny(rng, 1, 1);
    const sim::Workload &w = g.workload;
    // The tiled kernels store their output tiles (lane_stores), which the sequential simulator's
    // one store per task is not: test_tiled.cpp counts their stores by hand.
    if (sim::workload_traits(w.kind).has_block_order)
      continue;
    const sim::GpuResult r = sim::simulate_gpu(g);
    const TinyReference q = tiny_reference(g);
    const std::string what = w.describe() + " " + remap::to_string(g.order);
    EXPECT_EQ(r.metrics.l1_sectors, q.l1_sectors) << what;
    EXPECT_EQ(r.metrics.l1_sector_hits, q.l1_hits) << what;
    EXPECT_EQ(r.metrics.l2_read_sectors, q.l2_reads) << what;
    EXPECT_EQ(r.metrics.l2_write_sectors, q.l2_writes) << what;
    EXPECT_EQ(r.metrics.l2_hits, q.l2_hits) << what;
    EXPECT_EQ(r.metrics.dram_read_bytes, q.dram_bytes) << what;
    // The loads alone are what the sequential simulator counts in L1.
    sim::SimConfig s;
    s.workload = w;
    s.order = g.order;
    sim::CacheConfig l1;
    l1.line_bytes = 128;
    l1.sector_bytes = 32;
    l1.capacity_lines = g.device.l1_bytes / 128;
    s.levels = {l1};
    const sim::SimResult seq = sim::simulate(s);
    EXPECT_EQ(r.metrics.l1_sector_hits, seq.levels[0].hits) << what;
    EXPECT_EQ(r.metrics.l1_sector_misses, seq.levels[0].misses) << what;
    partial += (w.output_base_bytes() % 32) != 0;
  }
  EXPECT_GT(partial, 10); // the case of the bug: the output starts inside an input sector
}

TEST(GpuModel, RejectsBlocksTheDeviceCannotHold) {
  auto c = config(sim::kind_of<sim::StencilWorkload>(), 64, 64, "linear", 4096);
  try {
    sim::simulate_gpu(c);
    FAIL() << "accepted a 4096-thread block";
  } catch (const UsageError &e) {
    EXPECT_EQ(e.option(), "gpu.block_threads");
  }
}

TEST(GpuModel, LaneLoadsEqualLoadPerLane) {
  // The per-warp address path that stencil and matmul provide gives load()'s addresses.
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 100; ++trial) {
    sim::Workload w;
    w.kind = rng() % 2 ? sim::kind_of<sim::StencilWorkload>() : sim::kind_of<sim::MatmulWorkload>();
    w.width = 1 + static_cast<int64_t>(rng() % 70);
    w.height = 1 + static_cast<int64_t>(rng() % 40);
    w.depth = 1 + static_cast<int64_t>(rng() % 9);
    w.stencil_w = 1 + 2 * static_cast<int64_t>(rng() % 5);
    w.stencil_h = 1 + 2 * static_cast<int64_t>(rng() % 5);
    w.boundary = rng() % 2 ? sim::Boundary::none : sim::Boundary::clamp;
    auto check = [&](const auto &program) {
      remap::Task<int64_t> lanes[32];
      for (auto &t : lanes)
        t = {static_cast<int64_t>(rng() % static_cast<uint64_t>(w.width)),
             static_cast<int64_t>(rng() % static_cast<uint64_t>(w.height))};
      uint64_t addr[32];
      for (int64_t j = 0; j < program.loads(); ++j) {
        program.lane_loads(lanes, 32, j, addr);
        for (int l = 0; l < 32; ++l)
          ASSERT_EQ(addr[l], program.load(lanes[l], j).byte_addr) << w.describe() << " j " << j;
      }
    };
    if (w.kind == sim::kind_of<sim::StencilWorkload>())
      check(sim::StencilWorkload(w));
    else
      check(sim::MatmulWorkload(w));
  }
}

namespace {

// Sums of one SM's observer events.
struct Tally {
  int64_t requests = 0, sectors = 0, hits = 0, pending = 0, misses = 0, l2_hits = 0;
  int64_t last_issue = -1, last_cycle = -1;
  bool ordered = true; // issue and cycle never go back
  std::vector<sim::GpuSectorEvent> events;
  void add(const sim::GpuSectorEvent &e, bool keep) {
    if (e.issue != last_issue)
      ++requests;
    ordered = ordered && e.issue >= last_issue && e.cycle >= last_cycle;
    last_issue = e.issue;
    last_cycle = e.cycle;
    ++sectors;
    hits += e.l1 != sim::L1Outcome::miss;
    pending += e.l1 == sim::L1Outcome::pending_hit;
    misses += e.l1 == sim::L1Outcome::miss;
    l2_hits += e.l2_hit;
    if (keep)
      events.push_back(e);
  }
};

} // namespace

TEST(GpuObserver, EventsOfEverySmAddUpToTheModelsCounts) {
  // Each SM watched in turn: the sums of its events over all SMs are the launch's counts, and
  // every SM's events come in issue order.
  for (const char *order : {"linear", "column:32"}) {
    for (WorkloadKind kind :
         {sim::kind_of<sim::MatmulWorkload>(), sim::kind_of<sim::StencilWorkload>()}) {
      auto c = config(kind, 96, 64, order, 128);
      c.stores = false; // so that every L2 lookup is a read
      c.device.sms = 8; // 48 CTAs over 8 SMs: slots are refilled as CTAs end
      // An event gives each L1 miss's L2 outcome; the L2 request coalescer would keep some of
      // them from the L2's counts.
      c.device.l2_coalesce_cycles = 0;
      const sim::GpuResult plain = sim::simulate_gpu(c);
      Tally all;
      for (int sm = 0; sm < c.device.sms; ++sm) {
        Tally one;
        sim::GpuObserver obs;
        obs.sm = sm;
        obs.on_sector = [&](const sim::GpuSectorEvent &e) {
          EXPECT_EQ(e.sm, sm);
          EXPECT_LT(e.cta, plain.ctas);
          EXPECT_LT(e.warp, 4);
          EXPECT_EQ(e.line_byte_addr % 128, 0u);
          EXPECT_EQ(e.sector_byte_addr / 128 * 128, e.line_byte_addr);
          EXPECT_TRUE(e.l1 == sim::L1Outcome::miss || !e.l2_hit);
          one.add(e, false);
        };
        const sim::GpuResult r = sim::simulate_gpu(c, {}, &obs);
        // Watching does not change the replay.
        ASSERT_EQ(r.metrics.l1_sector_hits, plain.metrics.l1_sector_hits);
        ASSERT_EQ(r.cycles, plain.cycles);
        EXPECT_TRUE(one.ordered) << order << " sm " << sm;
        all.requests += one.requests;
        all.sectors += one.sectors;
        all.hits += one.hits;
        all.pending += one.pending;
        all.misses += one.misses;
        all.l2_hits += one.l2_hits;
      }
      const std::string what =
          std::string(order) + (kind == sim::kind_of<sim::MatmulWorkload>() ? " mm" : " st");
      EXPECT_EQ(all.requests, plain.metrics.l1_requests) << what;
      EXPECT_EQ(all.sectors, plain.metrics.l1_sectors) << what;
      EXPECT_EQ(all.hits, plain.metrics.l1_sector_hits) << what;
      EXPECT_EQ(all.pending, plain.metrics.l1_pending_hits) << what;
      EXPECT_EQ(all.misses, plain.metrics.l1_sector_misses) << what;
      EXPECT_EQ(all.l2_hits, plain.metrics.l2_hits) << what;
      EXPECT_GT(all.misses, 0) << what;
      EXPECT_GT(all.hits, 0) << what;
    }
  }
}

TEST(GpuObserver, TinyDeviceEventsFollowTheSequentialOrder) {
  // Warp size 1, one SM: event k is thread i's load j in the sequential order, and its L1 outcome
  // is what one LRU cache of the same size says.
  auto c = config(sim::kind_of<sim::StencilWorkload>(), 24, 10, "column:5", 1, "tiny");
  c.workload.stencil_w = c.workload.stencil_h = 3;
  c.stores = false;
  c.device.l1_bytes = 128 * 6;
  Tally t;
  sim::GpuObserver obs;
  obs.on_sector = [&](const sim::GpuSectorEvent &e) { t.add(e, true); };
  const sim::GpuResult r = sim::simulate_gpu(c, {}, &obs);
  const sim::StencilWorkload program(c.workload);
  const auto shape = sim::StencilWorkload::task_shape(c.workload);
  ASSERT_EQ(static_cast<int64_t>(t.events.size()), shape.width * shape.height * program.loads());
  std::size_t k = 0;
  for (int64_t i = 0; i < shape.width * shape.height; ++i) {
    const remap::Task<int64_t> task = c.order.map(i, shape);
    for (int64_t j = 0; j < program.loads(); ++j, ++k) {
      const sim::GpuSectorEvent &e = t.events[k];
      ASSERT_EQ(e.cta, i);
      ASSERT_EQ(e.warp, 0);
      ASSERT_EQ(e.instruction, j);
      ASSERT_EQ(e.issue, static_cast<int64_t>(k));
      ASSERT_EQ(e.sector_byte_addr, program.load(task, j).byte_addr / 32 * 32);
    }
  }
  EXPECT_EQ(t.hits, r.metrics.l1_sector_hits);
  EXPECT_EQ(t.misses, r.metrics.l1_sector_misses);
  EXPECT_EQ(t.pending, 0);
  // A fully associative LRU cache of 6 sectored lines: a sector hits iff its line is among the 6
  // most recently used and the sector was fetched since the line was allocated.
  std::vector<std::pair<uint64_t, uint32_t>> recent; // (line, sector mask), most recent first
  int64_t hits = 0;
  for (const sim::GpuSectorEvent &e : t.events) {
    const uint32_t bit = 1u << ((e.sector_byte_addr - e.line_byte_addr) / 32);
    auto it = std::find_if(recent.begin(), recent.end(),
                           [&](const auto &p) { return p.first == e.line_byte_addr; });
    std::pair<uint64_t, uint32_t> entry{e.line_byte_addr, 0};
    if (it != recent.end()) {
      entry = *it;
      recent.erase(it);
    }
    const bool hit = (entry.second & bit) != 0;
    hits += hit;
    EXPECT_EQ(e.l1, hit ? sim::L1Outcome::hit : sim::L1Outcome::miss) << e.issue;
    entry.second |= bit;
    recent.insert(recent.begin(), entry);
    if (recent.size() > 6)
      recent.pop_back();
  }
  EXPECT_EQ(hits, t.hits);
  EXPECT_GT(hits, 0);
  EXPECT_GT(t.misses, 0);
}

TEST(GpuObserver, RejectsAnSmTheDeviceDoesNotHave) {
  auto c = config(sim::kind_of<sim::StencilWorkload>(), 64, 64, "linear", 256);
  sim::GpuObserver obs;
  obs.sm = 132;
  obs.on_sector = [](const sim::GpuSectorEvent &) {};
  try {
    sim::simulate_gpu(c, {}, &obs);
    FAIL() << "accepted SM 132";
  } catch (const UsageError &e) {
    EXPECT_EQ(e.option(), "gpu.observe_sm");
  }
}

TEST(GpuModel, OldestCtaFirstLetsCoResidentCtasDriftApart) {
  // Linear matmul at block 256 on one SM of 8 CTAs: CTA k covers a quarter of B's columns (4 CTAs
  // per output row), and CTAs 0, 4, 8, ... share it. Round-robin issue keeps them in step, so
  // one CTA's B lines serve the others; oldest-CTA-first lets the younger ones fall behind, and
  // their B lines are gone when they ask (the H100 measures 44% where lockstep gives 68%).
  auto c = config(sim::kind_of<sim::MatmulWorkload>(), 1024, 16, "linear", 256);
  c.workload.depth = 256; // B's quarter (256 KiB) does not fit the L1
  c.device.sms = 1;
  c.device.cta_dispatch_cycles = 0;
  c.device.scheduler = sim::WarpScheduler::round_robin;
  const double in_step = sim::simulate_gpu(c).metrics.l1_hit_pct();
  c.device.scheduler = sim::WarpScheduler::oldest_cta_first;
  const double drifting = sim::simulate_gpu(c).metrics.l1_hit_pct();
  EXPECT_GT(in_step, drifting + 10.0);
}

// The cycles of SM 0's requests that `index_of` numbers 0, 1, 2, ... (-1: not counted), in
// order: a request's first sector event gives its cycle.
std::vector<int64_t>
cycles_in_order(const sim::GpuConfig &c,
                const std::function<int64_t(const sim::GpuSectorEvent &)> &index_of) {
  std::vector<int64_t> at;
  sim::GpuObserver obs;
  obs.sm = 0;
  obs.on_sector = [&](const sim::GpuSectorEvent &e) {
    if (index_of(e) == static_cast<int64_t>(at.size()))
      at.push_back(e.cycle);
  };
  sim::simulate_gpu(c, {}, &obs);
  return at;
}

// The cycles at which warp `warp` of CTA `cta` on SM 0 issues its loads, in order.
std::vector<int64_t> load_cycles(const sim::GpuConfig &c, int64_t cta = 0, int warp = 0) {
  return cycles_in_order(c, [&](const sim::GpuSectorEvent &e) {
    return e.cta == cta && e.warp == warp ? e.instruction : int64_t{-1};
  });
}

// The cycle of that warp's instruction j = 0 (A's load; -1: none on SM 0).
int64_t first_load(const sim::GpuConfig &c, int64_t cta, int warp) {
  const std::vector<int64_t> at = load_cycles(c, cta, warp);
  return at.empty() ? -1 : at[0];
}

TEST(GpuModel, TheL1DataStageTakesTwoCyclesForADoubleWarpsBroadcast) {
  // One CTA of two warps on one SM, both ready at cycle 0; the warp ready longest (warp 0) issues
  // first. Its load of A is one element for all 32 lanes: one line, but 32 x 8 = 256 bytes to
  // return at 128 bytes a cycle, so warp 1 issues 2 cycles later (1 without the data stage, and 1
  // for float, whose 32 x 4 bytes take one cycle).
  auto c = config(sim::kind_of<sim::MatmulWorkload>(), 64, 1, "linear", 64);
  c.workload.depth = 4;
  c.workload.elem_bytes = 8;
  c.device.sms = 1;
  ASSERT_EQ(c.device.l1_data_bytes_per_cycle, 128);     // the h100 row
  c.device.scheduler = sim::WarpScheduler::round_robin; // no issue stage before the first load
  EXPECT_EQ(first_load(c, 0, 0), 0);
  EXPECT_EQ(first_load(c, 0, 1), 2);
  c.device.l1_data_bytes_per_cycle = 0;
  EXPECT_EQ(first_load(c, 0, 1), 1);
  c.device.l1_data_bytes_per_cycle = 128;
  c.workload.elem_bytes = 4;
  EXPECT_EQ(first_load(c, 0, 1), 1);
}

// The cycles at which SM 0 issues its first `n` requests (any warp), in order.
std::vector<int64_t> request_cycles(const sim::GpuConfig &c, int64_t n) {
  return cycles_in_order(
      c, [n](const sim::GpuSectorEvent &e) { return e.issue < n ? e.issue : int64_t{-1}; });
}

TEST(GpuModel, TheL1TakesAOneWavefrontRequestForL1RequestCyclesAtLeast) {
  // One CTA of 8 float warps on one SM, all ready at cycle 0, each with 8 loads in flight: the L1
  // is the bottleneck from the start. Each request is one wavefront (one line, or A's broadcast),
  // so without l1_request_cycles the SM issues one a cycle: 60 requests in 59 cycles; at the
  // h100 row's 1.1 cycles a request, 59 x 1.1 = 64.9. Ready longest first: the L1 keeps the floor
  // itself; oldest_issues_first: the issue stage hands it a load no faster (at depth 1024 its
  // measured instructions take 0.96 cycles a load, faster than the floor).
  auto c = config(sim::kind_of<sim::MatmulWorkload>(), 256, 1, "linear", 256);
  c.workload.depth = 1024;
  c.workload.elem_bytes = 4;
  c.device.sms = 1;
  c.device.cta_dispatch_cycles = 0;
  ASSERT_DOUBLE_EQ(c.device.l1_request_cycles, 1.1); // the h100 row
  for (const auto policy :
       {sim::WarpScheduler::round_robin, sim::WarpScheduler::oldest_issues_first}) {
    c.device.scheduler = policy;
    c.device.l1_request_cycles = 1.1;
    const std::vector<int64_t> floor = request_cycles(c, 60);
    ASSERT_EQ(floor.size(), 60u);
    EXPECT_GE(floor[59] - floor[0], 64);
    EXPECT_LE(floor[59] - floor[0], 66);
    for (std::size_t k = 1; k < floor.size(); ++k)
      EXPECT_LE(floor[k] - floor[k - 1], 2) << k; // the floor's fraction carries, 1 or 2 cycles
    c.device.l1_request_cycles = 0;
    const std::vector<int64_t> none = request_cycles(c, 60);
    ASSERT_EQ(none.size(), 60u);
    EXPECT_LT(none[59] - none[0], 64);
  }
}

TEST(GpuModel, ARequestMixingReadyAndWaitingSectorsTakesMoreWavefronts) {
  // kernels/probes/l1_fill on the H200 (docs/results/tight/miss-cost.md): a warp load whose
  // sectors are partly in L1 and partly on their way costs the data stage one more wavefront. The
  // stencil's shifted window rows mix lines already there with lines another load asked for; the
  // float matmul's requests are one line each (B) or one sector (A), whose sectors arrive together.
  auto st = config(sim::kind_of<sim::StencilWorkload>(), 256, 256, "column:32", 256);
  ASSERT_EQ(st.device.l1_mixed_request_wavefronts, 1); // the h100 row
  st.device.l1_miss_lines_per_cycle = 0; // its own rule (TheL1TakesOneWaitingLineACycle) aside
  const sim::GpuResult mixed = sim::simulate_gpu(st);
  st.device.l1_mixed_request_wavefronts = 0;
  const sim::GpuResult banks = sim::simulate_gpu(st);
  EXPECT_EQ(banks.metrics.l1_wavefronts, banks.metrics.l1_requests); // one a request (above)
  EXPECT_GT(mixed.metrics.l1_wavefronts, banks.metrics.l1_wavefronts);
  EXPECT_LE(mixed.metrics.l1_wavefronts, 2 * banks.metrics.l1_wavefronts); // one more at most
  EXPECT_GE(mixed.cycles, banks.cycles);
  auto mm = config(sim::kind_of<sim::MatmulWorkload>(), 128, 128, "linear", 128);
  const sim::GpuResult one_line = sim::simulate_gpu(mm);
  mm.device.l1_mixed_request_wavefronts = 0;
  EXPECT_EQ(one_line.metrics.l1_wavefronts, sim::simulate_gpu(mm).metrics.l1_wavefronts);
}

TEST(GpuModel, TheOldestCtaIssuesFirstAndItsLoadReachesTheL1WhenItsInstructionsAreIssued) {
  // Two CTAs of one warp on one SM, both ready at cycle 0 (no launcher gap). A float matmul of
  // depth 4 issues 4.5625 x 4 + 53 = 71.25 warp instructions per warp (the measured count) for 8
  // loads: 8.90625 a load, 3.7109 cycles at the h100 row's 2.4 a cycle. The issue stage takes CTA
  // 0's warp first: its load reaches the L1 at cycle ceil(3.71) = 4, CTA 1's after both warps'
  // instructions, at ceil(7.42) = 8. Without the issue stage (ready longest first) at 0 and 1.
  auto c = config(sim::kind_of<sim::MatmulWorkload>(), 32, 2, "linear", 32);
  c.workload.depth = 4;
  c.workload.elem_bytes = 4;
  c.device.sms = 1;
  c.device.cta_dispatch_cycles = 0;
  ASSERT_EQ(c.device.scheduler, sim::WarpScheduler::oldest_issues_first); // the h100 row
  ASSERT_DOUBLE_EQ(c.device.issue_per_cycle, 2.4);
  EXPECT_EQ(first_load(c, 0, 0), 4);
  EXPECT_EQ(first_load(c, 1, 0), 8);
  c.device.scheduler = sim::WarpScheduler::round_robin;
  EXPECT_EQ(first_load(c, 0, 0), 0);
  EXPECT_EQ(first_load(c, 1, 0), 1);
}

TEST(GpuModel, IssueOldestFirstLetsFloatCtasDriftApartAndKeepsDoubleOnesInStep) {
  // The linear matmul of OldestCtaFirstLetsCoResidentCtasDriftApart, 8 CTAs on one SM, CTAs 0, 4,
  // 8, ... sharing B's quarter. Float: the issue stage (2.28 instructions a load at 2.4 a cycle)
  // keeps pace with the L1 (a cycle a load), so the oldest CTA's warps take it first and the
  // younger CTAs fall behind and miss B lines the oldest read: fewer hits than ready longest first
  // gives. Double: the L1's data stage (2 cycles a load) is the bottleneck, the loads wait in its
  // queue in issue order, and the CTAs stay in step about as ready longest first keeps them
  // (kernels/probes/cta_steps on the H200: docs/results/tight/tail-float.md).
  const auto hits = [](int elem_bytes, sim::WarpScheduler policy) {
    auto c = config(sim::kind_of<sim::MatmulWorkload>(), 1024, 16, "linear", 256);
    c.workload.depth = 256;
    c.workload.elem_bytes = elem_bytes;
    c.device.sms = 1;
    c.device.cta_dispatch_cycles = 0;
    c.device.scheduler = policy;
    return sim::simulate_gpu(c).metrics.l1_hit_pct();
  };
  const auto issue = sim::WarpScheduler::oldest_issues_first;
  const auto in_step = sim::WarpScheduler::round_robin;
  // 29.9% against 56.1% (float); 37.9% against 40.9%, and 13.6% oldest CTA first (double).
  EXPECT_LT(hits(4, issue), hits(4, in_step) - 15.0);
  EXPECT_NEAR(hits(8, issue), hits(8, in_step), 5.0);
  EXPECT_GT(hits(8, issue), hits(8, sim::WarpScheduler::oldest_cta_first) + 15.0);
}

TEST(GpuModel, FloatMatmulWarpsKeepASlidingWindowOfTwelveLoads) {
  // One warp of a matmul on one SM. Every load of k = 0 misses (B's row and A's line come from
  // DRAM). As ptxas schedules the float kernel (its SASS: 12 loads before the first FFMA, one more
  // as each oldest returns: docs/results/tight/slide.md), loads 0..11 issue without waiting and
  // load 12 waits for load 0's data; double keeps the device's 8 loads issued, then waited for
  // together, so load 8 waits and loads 1..7 do not.
  auto c = config(sim::kind_of<sim::MatmulWorkload>(), 32, 1, "linear", 32);
  c.workload.depth = 64;
  c.device.sms = 1;
  const int64_t wait = c.device.l2_hit_cycles; // at least this for data from below the L1
  ASSERT_EQ(c.device.loads_in_flight_per_warp, 8);
  c.workload.elem_bytes = 4;
  ASSERT_EQ(sim::MatmulWorkload::sliding_loads_in_flight(c.workload), 12);
  const std::vector<int64_t> f = load_cycles(c);
  ASSERT_EQ(f.size(), 128u);
  EXPECT_LT(f[11] - f[0], wait); // twelve in flight
  EXPECT_GE(f[12] - f[0], wait); // the thirteenth waits for the first
  EXPECT_LT(f[12] - f[11], f[12] - f[0]);
  c.workload.elem_bytes = 8;
  ASSERT_EQ(sim::MatmulWorkload::sliding_loads_in_flight(c.workload), 0);
  const std::vector<int64_t> d = load_cycles(c);
  ASSERT_EQ(d.size(), 128u);
  EXPECT_LT(d[7] - d[0], wait); // eight in flight
  EXPECT_GE(d[8] - d[7], wait); // then all awaited
  // The same replay on 1 and 2 host threads (the parallel replay's window log).
  c.workload.elem_bytes = 4;
  c.workload.width = 1024;
  c.workload.height = 64;
  c.device.sms = 4;
  c.jobs = 1;
  const sim::GpuResult one = sim::simulate_gpu(c);
  c.jobs = 2;
  const sim::GpuResult two = sim::simulate_gpu(c);
  EXPECT_EQ(one.cycles, two.cycles);
  EXPECT_EQ(one.metrics.l1_hit_pct(), two.metrics.l1_hit_pct());
}

TEST(GpuModel, SlotsOfOneSmFreedTogetherRefillALauncherRoundApart) {
  // One SM of 2 slots (block 1024 on the h100 row), 4 CTAs of a float matmul: CTAs 0 and 1 start
  // together and end together; the launcher starts one CTA a visit, so CTA 3 starts
  // cta_refill_round_cycles after CTA 2. Without the round both start at the same cycle.
  auto c = config(sim::kind_of<sim::MatmulWorkload>(), 1024, 4, "linear", 1024);
  c.workload.depth = 64;
  c.workload.elem_bytes = 4;
  c.device.sms = 1;
  c.device.scheduler = sim::WarpScheduler::round_robin;
  const int64_t round = c.device.cta_refill_round_cycles;
  ASSERT_EQ(round, 127); // the h100 row (kernels/probes/cta_launch: 64 ns)
  const int64_t second = first_load(c, 3, 0) - first_load(c, 2, 0);
  EXPECT_GE(second, round);
  EXPECT_LT(second, round + 64);
  c.device.cta_refill_round_cycles = 0;
  EXPECT_LT(first_load(c, 3, 0) - first_load(c, 2, 0), 64);
}

TEST(GpuModel, InstructionCountsAreTheKernelsAsTheH200ExecutesThem) {
  // ncu's smsp__inst_executed.sum per warp on the H200 (kernels/scripts/sm_inst.sh,
  // docs/results/tight/sm.md §2), linear order and fast remap.
  sim::Workload w;
  w.stencil_w = w.stencil_h = 5;
  w.elem_bytes = 4;
  EXPECT_EQ(sim::StencilWorkload::instructions_per_task(w), 148.0);
  w.stencil_w = w.stencil_h = 3;
  w.elem_bytes = 2;
  EXPECT_EQ(sim::StencilWorkload::instructions_per_task(w), 86.0);
  w.stencil_w = w.stencil_h = 11;
  w.elem_bytes = 8;
  EXPECT_EQ(sim::StencilWorkload::instructions_per_task(w), 557.0);
  w.depth = 512;
  w.elem_bytes = 4;
  EXPECT_EQ(sim::MatmulWorkload::instructions_per_task(w), 2389.0);
  w.depth = 128;
  w.elem_bytes = 2;
  EXPECT_EQ(sim::MatmulWorkload::instructions_per_task(w), 1068.0);
  // The fast maps beyond linear's: stencil 5x5 float column 163 - 148 = 15, matmul 18; zigzag 19;
  // tile 31 and 37; hilbert:64 237 and 246.
  EXPECT_EQ(remap::fast_remap_instructions(remap::parse_order("linear")), 0.0);
  EXPECT_EQ(remap::fast_remap_instructions(remap::parse_order("column:4")), 16.5);
  EXPECT_EQ(remap::fast_remap_instructions(remap::parse_order("column:256")), 16.5);
  EXPECT_EQ(remap::fast_remap_instructions(remap::parse_order("zigzag:32")), 19.0);
  EXPECT_EQ(remap::fast_remap_instructions(remap::parse_order("tile:32x8")), 34.0);
  EXPECT_EQ(remap::fast_remap_instructions(remap::parse_order("hilbert:64")), 244.0);
}

TEST(GpuModel, TheIssueBoundCountsTheMeasuredInstructions) {
  // 256 x 64 threads of a 9x9 float stencil, column:32: (4 * 81 + 4 * 9 + 28 + 16.5) warp
  // instructions per thread, 512 warps, over 132 SMs issuing issue_per_cycle at 1980 MHz.
  auto c = config(sim::kind_of<sim::StencilWorkload>(), 256, 64, "column:32", 256);
  const sim::GpuResult r = sim::simulate_gpu(c);
  const double per_thread = 4.0 * 81 + 4.0 * 9 + 28 + 16.5;
  EXPECT_DOUBLE_EQ(r.time.arithmetic_ms,
                   1e3 * 512 * per_thread / (132 * c.device.issue_per_cycle * 1980e6));
  EXPECT_EQ(sim::remap_instructions_per_thread(c), 16.5);
  // A workload whose count was not measured keeps the estimate (20 instructions a division), at
  // the rate fitted with the estimates: the measured counts' rate does not move its bound.
  c.workload.kind = sim::kind_of<sim::Stencil3dWorkload>();
  c.workload.depth = 4;
  c.workload.stencil_w = c.workload.stencil_h = 3;
  EXPECT_EQ(sim::remap_instructions_per_thread(c), 100.0);
  ASSERT_EQ(c.device.estimated_issue_per_cycle, 2.75); // the h100 row
  const double estimated = sim::simulate_gpu(c).time.arithmetic_ms;
  c.device.issue_per_cycle = 1;
  EXPECT_EQ(sim::simulate_gpu(c).time.arithmetic_ms, estimated);
  c.device.estimated_issue_per_cycle = 1.375;
  EXPECT_DOUBLE_EQ(sim::simulate_gpu(c).time.arithmetic_ms, 2 * estimated);
}

// Where DRAM holds the replay, its instructions cannot all hide behind the loads
// (Device::stream_issue_norm; kernels/probes/dram_pages, docs/results/tight/dram-pages.md): the
// replay and the issue bound add in a norm; elsewhere, the time is the largest bound as before.
TEST(GpuModel, AKernelThatStreamsDramCannotHideItsInstructions) {
  auto c = config(sim::kind_of<sim::StencilWorkload>(), 512, 256, "column:32", 256);
  c.workload.stencil_w = c.workload.stencil_h = 3;
  ASSERT_EQ(c.device.stream_issue_norm, 6); // the h100 row, as the h200's
  ASSERT_EQ(c.device.stream_dram_share, 0.57);
  c.device.stream_dram_share = 0; // applies whatever DRAM's share (a small grid stays in L2)
  const sim::GpuResult on = sim::simulate_gpu(c);
  const sim::GpuTime &t = on.time;
  EXPECT_DOUBLE_EQ(t.stream_issue_ms,
                   std::pow(std::pow(t.simulated_ms, 6) + std::pow(t.arithmetic_ms, 6), 1 / 6.0));
  EXPECT_GT(t.stream_issue_ms, std::max(t.simulated_ms, t.arithmetic_ms));
  EXPECT_EQ(t.predicted_ms, t.stream_issue_ms);
  EXPECT_EQ(t.bound, "DRAM stream and issue");
  // The remap's instructions now cost time that the replay alone hides: linear, whose index has
  // none, is faster than column:32 with the same replay.
  auto lc = c;
  lc.order = remap::parse_order("linear");
  const sim::GpuResult linear = sim::simulate_gpu(lc);
  EXPECT_LT(linear.time.predicted_ms, t.predicted_ms);
  EXPECT_LT(t.predicted_ms / linear.time.predicted_ms,
            on.time.arithmetic_ms / linear.time.arithmetic_ms);
  for (double share : {2.0, 0.0}) { // DRAM never holds twice the replay; a row without the term
    auto oc = c;
    oc.device.stream_dram_share = share;
    oc.device.stream_issue_norm = share > 0 ? 6 : 0;
    const sim::GpuResult off = sim::simulate_gpu(oc);
    EXPECT_EQ(off.time.stream_issue_ms, 0);
    EXPECT_EQ(off.time.predicted_ms,
              std::max({t.simulated_ms, t.l1_ms, t.l2_ms, t.dram_ms, t.arithmetic_ms}));
    EXPECT_EQ(off.cycles, on.cycles); // the replay itself is the same
  }
  // Only where the issue bound counts measured instructions, as the probe's: a workload whose
  // count is estimated (stencil3d) keeps the largest bound.
  auto estimated = c;
  estimated.workload.kind = sim::kind_of<sim::Stencil3dWorkload>();
  estimated.workload.depth = 4;
  const sim::GpuResult e = sim::simulate_gpu(estimated);
  EXPECT_EQ(e.time.stream_issue_ms, 0);
  EXPECT_EQ(e.time.predicted_ms, std::max({e.time.simulated_ms, e.time.l1_ms, e.time.l2_ms,
                                           e.time.dram_ms, e.time.arithmetic_ms}));
}

namespace {

// Under column:32 and linear a matmul's A loads read one line: the L1's tag-stage and miss-stage
// rules leave their wavefronts and cycles as they were (`c` with a rule, `off` without).
void expect_unchanged_under_one_line_orders(const sim::GpuConfig &c, const sim::GpuConfig &off) {
  for (const char *order : {"column:32", "linear"}) {
    auto w = c, wo = off;
    w.order = wo.order = remap::parse_order(order);
    const sim::GpuResult a = sim::simulate_gpu(w), b = sim::simulate_gpu(wo);
    EXPECT_EQ(a.metrics.l1_wavefronts, b.metrics.l1_wavefronts) << order;
    EXPECT_EQ(a.cycles, b.cycles) << order;
  }
}

} // namespace

// An SM's L1 looks up four lines a cycle (Device::l1_lines_per_cycle; kernels/probes/l1_spread,
// docs/results/tight/l1-issue.md §7): a half matmul under column:4 whose A row pitch (600 x 2
// bytes) puts a warp's 8 rows on 8 distinct banks reads 8 lines in one wavefront, and takes 2
// cycles; column:32's A loads (one line) take what they took.
TEST(GpuModel, TheL1LooksUpFourLinesACycle) {
  auto c = config(sim::kind_of<sim::MatmulWorkload>(), 64, 64, "column:4", 256);
  c.workload.depth = 600;
  c.workload.elem_bytes = 2;
  ASSERT_EQ(c.device.l1_lines_per_cycle, 4); // the h100 row, as the h200's
  auto off = c;
  off.device.l1_lines_per_cycle = 0;
  const sim::GpuResult on = sim::simulate_gpu(c), without = sim::simulate_gpu(off);
  const int64_t a_requests = on.metrics.l1_requests / 2; // an A and a B load each k step
  EXPECT_EQ(on.metrics.l1_requests, without.metrics.l1_requests);
  // Each A request of one wavefront now takes two; those the mixed-request rule had already
  // given two keep them.
  EXPECT_GE(on.metrics.l1_wavefronts, without.metrics.l1_wavefronts + a_requests / 2);
  EXPECT_LE(on.metrics.l1_wavefronts, without.metrics.l1_wavefronts + a_requests);
  EXPECT_GT(on.time.l1_ms, without.time.l1_ms);
  EXPECT_GT(on.cycles, without.cycles);
  expect_unchanged_under_one_line_orders(c, off);
}

// An SM's L1 takes one line with sectors missing or on their way a cycle
// (Device::l1_miss_lines_per_cycle; kernels/probes/l1_miss_lines,
// docs/results/tight/miss-lines.md): under column:4 a half matmul warp's A load reads 8 rows of A,
// which reach a new sector on the same k step and wait together: those requests take up to 8
// cycles. column:32's A loads (one line) take what they took.
TEST(GpuModel, TheL1TakesOneWaitingLineACycle) {
  auto c = config(sim::kind_of<sim::MatmulWorkload>(), 64, 64, "column:4", 256);
  c.workload.depth = 600;
  c.workload.elem_bytes = 2;
  ASSERT_EQ(c.device.l1_miss_lines_per_cycle, 1); // the h100 row, as the h200's
  auto off = c;
  off.device.l1_miss_lines_per_cycle = 0;
  const sim::GpuResult on = sim::simulate_gpu(c), without = sim::simulate_gpu(off);
  EXPECT_EQ(on.metrics.l1_requests, without.metrics.l1_requests);
  // Only the requests with more than 2 waiting lines (the tag stage's 2 cycles for 8 lines) take
  // longer, by at most 6 cycles each (8 lines), and at least one does.
  EXPECT_GT(on.metrics.l1_wavefronts, without.metrics.l1_wavefronts);
  EXPECT_LE(on.metrics.l1_wavefronts,
            without.metrics.l1_wavefronts + 6 * on.metrics.l1_requests / 2);
  EXPECT_GT(on.time.l1_ms, without.time.l1_ms);
  expect_unchanged_under_one_line_orders(c, off);
}

TEST(GpuModel, SampledModeStandsForTheWholeDevice) {
  auto c = config(sim::kind_of<sim::MatmulWorkload>(), 1024, 128, "linear", 256);
  c.workload.depth = 256;
  c.device.sms = 24;           // 512 CTAs in about three waves of 192
  c.device.l2_bytes = 4 << 20; // holds A and B
  const sim::GpuResult full = sim::simulate_gpu(c);
  // Sampling every SM is the full model.
  c.sample_sms = c.device.sms;
  const sim::GpuResult all = sim::simulate_gpu(c);
  EXPECT_EQ(all.metrics.l1_sector_hits, full.metrics.l1_sector_hits);
  EXPECT_EQ(all.cycles, full.cycles);
  EXPECT_EQ(all.simulated_ctas, all.ctas);
  // 6 of 24 SMs: about 1/4 of the CTAs simulated, counts scaled to the launch.
  c.sample_sms = 6;
  const sim::GpuResult some = sim::simulate_gpu(c);
  EXPECT_EQ(some.simulated_sms, 6);
  EXPECT_LT(some.simulated_ctas, some.ctas / 3);
  EXPECT_NEAR(double(some.metrics.l1_requests), double(full.metrics.l1_requests),
              0.02 * double(full.metrics.l1_requests));
  // Which CTAs share a sampled SM is drawn, not replayed: some points of error here (4.4 for
  // this launch with an LRU L1 and the lowest ready warp first; 9.5 since a CTA's warps take
  // turns and the L1 picks random victims, docs/results/tight/model-fix.md: the full replay's
  // co-resident CTAs k and k + 24 read the same B columns, a sampled SM's drawn CTAs mostly do
  // not; a fixed stride gave 17). docs/results/gpu-model-speed.md measures it on the H100.
  // Since the h100 row issues oldest CTA first (docs/results/tight/tail-float.md) the younger of
  // the full replay's co-resident CTAs fall behind and lose part of that sharing (57.3% full);
  // the sampled SMs' drawn CTAs had little of it to lose (69.7%): 12.5 points. With the warp ready
  // longest first, 64.9% and 69.2%.
  EXPECT_NEAR(some.metrics.l1_hit_pct(), full.metrics.l1_hit_pct(), 13.0);
  c.device.scheduler = sim::WarpScheduler::round_robin;
  const double some_in_step = sim::simulate_gpu(c).metrics.l1_hit_pct();
  c.sample_sms = 0;
  const double full_in_step = sim::simulate_gpu(c).metrics.l1_hit_pct();
  EXPECT_NEAR(some_in_step, full_in_step, 5.0);
  c.sample_sms = 7;
  try {
    sim::simulate_gpu(c);
    FAIL() << "accepted 7 of 24 SMs";
  } catch (const UsageError &e) {
    EXPECT_EQ(e.option(), "gpu.sample_sms");
  }
}

TEST(GpuModel, OneL2ReadServesAtMostTheCoalescersMaxReads) {
  // Six SMs of one GPC (the h100 row's SMs 0-7 are GPC 0), one CTA each (rows 0-5 of a 32-wide
  // double matmul, depth 64): all read B[k][0..31] (8 sectors) together, and their own row of A
  // (16 sectors). kernels/probes/lrc_cap: one L2 read serves at most 4 reads of a sector, so six
  // readers of a B sector make ceil(6 / 4) = 2 L2 reads of it. Without the limit, one. (Double:
  // its warps wait for their loads every 8, so the six SMs stay in step; a float warp's sliding
  // window lets a few B reads fall out of step, MatmulWorkload::sliding_loads_in_flight.)
  sim::GpuConfig c = config(sim::kind_of<sim::MatmulWorkload>(), 32, 6, "linear", 32);
  c.workload.depth = 64;
  c.workload.elem_bytes = 8;
  c.device.sms = 6;
  ASSERT_EQ(c.device.l2_coalesce_max_reads, 4);
  const sim::GpuMetrics m = sim::simulate_gpu(c).metrics;
  EXPECT_EQ(m.l2_requested_sectors, 6 * (512 + 16));
  EXPECT_EQ(m.l2_read_sectors, 2 * 512 + 6 * 16);
  c.device.l2_coalesce_max_reads = 0;
  EXPECT_EQ(sim::simulate_gpu(c).metrics.l2_read_sectors, 512 + 6 * 16);
  c.device.l2_coalesce_max_reads = 1; // every read its own
  EXPECT_EQ(sim::simulate_gpu(c).metrics.l2_read_sectors, 6 * (512 + 16));
}

TEST(GpuModel, TheL2RequestCoalescerMergesTwoSmsReadsOfOneSectorInFlight) {
  // Two SMs, one CTA each (rows 0 and 1 of a 32-wide matmul, depth 64): both read B[k][0..31], one
  // line of 4 sectors, at the same cycles, and their own row of A (8 sectors each). The second
  // SM's B reads find the first's on their way from DRAM and merge: the L2 reads 256 B sectors and
  // 2 x 8 A sectors, where the L1s ask for 2 x (256 + 8). Without the coalescer it reads them all.
  sim::GpuConfig c = two_sms_read_b();
  ASSERT_GT(c.device.l2_coalesce_cycles, 0); // the h100 row has the coalescer
  const sim::GpuMetrics m = sim::simulate_gpu(c).metrics;
  EXPECT_EQ(m.l1_sector_misses, 2 * (256 + 8));
  EXPECT_EQ(m.l2_requested_sectors, 2 * (256 + 8));
  EXPECT_EQ(m.l2_read_sectors, 256 + 2 * 8);
  // Line requests: B's 64 lines (4 sectors each) once, and each SM's A sectors one at a time (a
  // k step reads one element: 8 of them share a sector).
  EXPECT_EQ(m.l2_read_requests, 64 + 2 * 8);
  EXPECT_EQ(m.dram_read_bytes, (256 + 2 * 8) * 32);
  c.device.l2_coalesce_cycles = 0;
  const sim::GpuMetrics off = sim::simulate_gpu(c).metrics;
  EXPECT_EQ(off.l2_requested_sectors, 2 * (256 + 8));
  EXPECT_EQ(off.l2_read_sectors, 2 * (256 + 8));
  EXPECT_EQ(off.l2_read_requests, 2 * (64 + 8));
  EXPECT_EQ(off.dram_read_bytes, m.dram_read_bytes);
}

TEST(GpuModel, TheL2BoundChargesTheL2sSectorsAndLineRequests) {
  // docs/results/tight/l2-bw.md: the L2's reads (after the coalescer) take their sectors' bytes at
  // l2_to_l1_bytes_per_cycle or their line requests at l2_request_cycles, whichever is slower, of
  // the SMs' shares. Here B's reads are 4 sectors a line and A's 1: the bytes decide.
  const sim::GpuConfig c = two_sms_read_b();
  const sim::GpuResult r = sim::simulate_gpu(c);
  const sim::Device &d = c.device;
  ASSERT_GT(d.l2_request_cycles, 0); // the h100 row: kernels/probes/l2_bw
  const double bytes = double(r.metrics.l2_read_sectors) * 32 / d.l2_to_l1_bytes_per_cycle,
               requests = double(r.metrics.l2_read_requests) * d.l2_request_cycles;
  EXPECT_GT(bytes, requests);
  EXPECT_DOUBLE_EQ(r.time.l2_ms, 1e3 * bytes / double(d.sms) / (d.sm_clock_mhz * 1e6));
  // With no limit on the bytes, the line requests decide.
  sim::GpuConfig one = c;
  one.device.l2_to_l1_bytes_per_cycle = 1e9;
  EXPECT_DOUBLE_EQ(sim::simulate_gpu(one).time.l2_ms,
                   1e3 * requests / double(d.sms) / (d.sm_clock_mhz * 1e6));
  // The merged reads cost nothing: the bound follows the L2's sectors, not the L1s' misses.
  EXPECT_LT(r.metrics.l2_read_sectors, r.metrics.l2_requested_sectors);
}

TEST(GpuModel, TheL2RequestCoalescerMergesOnlyTheReadsOfOneGpc) {
  // The case above with the two SMs in two GPCs: kernels/probes/l2_parts finds no merging between
  // SMs of different GPCs (docs/results/tight/l2-partitions.md), so every read reaches the L2; in
  // one GPC the second SM's B reads merge as above. Double (8 B sectors and 16 A sectors a row):
  // its warps wait every 8 loads and the two SMs stay in step (a float warp's sliding window lets
  // a few of B's reads fall out of step).
  sim::GpuConfig c = two_sms_read_b();
  c.workload.elem_bytes = 8;
  c.device.l2_partitions = 1;
  c.device.sm_gpc = {0, 1};
  c.device.gpc_l2_partition.clear();
  const sim::GpuMetrics apart = sim::simulate_gpu(c).metrics;
  EXPECT_EQ(apart.l2_requested_sectors, 2 * (512 + 16));
  EXPECT_EQ(apart.l2_read_sectors, 2 * (512 + 16));
  c.device.sm_gpc = {3, 3};
  const sim::GpuMetrics together = sim::simulate_gpu(c).metrics;
  EXPECT_EQ(together.l2_read_sectors, 512 + 2 * 16);
  EXPECT_EQ(together.dram_read_bytes, apart.dram_read_bytes);
}

TEST(GpuModel, AnSmReadsTheOtherPartitionsLinesOverTheFabricAndKeepsACopy) {
  // Two SMs near different partitions (no coalescer) read all of B (256 sectors) at the same time.
  // Each B sector is looked up over the fabric exactly once, whatever its home: by the SM of the
  // other side, once (its near partition keeps the copy). Each SM's own row of A (8 sectors) goes
  // over the fabric where it is homed far. DRAM reads every sector once; the hit rate's lookups
  // are the tex reads and the fabric's. With one partition, no fabric.
  sim::GpuConfig c = two_sms_read_b();
  c.device.l2_coalesce_cycles = 0;
  c.device.sm_gpc = {0, 1};
  c.device.gpc_l2_partition = {0, 1};
  ASSERT_EQ(c.device.l2_partitions, 2);
  const sim::GpuMetrics two = sim::simulate_gpu(c).metrics;
  EXPECT_EQ(two.l2_read_sectors, 2 * (256 + 8));
  EXPECT_GE(two.l2_fabric_sectors, 256);
  EXPECT_LE(two.l2_fabric_sectors, 256 + 2 * 8);
  EXPECT_GT(two.l2_fabric_sectors, 256); // some A sector of 16 is homed far (a hash, half each)
  EXPECT_EQ(two.dram_read_bytes, (256 + 2 * 8) * 32);
  EXPECT_EQ(two.l2_lookups, two.l2_read_sectors + two.l2_fabric_sectors + two.l2_write_sectors);
  c.device.l2_partitions = 1;
  const sim::GpuMetrics one = sim::simulate_gpu(c).metrics;
  EXPECT_EQ(one.l2_fabric_sectors, 0);
  EXPECT_EQ(one.dram_read_bytes, two.dram_read_bytes);
  EXPECT_EQ(one.l2_lookups, one.l2_read_sectors + one.l2_write_sectors);
}

TEST(GpuModel, DataReadFromBothSidesTakesRoomInBothPartitions) {
  // A 64-wide matmul, depth 96, one CTA (a row) at a time on each of two SMs: every CTA reads all
  // of B, 24 KiB, through a 2 KiB L1. In one L2 of 32 KiB, B stays: DRAM reads it once. In two
  // partitions of 16 KiB with the SMs on different sides, each SM's near partition keeps a copy
  // of all of B (24 KiB in 16), so B leaves the L2 between rows and is read again from DRAM. With
  // both SMs on one side, half of B is homed in the far partition and the near one still has to
  // hold all of it: as little room. The L2 a kernel sees is the near partition, not the sum.
  sim::GpuConfig c = config(sim::kind_of<sim::MatmulWorkload>(), 64, 16, "linear", 64);
  c.workload.depth = 96;
  c.device.sms = 2;
  c.device.max_ctas_per_sm = 1;
  c.device.l2_coalesce_cycles = 0;
  c.device.l2_bytes = 32 << 10;
  c.device.l2_ways = 16;
  c.device.l2_set_hash = sim::SetHash::none; // A and B spread evenly over the sets
  c.l1_bytes = 2 << 10;
  c.stores = false;
  c.device.sm_gpc = {0, 1};
  c.device.gpc_l2_partition = {0, 1};
  const int64_t compulsory = (96 * 64 + 16 * 96) * 4;
  c.device.l2_partitions = 1;
  const sim::GpuMetrics one = sim::simulate_gpu(c).metrics;
  EXPECT_EQ(one.dram_read_bytes, compulsory);
  c.device.l2_partitions = 2;
  const sim::GpuMetrics two = sim::simulate_gpu(c).metrics;
  EXPECT_GT(two.dram_read_bytes, 2 * compulsory);
  c.device.gpc_l2_partition = {0, 0};
  const sim::GpuMetrics one_side = sim::simulate_gpu(c).metrics;
  EXPECT_GT(one_side.dram_read_bytes, 2 * compulsory);
}

TEST(GpuModel, PastItsCapacityARandomVictimL1KeepsPartOfACyclicFootprintWhereLruKeepsNone) {
  // One SM holding one CTA at a time; each CTA (a row of a 64-wide matmul, depth 96) reads all of
  // B, 24 KiB, through a 16 KiB L1: B is a cyclic footprint 1.5 times the L1. LRU keeps none of it
  // from one CTA to the next (only A's reuse hits, about 19% of the sectors); a random victim keeps
  // part of it, as the H100's L1 does past its capacity (kernels/probes/l1_warps).
  sim::GpuConfig c = config(sim::kind_of<sim::MatmulWorkload>(), 64, 16, "linear", 64);
  c.workload.depth = 96;
  c.device.sms = 1;
  c.device.max_ctas_per_sm = 1;
  c.l1_bytes = 16 << 10;
  c.device.l1_random_replacement = false;
  const double lru = sim::simulate_gpu(c).metrics.l1_hit_pct();
  c.device.l1_random_replacement = true;
  const double random = sim::simulate_gpu(c).metrics.l1_hit_pct();
  EXPECT_LT(lru, 25.0);
  EXPECT_GT(random, lru + 20.0);
}

TEST(GpuModel, DramLatencyGrowsWithItsLoad) {
  // A 3x3 stencil over 2048x512 floats on the full h100 row reads each input sector from DRAM
  // once and stores as much: DRAM is loaded, so the loaded latency (dram_loaded_cycles x the last
  // period's load) makes the replay longer. One SM with one CTA at a time barely loads DRAM
  // (a few sectors a period of 1024 cycles against 1000 that it could serve): the same cycles
  // within 2%.
  auto loaded = config(sim::kind_of<sim::StencilWorkload>(), 2048, 512, "linear", 1024);
  loaded.workload.stencil_w = loaded.workload.stencil_h = 3;
  ASSERT_GT(loaded.device.dram_loaded_cycles, 0); // the h100 row (kernels/probes/dram_lat)
  auto fixed = loaded;
  fixed.device.dram_loaded_cycles = 0;
  const int64_t with = sim::simulate_gpu(loaded).cycles, without = sim::simulate_gpu(fixed).cycles;
  EXPECT_GT(double(with), 1.03 * double(without));

  auto idle = config(sim::kind_of<sim::StencilWorkload>(), 256, 16, "linear", 256);
  idle.workload.stencil_w = idle.workload.stencil_h = 3;
  idle.device.sms = 1;
  auto idle_fixed = idle;
  idle_fixed.device.dram_loaded_cycles = 0;
  EXPECT_NEAR(double(sim::simulate_gpu(idle).cycles), double(sim::simulate_gpu(idle_fixed).cycles),
              0.02 * double(sim::simulate_gpu(idle_fixed).cycles));
}

TEST(GpuModel, ManyShortCtasRunAtTheLaunchersRate) {
  // A 3x3 stencil of 64 x 768 at block 32 on 4 SMs of the h200 row: 1536 CTAs of one warp, each a
  // few loads long. The device's launcher starts launcher_ctas_per_us CTAs a microsecond after
  // the first wave (kernels/probes/cta_launch), so the launch takes at least the CTAs after the
  // first wave over that rate; without the limit each SM refills a slot a launcher round
  // (cta_refill_round_cycles), 4 SMs' worth of CTAs every 127 cycles, and the launch is faster.
  auto c = config(sim::kind_of<sim::StencilWorkload>(), 64, 768, "linear", 32, "h200");
  c.workload.stencil_w = c.workload.stencil_h = 3;
  c.device.sms = 4;
  ASSERT_EQ(c.device.launcher_ctas_per_us, 1660.0); // the h200 row (the H200's probe)
  c.device.launcher_ctas_per_us = 30;               // 4 SMs' share of a device
  const sim::GpuResult limited = sim::simulate_gpu(c);
  const int64_t ctas = 64 * 768 / 32, first_wave = 4 * limited.ctas_per_sm;
  const double cycles_per_cta = c.device.sm_clock_mhz / c.device.launcher_ctas_per_us;
  EXPECT_GE(double(limited.cycles), double(ctas - first_wave) * cycles_per_cta);
  c.device.launcher_ctas_per_us = 0;
  const sim::GpuResult unlimited = sim::simulate_gpu(c);
  EXPECT_LT(double(unlimited.cycles), 0.8 * double(ctas - first_wave) * cycles_per_cta);
  // The same counts: the limit moves CTAs in time, not what they read.
  EXPECT_EQ(limited.metrics.l1_requests, unlimited.metrics.l1_requests);
  // The launcher's own time is reported, and names the bound where it is most of the replay.
  EXPECT_DOUBLE_EQ(limited.time.launcher_ms, double(ctas - first_wave) / 30.0 / 1e3);
  EXPECT_EQ(limited.time.bound, "CTA launcher");
  EXPECT_EQ(unlimited.time.launcher_ms, 0.0);
  EXPECT_EQ(unlimited.time.bound, "replay");
}
