// Traces (issue 19 §3, docs/traces.md): cbi's trace of a workload replays with exactly the direct
// run's counts (sequential, miss-ratio curve, GPU model) on random configurations; an Accel-Sim
// kernel trace written by hand per the tracer's format is read with its counts by hand; bad
// traces (missing, truncated, malformed, foreign) are one UsageError naming file and line.
#include "cbi/sim/gpu_model.hpp"
#include "cbi/sim/mrc.hpp"
#include "cbi/sim/simulate.hpp"
#include "cbi/sim/trace.hpp"

#include <gtest/gtest.h>

#include "sim_random.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <unistd.h>

namespace {

using namespace cbi;

// A file under /tmp removed at the end of the test.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string &text = "") {
    char p[] = "/tmp/cbi_trace_test_XXXXXX";
    const int fd = mkstemp(p);
    if (fd >= 0)
      close(fd);
    path = p;
    std::ofstream(path, std::ios::binary) << text;
  }
  ~TempFile() { std::remove(path.c_str()); }
};

sim::Workload random_workload(std::mt19937_64 &rng) {
  sim::Workload w;
  // The workloads of thread-order kernels (not the tiled ones, whose CTAs take a block order).
  do
    w.kind = sim::WorkloadKind{static_cast<int>(rng() % std::tuple_size_v<sim::WorkloadTypes>)};
  while (sim::workload_traits(w.kind).has_block_order);
  w.width = 1 + static_cast<int64_t>(rng() % 40);
  w.height = 1 + static_cast<int64_t>(rng() % 24);
  w.stencil_w = 1 + 2 * static_cast<int64_t>(rng() % 4);
  w.stencil_h = 1 + 2 * static_cast<int64_t>(rng() % 4);
  w.depth = 1 + static_cast<int64_t>(rng() % 8);
  const int elem[] = {2, 4, 8};
  w.elem_bytes = elem[rng() % 3];
  w.boundary = w.kind == sim::kind_of<sim::StencilWorkload>() && rng() % 2 ? sim::Boundary::none
                                                                           : sim::Boundary::clamp;
  w.writes = rng() % 2 == 0;
  return w;
}

sim::Workload traced(const TempFile &f) {
  const auto t = sim::open_trace(f.path);
  return sim::make_workload(t, sim::trace_info(*t)->elem_bytes);
}

std::string trace_of(const sim::Workload &w, const remap::Order &o, int64_t block) {
  std::ostringstream s;
  sim::write_trace(s, w, o, block);
  return s.str();
}

TEST(Trace, CbiTraceReplaysWithTheDirectCountsSequentially) {
  std::mt19937_64 rng(31);
  for (int trial = 0; trial < 120; ++trial) {
    sim::SimConfig c;
    c.workload = random_workload(rng);
    c.order = test::random_order(rng, c.workload.width);
    c.granularity = rng() % 4 == 0 ? sim::Granularity::thread : sim::Granularity::exact;
    c.levels.clear();
    for (int k = 0, n = 1 + static_cast<int>(rng() % 2); k < n; ++k)
      c.levels.push_back(test::random_level(rng, c.workload.elem_bytes));
    const int64_t block = 1 + static_cast<int64_t>(rng() % 300);
    const TempFile f(trace_of(c.workload, c.order, block));
    sim::SimConfig t = c;
    t.workload = traced(f);
    t.order = remap::Order{};
    const sim::SimResult a = sim::simulate(c), b = sim::simulate(t);
    const std::string what = c.workload.describe() + (c.workload.writes ? " writes" : "") + ", " +
                             remap::to_string(c.order) + ", block " + std::to_string(block);
    ASSERT_EQ(a.levels.size(), b.levels.size());
    for (std::size_t k = 0; k < a.levels.size(); ++k) {
      EXPECT_EQ(a.levels[k].accesses, b.levels[k].accesses) << what << " L" << k + 1;
      EXPECT_EQ(a.levels[k].misses, b.levels[k].misses) << what << " L" << k + 1;
      EXPECT_EQ(a.levels[k].stores, b.levels[k].stores) << what << " L" << k + 1;
      EXPECT_EQ(a.levels[k].store_misses, b.levels[k].store_misses) << what << " L" << k + 1;
      EXPECT_EQ(a.levels[k].evictions, b.levels[k].evictions) << what << " L" << k + 1;
      EXPECT_EQ(a.levels[k].load_bytes, b.levels[k].load_bytes) << what << " L" << k + 1;
    }
    if (HasFailure())
      return;
    const sim::TraceInfo &info = *sim::trace_info(*t.workload.user);
    EXPECT_EQ(info.lane_accesses, c.workload.accesses()) << what;
    EXPECT_EQ(info.widest_bytes, c.workload.elem_bytes) << what;
    EXPECT_EQ(info.block_threads(), block);
  }
}

TEST(Trace, CbiTraceReplaysWithTheDirectMissRatioCurve) {
  std::mt19937_64 rng(32);
  for (int trial = 0; trial < 20; ++trial) {
    sim::SimConfig c;
    c.workload = random_workload(rng);
    c.order = test::random_order(rng, c.workload.width);
    sim::CacheConfig l;
    l.line_bytes = int64_t{c.workload.elem_bytes} << (rng() % 4);
    l.capacity_lines = 8;
    l.ways = 0;
    c.levels = {l};
    const TempFile f(trace_of(c.workload, c.order, 64));
    sim::SimConfig t = c;
    t.workload = traced(f);
    t.order = remap::Order{};
    const sim::MissRatioCurve a = sim::miss_ratio_curve(c), b = sim::miss_ratio_curve(t);
    EXPECT_EQ(a.accesses, b.accesses);
    EXPECT_EQ(a.cold_misses, b.cold_misses);
    EXPECT_EQ(a.distance_counts, b.distance_counts) << c.workload.describe();
  }
}

TEST(Trace, CbiTraceReplaysWithTheDirectCountsInTheGpuModel) {
  std::mt19937_64 rng(33);
  for (int trial = 0; trial < 24; ++trial) {
    sim::GpuConfig g;
    g.device = sim::find_device("h100");
    // The trace's replay issues its stores between the loads, as a workload of one's own does, so
    // its timing differs a little; the L2 request coalescer's merges depend on timing.
    g.device.l2_coalesce_cycles = 0;
    g.workload = random_workload(rng);
    g.workload.width = 8 + static_cast<int64_t>(rng() % 100);
    g.workload.height = 8 + static_cast<int64_t>(rng() % 50);
    g.order = test::random_order(rng, g.workload.width);
    const int64_t blocks[] = {32, 64, 96, 128, 256, 100};
    g.block_threads = blocks[rng() % 6];
    g.stores = g.workload.writes; // a trace holds the output store when written with writes
    const TempFile f(trace_of(g.workload, g.order, g.block_threads));
    sim::GpuConfig t = g;
    t.workload = traced(f);
    t.order = remap::Order{};
    const sim::GpuResult a = sim::simulate_gpu(g), b = sim::simulate_gpu(t);
    const std::string what = g.workload.describe() + " " + remap::to_string(g.order) + " block " +
                             std::to_string(g.block_threads) + (g.stores ? " stores" : "");
    const auto na = a.metrics.named(), nb = b.metrics.named();
    for (std::size_t i = 0; i < na.size(); ++i) {
      // The sectors a line request carries depend on which of them another warp's miss has on
      // its way already (a pending hit), which the timing decides: the line requests may group
      // the same sectors a little differently.
      if (na[i].first == "lts__t_requests_srcunit_tex_op_read.sum")
        EXPECT_NEAR(na[i].second, nb[i].second, 2 + 0.05 * na[i].second) << what;
      else
        EXPECT_EQ(na[i].second, nb[i].second) << what << " " << na[i].first;
    }
    EXPECT_EQ(a.metrics.l2_write_sectors, b.metrics.l2_write_sectors) << what;
    if (HasFailure())
      return;
  }
}

// tests/data/accel-sim/kernel-1.traceg: a kernel trace written by hand as Accel-Sim's tracer
// (version 4) and its post-processing write it: a grid of 2 blocks of 48 threads (2 warps, the
// second of 16 lanes).
std::string accel_sim_text() {
  std::ifstream f(CBI_SOURCE_DIR "/tests/data/accel-sim/kernel-1.traceg");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(Trace, ReadsAnAccelSimKernelTraceWrittenByHand) {
  const TempFile f(accel_sim_text());
  const sim::Workload w = traced(f);
  const sim::TraceInfo &i = *sim::trace_info(*w.user);
  EXPECT_EQ(i.format, "accel-sim 4");
  EXPECT_EQ(i.kernel, "_Z6kernelPfS_i");
  EXPECT_EQ(i.block_threads(), 48);
  EXPECT_EQ(i.blocks, 2);
  EXPECT_EQ(i.warps, 3);
  EXPECT_EQ(i.instructions, 11);
  EXPECT_EQ(i.global_loads, 4); // 3 LDG.E, 1 LDG.E.64
  EXPECT_EQ(i.global_stores, 1);
  EXPECT_EQ(i.skipped, 3); // IMAD twice, EXIT
  EXPECT_EQ(i.shared, 1);
  EXPECT_EQ(i.atomic, 1);
  EXPECT_EQ(i.local, 1);
  EXPECT_EQ(i.lane_accesses, 32 + 4 + 2 + 16 + 32);
  EXPECT_EQ(i.widest_bytes, 8); // LDG.E.64: the bound on lines an access touches (cbi mrc)
  EXPECT_EQ(w.user->widest_access_bytes(), 8);
  EXPECT_EQ(i.program, 3); // warp 0 of block 0: LDG, LDG.64, STG
  EXPECT_EQ(w.tasks(), 96);
  // Replayed through a large fully associative cache of 128-byte lines: the lines touched.
  sim::SimConfig c;
  c.workload = w;
  sim::CacheConfig l;
  l.line_bytes = 128;
  l.capacity_lines = 1024;
  l.ways = 0;
  c.levels = {l};
  const sim::SimResult r = sim::simulate(c);
  EXPECT_EQ(r.levels[0].loads, 32 + 4 + 16 + 32);
  EXPECT_EQ(r.levels[0].stores, 2);
  // Lines: 0x...0000 (block 0 warp 0 and block 1), 0x...0080 (warp 1), 0x...1000 (the four
  // 8-byte lanes at 0x1000, 0x1008, 0x1010 and 0x1000 again), 0x...2000, 0x...2080.
  EXPECT_EQ(r.levels[0].misses, 5);
  // The GPU model replays it too: 2 + 1 + 1 load requests.
  sim::GpuConfig g;
  g.workload = w;
  g.device = sim::find_device("h100");
  g.block_threads = 48;
  const sim::GpuResult gr = sim::simulate_gpu(g);
  EXPECT_EQ(gr.metrics.l1_requests, 4);
  // 128 B; three 8-byte lanes in one sector; 64 B; 128 B.
  EXPECT_EQ(gr.metrics.l1_sectors, 4 + 1 + 2 + 4);
  EXPECT_EQ(gr.metrics.l2_write_sectors, 2);
}

std::string error_of(const std::string &text) {
  const TempFile f(text);
  try {
    sim::open_trace(f.path);
  } catch (const UsageError &e) {
    EXPECT_EQ(e.option(), "--trace");
    const std::string m = e.what();
    EXPECT_EQ(m.find('\n'), std::string::npos) << m; // one line
    EXPECT_EQ(m.rfind(f.path + ":", 0), 0u) << m;    // the file first, then the line
    return m.substr(f.path.size());
  }
  ADD_FAILURE() << "accepted a bad trace";
  return "";
}

TEST(Trace, BadTracesAreOneLineWithFileLineAndWhatWasExpected) {
  sim::Workload w;
  w.width = w.height = 8;
  w.stencil_w = w.stencil_h = 3;
  const std::string good = trace_of(w, remap::Order{}, 32);
  // Truncated anywhere: cut mid-line, at a line's end, before the end line.
  for (std::size_t cut :
       {good.size() / 3, good.size() / 2, good.size() - 2, good.rfind("\nend") + 1}) {
    const std::string m = error_of(good.substr(0, cut));
    EXPECT_NE(m.find(": expected"), std::string::npos) << m;
  }
  EXPECT_NE(error_of(good.substr(0, good.rfind("\nend") + 1)).find("truncated"), std::string::npos);
  // A line lost in the middle is caught by the end line's counts.
  const std::size_t mid = good.find("\n0 L", good.size() / 2);
  const std::string lost = good.substr(0, mid) + good.substr(good.find('\n', mid + 1));
  EXPECT_NE(error_of(lost).find("end"), std::string::npos);
  // Malformed: a bad run, a bad op, a bad width, a lane count over the warp.
  std::string bad = good;
  bad.replace(bad.find("@") + 1, 1, "zz");
  EXPECT_NE(error_of(bad).find("hex base"), std::string::npos) << error_of(bad);
  bad = good;
  bad.replace(bad.find(" L "), 3, " X ");
  EXPECT_NE(error_of(bad).find("L or S"), std::string::npos);
  bad = good;
  bad.replace(bad.find(" L 4 "), 5, " L 0 ");
  EXPECT_NE(error_of(bad).find("BYTES"), std::string::npos);
  bad = good;
  bad.insert(bad.find(" L 4 ") + 5, "40@- ");
  EXPECT_NE(error_of(bad).find("lanes"), std::string::npos);
  EXPECT_EQ(error_of(good.substr(0, good.find('\n') + 1) + "grid 0,1,1\n").substr(0, 3), ":2:");
  // An extent over the limit is named as one, with what was found (it said "positive extents").
  EXPECT_EQ(error_of(good.substr(0, good.find('\n') + 1) + "grid 99999999999,1,1\n"),
            ":2: expected grid X,Y,Z with extents from 1 to 2^31, found '99999999999,1,1'");
  std::string big_block = accel_sim_text();
  big_block.replace(big_block.find("(48,1,1)"), 8, "(4294967296,1,1)");
  EXPECT_NE(error_of(big_block).find("expected -block dim = (x,y,z) with extents from 1 to 2^31, "
                                     "found '(4294967296,1,1)'"),
            std::string::npos)
      << error_of(big_block);
  // Addresses past 2^64 (a run whose lanes wrap, an all-ones base that reads as an inactive lane,
  // a negative stride below 0) are refused on their own line, not replayed wrapped.
  const std::size_t first_run = good.find(" L 4 ") + 5;
  const std::string at_run =
      ":" + std::to_string(std::count(good.begin(), good.begin() + first_run, '\n') + 1) +
      ": expected lane addresses";
  for (const char *run :
       {"32@ffffffffffffffff+4", "32@fffffffffffffff0+4", "32@0-4", "32@0+4611686018427387904"}) {
    bad = good;
    bad.replace(first_run, good.find('\n', first_run) - first_run, run);
    EXPECT_EQ(error_of(bad).substr(0, at_run.size()), at_run) << run << ": " << error_of(bad);
  }
  // Lanes over 2^62 bytes apart: the whole file's span, with its ends (the line is the last one).
  bad = good;
  bad.replace(first_run, good.find('\n', first_run) - first_run, "32@7fffffffffffff00+4");
  EXPECT_NE(error_of(bad).find("expected addresses within 2^62 bytes of each other; found 0x0 to "
                               "0x7fffffffffffff7f"),
            std::string::npos)
      << error_of(bad);
  std::string far = accel_sim_text();
  far.replace(far.find("8 8 -16"), 7, "8 8 -9999999999999999");
  EXPECT_NE(error_of(far).find(":25: expected lane addresses"), std::string::npos) << error_of(far);
  // Foreign: not a trace, another cbi-trace version, binary data, empty.
  EXPECT_NE(error_of("hello world\n").find("neither"), std::string::npos);
  EXPECT_NE(error_of("cbi-trace 2\n").find("cbi-trace 1"), std::string::npos);
  EXPECT_NE(error_of(std::string("\x89PNG\r\n\x1a\n\0\0", 10)).find("neither"), std::string::npos);
  EXPECT_EQ(error_of("").substr(0, 3), ":1:") << error_of(""); // no line 0
  EXPECT_NE(error_of("").find("this file is empty"), std::string::npos);
  EXPECT_NE(error_of("\n  \n").find("this file is empty"), std::string::npos);
  // Accel-Sim: truncated inside a warp, an unread version, a bad address mode, a foreign line.
  const std::string a = accel_sim_text();
  EXPECT_NE(error_of(a.substr(0, a.find("0050 ffffffff"))).find("truncated"), std::string::npos);
  std::string v = a;
  v.replace(v.find("version = 4"), 11, "version = 9");
  EXPECT_NE(error_of(v).find("3, 4 or 5"), std::string::npos);
  v = a;
  v.replace(v.find("4 1 0x7f0200000000 4"), 20, "4 7 0x7f0200000000 4");
  EXPECT_NE(error_of(v).find("address mode"), std::string::npos);
  v = a;
  v.replace(v.find("warp = 1"), 8, "wrap = 1");
  EXPECT_NE(error_of(v).find("warp = W"), std::string::npos);
  // Missing.
  try {
    sim::open_trace("/nonexistent/kernel-1.traceg");
    ADD_FAILURE();
  } catch (const UsageError &e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/kernel-1.traceg"), std::string::npos);
  }
}

} // namespace
