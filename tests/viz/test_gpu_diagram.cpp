// cbi diagram --model gpu (issue 10 §3): one SM of the GPU model, drawn headless. The SMs' grids
// add up to the device's counts; binned cells keep every access and miss; warps and CTAs are
// marked; the PNG renders and bad options exit 2 naming the option.
#include "cli_run.hpp"
#include "diagram_options.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

namespace cbi::viz {
namespace {

using test::cbi_run;

// A matmul of 64 x 64 tasks at block 128: 32 CTAs, one per SM of the H100 row.
sim::GpuConfig small_matmul(const char *order) {
  sim::GpuConfig c;
  c.workload.kind = sim::kind_of<sim::MatmulWorkload>();
  c.workload.width = c.workload.height = c.workload.depth = 64;
  c.order = remap::parse_order(order);
  c.device = sim::find_device("h100");
  c.block_threads = 128;
  return c;
}

// Every load sector of the device is drawn on the grid of the SM that issued it: the SMs' L1 and
// L2 counts add up to the model's ncu-named totals, and the time steps to its requests.
TEST(GpuDiagram, TheSmsGridsAddUpToTheDevice) {
  const sim::GpuConfig c = small_matmul("column:32");
  const sim::GpuResult all = sim::simulate_gpu(c);
  ASSERT_EQ(all.ctas, 32);
  int64_t steps = 0, sectors = 0, hits = 0, misses = 0, dram = 0;
  for (int sm = 0; sm < 32; ++sm) {
    const Grid g = build_gpu_grid(c, sm);
    ASSERT_TRUE(g.gpu);
    EXPECT_EQ(g.gpu->ctas, 1) << sm;
    steps += g.steps;
    sectors += g.result.levels[0].accesses;
    hits += g.result.levels[0].hits;
    misses += g.result.levels[0].misses;
    dram += g.result.levels[1].misses;
    EXPECT_EQ(g.result.levels[0].misses, g.result.levels[1].accesses) << sm;
  }
  const sim::GpuMetrics &m = all.metrics;
  EXPECT_EQ(steps, m.l1_requests);
  EXPECT_EQ(sectors, m.l1_sectors);
  EXPECT_EQ(hits, m.l1_sector_hits);
  EXPECT_EQ(misses, m.l1_sector_misses);
  EXPECT_EQ(misses, m.l2_requested_sectors); // before the L2 request coalescer
  EXPECT_EQ(dram * 32, m.dram_read_bytes) << "32-byte sectors from DRAM";
}

// Binned cells count every sector access of the SM and each miss; unbinned, one column per warp
// instruction carries its CTA and warp, and the first instruction of each starts a mark.
TEST(GpuDiagram, BinsKeepEveryAccessAndMarksWarpsAndCtas) {
  const sim::GpuConfig c = small_matmul("linear");
  const GpuTrace t = trace_gpu(c, 0);
  const Grid exact = gpu_grid(t, {1, 1});
  EXPECT_EQ(exact.cols, t.view->requests);
  EXPECT_EQ(exact.gpu->column_cta.size(), static_cast<std::size_t>(exact.cols));
  // 128 threads: 4 warps, each issuing 2 x 64 loads, all of CTA 0 (SM 0 gets CTA 0 first).
  EXPECT_EQ(exact.cols, 4 * 128);
  EXPECT_EQ(exact.gpu->warps_per_cta, 4);
  int64_t warp_starts = 0, cta_starts = 0;
  for (uint8_t m : exact.marks) {
    warp_starts += (m & mark::warp) != 0;
    cta_starts += (m & mark::block) != 0;
  }
  EXPECT_EQ(warp_starts, 4);
  EXPECT_EQ(cta_starts, 1);
  EXPECT_TRUE(exact.marks[0] & mark::block);
  for (int64_t w : exact.gpu->column_warp)
    EXPECT_LT(w, 4);

  const Grid binned = gpu_grid(t, {16, 4});
  ASSERT_TRUE(binned.binned());
  EXPECT_TRUE(binned.gpu->column_cta.empty()) << "bands only where one column is one instruction";
  int64_t accesses = 0, l1_misses = 0, dram = 0;
  for (std::size_t i = 0; i < binned.accesses.size(); ++i) {
    accesses += binned.accesses[i];
    l1_misses += binned.missed[0][i];
    dram += binned.missed[1][i];
  }
  EXPECT_EQ(accesses, exact.result.levels[0].accesses);
  EXPECT_EQ(l1_misses, exact.result.levels[0].misses);
  EXPECT_EQ(dram, exact.result.levels[1].misses);
  // A wider cols pads blank columns (panels of several orders share one time axis).
  EXPECT_EQ(gpu_grid(t, {1, 1}, exact.cols + 10).cols, exact.cols + 10);
}

TEST(GpuDiagram, AnSmWithoutCtasNamesSm) {
  sim::GpuConfig c = small_matmul("linear");
  c.block_threads = 1024; // 4 CTAs
  try {
    trace_gpu(c, 10);
    FAIL() << "SM 10 ran nothing";
  } catch (const UsageError &e) {
    EXPECT_EQ(e.option(), "--sm");
    EXPECT_NE(std::string(e.what()).find("4 CTAs"), std::string::npos) << e.what();
  }
}

// The rendered diagram: the CTA band above the first column has the first CTA's colour, the
// legend has no residency (the model reports accesses), and the cells show the served levels.
TEST(GpuDiagram, RendersBandsAndNoResidency) {
  const viz_app::DiagramRequest req = viz_app::parse_diagram_args(
      {"cbi diagram", "--model", "gpu", "--workload", "matmul", "--size", "64", "--block", "128",
       "--order", "linear,column:32", "--bin", "1x1"});
  ASSERT_EQ(req.gpu.size(), 2u);
  EXPECT_TRUE(req.panels.empty());
  const std::vector<Grid> grids = viz_app::build_panels(req, false);
  ASSERT_EQ(grids.size(), 2u);
  EXPECT_EQ(grids[0].cols, grids[1].cols) << "one time axis";
  DiagramLayout layout;
  const Canvas img = render_diagram(grids, req.style, &layout);
  const Rect area = layout.grids.at(0);
  bool band = false;
  for (int y = area.y - 2; y > area.y - 60 && !band; --y)
    band = img.pixel(area.x + 1, y) == hex_color("#0072b2");
  EXPECT_TRUE(band) << "the CTA band over the first instruction";
  EXPECT_NE(layout.subtitle.find("warp instructions in issue order"), std::string::npos)
      << layout.subtitle;
  EXPECT_NE(layout.subtitle.find("bands: each instruction's CTA"), std::string::npos);
  // SM 0 issues first each cycle, so its misses go to DRAM (L2 serves the other SMs).
  int64_t hit_px = 0, dram_px = 0;
  for (int y = area.y; y < area.bottom(); ++y)
    for (int x = area.x; x < area.right(); ++x) {
      hit_px += img.pixel(x, y) == hex_color("#0072b2");
      dram_px += img.pixel(x, y) == hex_color("#d55e00");
    }
  EXPECT_GT(hit_px, 0);
  EXPECT_GT(dram_px, 0);
  const std::vector<std::string> stats = stats_lines(grids[1]);
  ASSERT_EQ(stats.size(), 4u);
  EXPECT_EQ(stats[0].rfind("SM 0: 512 warp instructions of 1 CTA (", 0), 0u) << stats[0];
}

TEST(GpuDiagramCli, WritesAPngAndRejectsBadOptions) {
  const std::string dir = ::testing::TempDir(), png = dir + "/cbi_gpu_diagram.png";
  std::remove(png.c_str());
  const test::CliRun ok = cbi_run("diagram --model gpu --workload matmul --size 64 --block 128 "
                                  "--order column:32 --sm 3 -o " +
                                  png);
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(access(png.c_str(), F_OK), 0);
  EXPECT_NE(ok.out.find("order column:32 (GPU model, SM 3)"), std::string::npos) << ok.out;
  EXPECT_NE(ok.out.find("L1 of SM 3: sectors"), std::string::npos) << ok.out;
  std::remove(png.c_str());
  for (const auto &[args, option] :
       std::vector<std::pair<std::string, std::string>>{{"--sm 132", "--sm"},
                                                        {"--sm -1", "--sm"},
                                                        {"--sm 40", "--sm"}, // no CTA there
                                                        {"--lines 8", "--lines"},
                                                        {"--device h1000", "--device"},
                                                        {"--model cycle", "--model"}}) {
    const test::CliRun r = cbi_run("diagram --model gpu --workload matmul --size 64 --block 128 " +
                                   args + " -o " + png);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
    EXPECT_EQ(r.err.rfind("cbi diagram: " + option + ": ", 0), 0u) << args << ": " << r.err;
    EXPECT_EQ(test::count_lines(r.err), 1) << r.err;
    EXPECT_NE(access(png.c_str(), F_OK), 0) << args;
  }
  EXPECT_EQ(cbi_run("diagram --sm 1 -o " + png).exit_code, 2) << "--sm needs --model gpu";
  EXPECT_EQ(cbi_run("view --model gpu --size 64").exit_code, 2);
}

} // namespace
} // namespace cbi::viz
