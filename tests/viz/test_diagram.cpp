// Diagrams checked against the simulator: every preset renders headless with its legend, axes and
// stats; the miss-coloured cells of the image number exactly the misses that sim::simulate counts
// (thread granularity, no binning); binning keeps every miss; the stats strip matches a reviewed
// golden file; bad options exit 2 and leave no file.
#include "cbi/config/presets.hpp"
#include "cli_run.hpp"
#include "diagram_options.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <unistd.h>

namespace cbi::viz {
namespace {

using viz_app::build_panels;
using viz_app::parse_diagram_args;

using test::cbi_run;
using test::slurp;

int64_t count_pixels(const Canvas &c, const Rect &r, Color color) {
  int64_t n = 0;
  for (int y = r.y; y < r.bottom(); ++y)
    for (int x = r.x; x < r.right(); ++x)
      n += c.pixel(x, y) == color;
  return n;
}

bool has_ink(const Canvas &c, const Rect &r) {
  for (int y = r.y; y < r.bottom(); ++y)
    for (int x = r.x; x < r.right(); ++x)
      if (c.pixel(x, y) != kWhite)
        return true;
  return false;
}

std::vector<std::string> preset_args(const std::string &name, std::vector<std::string> extra = {}) {
  std::vector<std::string> a{"cbi diagram", "--preset", name};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

class PresetTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PresetTest, RendersLabelledAndCountsEveryMiss) {
  const viz_app::DiagramRequest req =
      parse_diagram_args(preset_args(GetParam(), {"--cell-px", "3"}));
  ASSERT_EQ(req.panels.size(), 1u);
  const sim::SimConfig &c = req.panels[0].sim;
  EXPECT_EQ(c.granularity, sim::Granularity::thread);
  const std::vector<Grid> grids = build_panels(req, false);
  const Grid &g = grids[0];
  EXPECT_EQ(g.bins.time_bin, 1);
  EXPECT_EQ(g.bins.line_bin, 1);
  EXPECT_EQ(g.cols, 256); // 16x16 tasks, one column each
  DiagramLayout layout;
  const Canvas img = render_diagram(grids, req.style, &layout);
  const Rect grid = layout.grids.at(0);
  EXPECT_EQ(grid.w, g.cols * 3);
  EXPECT_EQ(grid.h, g.rows * 3);
  EXPECT_LE(grid.right(), img.width());
  EXPECT_LE(grid.bottom(), img.height());
  // Legend, title, stats and both axes are drawn (ink beside and below the grid).
  EXPECT_TRUE(has_ink(img, layout.legend));
  EXPECT_TRUE(has_ink(img, layout.title));
  EXPECT_TRUE(has_ink(img, layout.stats.at(0)));
  EXPECT_TRUE(has_ink(img, {layout.axes[0].x, grid.y, grid.x - 1 - layout.axes[0].x, grid.h}));
  EXPECT_TRUE(has_ink(img, {grid.x, grid.bottom() + 1, grid.w, 30}));
  EXPECT_GT(layout.legend.y, grid.bottom());

  // The simulator, run on its own, agrees with the picture cell for cell.
  const sim::SimResult truth = sim::simulate(c);
  const Palette pal = Palette::standard(1);
  const int64_t cell_px = 9;
  EXPECT_EQ(count_pixels(img, grid, pal.of(g.miss_state())), truth.levels[0].misses * cell_px);
  EXPECT_EQ(count_pixels(img, grid, pal.hit), truth.levels[0].hits * cell_px);
  EXPECT_EQ(g.count(g.miss_state()), truth.levels[0].misses);
  // The legend carries the miss swatch too, outside the grid.
  EXPECT_GT(count_pixels(img, layout.legend, pal.of(g.miss_state())), 0);
}

INSTANTIATE_TEST_SUITE_P(Presets, PresetTest,
                         ::testing::Values("fig3.1", "fig3.2a", "fig3.2b", "fig3.3", "fig4.4",
                                           "fig4.6", "tiling4"),
                         [](const auto &info) {
                           std::string n = info.param;
                           for (char &ch : n)
                             if (ch == '.')
                               ch = '_';
                           return n;
                         });

// The preset table holds Tables 3.1/3.2, the kernel's variant of 3.1 and the figures issue 3
// names; the suite above renders every figure.
TEST(Diagram, PresetsAreTheTablesAndTheIssuesFigures) {
  using sim::find_preset;
  std::vector<std::string> names;
  for (const sim::Preset &p : sim::presets())
    names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{"table3.1", "table3.1-clamp-exact", "table3.2",
                                             "fig3.1", "fig3.2a", "fig3.2b", "fig3.3", "fig4.4",
                                             "fig4.6", "tiling4"}));
  EXPECT_EQ(remap::to_string(find_preset("fig4.4").orders.back()), "column:4");
  // The caption titles a preset only as the thesis draws it.
  EXPECT_EQ(parse_diagram_args(preset_args("fig4.4")).style.title, find_preset("fig4.4").caption);
  EXPECT_EQ(parse_diagram_args(preset_args("fig4.4", {"--lines", "48"})).style.title, "");
  EXPECT_EQ(parse_diagram_args(preset_args("fig4.4", {"--order", "linear"})).style.title, "");
  EXPECT_EQ(parse_diagram_args(preset_args("fig4.4", {"--cache-bytes", "1KiB"})).style.title, "");
  EXPECT_EQ(parse_diagram_args(preset_args("table3.1")).style.title,
            find_preset("table3.1").caption);
  EXPECT_THROW(find_preset("fig9"), UsageError);
}

// Golden: the stats strip of every preset and each of its orders, reviewed
// (tests/viz/golden/stats.txt).
TEST(Diagram, StatsStripMatchesGolden) {
  std::string text;
  for (const sim::Preset &p : sim::presets()) {
    const auto grids = build_panels(parse_diagram_args(preset_args(p.name)), false);
    for (const Grid &g : grids) {
      text += p.name + " " + remap::to_string(g.sim.order) + "\n";
      for (const std::string &line : stats_lines(g))
        text += "  " + line + "\n";
    }
  }
  // Every access (what ncu counts): the same flags, another quantity with another name.
  const auto exact =
      build_panels(parse_diagram_args(preset_args("fig3.1", {"--granularity", "exact"})), false);
  text += "fig3.1 --granularity exact\n";
  for (const std::string &line : stats_lines(exact[0]))
    text += "  " + line + "\n";
  EXPECT_EQ(text, slurp(std::string(CBI_SOURCE_DIR) + "/tests/viz/golden/stats.txt"));
}

// One name, one configuration: the diagram's data path, `cbi simulate --preset` and (for the
// presets that sweep points express) `cbi sweep --grid` count the same misses for every order of
// every preset, and the diagram's configuration is the table's row.
TEST(Diagram, PresetCountsAgreeAcrossCommands) {
  auto csv_column = [](const std::string &csv, const std::string &name, int row) {
    std::istringstream in(csv);
    std::string header, line;
    std::getline(in, header);
    for (int r = 0; r <= row; ++r)
      std::getline(in, line);
    // Split on commas outside quotes.
    auto split = [](const std::string &s) {
      std::vector<std::string> out(1);
      bool quoted = false;
      for (char ch : s) {
        if (ch == '"')
          quoted = !quoted;
        else if (ch == ',' && !quoted)
          out.emplace_back();
        else
          out.back() += ch;
      }
      return out;
    };
    const std::vector<std::string> h = split(header), v = split(line);
    for (std::size_t i = 0; i < h.size() && i < v.size(); ++i)
      if (h[i] == name)
        return v[i];
    return std::string("<no column " + name + ">");
  };
  for (const sim::Preset &p : sim::presets()) {
    SCOPED_TRACE(p.name);
    const viz_app::DiagramRequest req = parse_diagram_args(preset_args(p.name));
    ASSERT_EQ(req.panels.size(), p.orders.size());
    const auto grids = build_panels(req, false);
    for (std::size_t k = 0; k < p.orders.size(); ++k) {
      const sim::SimConfig &c = req.panels[k].sim;
      const std::string order = remap::to_string(p.orders[k]);
      SCOPED_TRACE(order);
      EXPECT_EQ(c.workload.describe(), p.config.workload.describe());
      EXPECT_EQ(c.granularity, p.config.granularity);
      ASSERT_EQ(c.levels.size(), p.config.levels.size());
      EXPECT_EQ(config::level_spec(c.levels[0]), config::level_spec(p.config.levels[0]));
      EXPECT_EQ(remap::to_string(c.order), order);
      const int64_t misses = grids[k].result.levels[0].misses;
      const test::CliRun r =
          cbi_run("simulate --preset " + p.name + " --order " + order + " --format csv");
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(csv_column(r.out, "misses", 0), std::to_string(misses));
      EXPECT_EQ(csv_column(r.out, "granularity", 0),
                p.config.granularity == sim::Granularity::thread ? "thread" : "exact");
      // A workload without edges (matmul) has no boundary: an empty cell.
      EXPECT_EQ(csv_column(r.out, "boundary", 0),
                !sim::workload_traits(p.config.workload.kind).has_boundary ? ""
                : p.config.workload.boundary == sim::Boundary::none        ? "none"
                                                                           : "clamp");
    }
    const test::CliRun s = cbi_run("sweep --grid " + p.name + " --backend sim --output -");
    const bool sweepable = p.config.granularity == sim::Granularity::exact &&
                           (p.config.workload.kind != sim::kind_of<sim::StencilWorkload>() ||
                            p.config.workload.boundary == sim::Boundary::clamp);
    if (!sweepable) {
      // Sweep points cannot carry this configuration: refused, naming --grid, not run otherwise.
      EXPECT_EQ(s.exit_code, 2);
      EXPECT_NE(s.err.find("--grid"), std::string::npos) << s.err;
      EXPECT_EQ(s.out, "");
      continue;
    }
    ASSERT_EQ(s.exit_code, 0) << s.err;
    for (std::size_t k = 0; k < p.orders.size(); ++k)
      EXPECT_EQ(csv_column(s.out, "sim_l1_misses", static_cast<int>(k)),
                std::to_string(grids[k].result.levels[0].misses))
          << remap::to_string(p.orders[k]);
  }
}

TEST(Diagram, LevelsColourTheServingLevel) {
  const auto req = parse_diagram_args({"cbi diagram", "--size", "24", "--stencil", "5x5",
                                       "--granularity", "thread", "--level", "lines=12,line=16",
                                       "--level", "lines=64,line=32", "--bin", "1x1"});
  const auto grids = build_panels(req, false);
  const Grid &g = grids[0];
  ASSERT_EQ(g.levels(), 2);
  ASSERT_EQ(g.bins.time_bin, 1);
  const sim::SimResult truth = sim::simulate(req.panels[0].sim);
  EXPECT_EQ(g.l1_miss_cells(), truth.levels[0].misses);
  EXPECT_EQ(g.count(g.miss_state()), truth.levels[1].misses); // from memory
  EXPECT_EQ(g.count(cell::served + 1), truth.levels[1].hits); // served by L2
  EXPECT_GT(g.count(cell::in_lower), 0);
  DiagramLayout layout;
  const Canvas img = render_diagram(grids, {}, &layout);
  const Palette pal = Palette::standard(2);
  const int64_t area = int64_t{layout.cell_w} * layout.cell_h;
  EXPECT_EQ(count_pixels(img, layout.grids[0], pal.of(cell::served + 1)),
            truth.levels[1].hits * area);
}

// Issue 21 §4: one default granularity for simulate and diagram, per access as ncu counts; the
// thesis presets keep thread granularity (PresetTest checks those).
TEST(Diagram, DefaultGranularityIsPerAccessAsInSimulate) {
  const auto req = parse_diagram_args({"cbi diagram", "--size", "8", "--stencil", "3x3"});
  EXPECT_EQ(req.panels[0].sim.granularity, sim::Granularity::exact);
  const auto thread = parse_diagram_args(
      {"cbi diagram", "--size", "8", "--stencil", "3x3", "--granularity", "thread"});
  EXPECT_EQ(thread.panels[0].sim.granularity, sim::Granularity::thread);
}

TEST(Diagram, ExactGranularityHasOneColumnPerAccess) {
  const auto req = parse_diagram_args({"cbi diagram", "--size", "8", "--stencil", "3x3",
                                       "--granularity", "exact", "--lines", "6", "--bin", "1x1"});
  const auto grids = build_panels(req, false);
  const sim::SimResult truth = sim::simulate(req.panels[0].sim);
  EXPECT_EQ(grids[0].cols, truth.accesses);
  EXPECT_EQ(grids[0].count(grids[0].miss_state()), truth.levels[0].misses);
}

TEST(Diagram, ExactColumnsMapBackToTheirThreads) {
  // 3x3 stencil: 9 loads per thread, so access columns 0..8 are thread 0, 9..17 thread 1, ...
  GridSpec spec =
      parse_diagram_args({"cbi diagram", "--size", "8", "--stencil", "3x3", "--granularity",
                          "exact", "--order", "column:4", "--bin", "1x1"})
          .panels[0];
  spec.record_thread_steps = true;
  const Grid g = build_grid(spec);
  ASSERT_EQ(g.cols, 64 * 9);
  EXPECT_EQ(g.thread_at(0), 0);
  EXPECT_EQ(g.thread_at(8), 0);
  EXPECT_EQ(g.thread_at(9), 1);
  EXPECT_EQ(g.thread_at(g.cols - 1), 63);
  // Thread granularity needs no table: a column is a thread.
  spec.sim.granularity = sim::Granularity::thread;
  const Grid t = build_grid(spec);
  EXPECT_TRUE(t.thread_steps.empty());
  EXPECT_EQ(t.thread_at(37), 37);
}

// Issue 12: a binned cell is coloured by the share of its accesses that missed, so the shares,
// weighted by the accesses, sum to the misses the simulator counts, in every granularity, with
// bins that split a thread's accesses across columns, and for every level.
TEST(Diagram, BinnedMissSharesWeightedByAccessesSumToTheMisses) {
  const std::vector<std::vector<std::string>> cases = {
      {"--size", "40x24", "--stencil", "5x5", "--granularity", "thread", "--lines", "20", "--order",
       "column:8", "--bin", "7x4"},
      {"--size", "40x24", "--stencil", "5x5", "--lines", "20", "--order", "linear", "--bin",
       "12x1"}, // the default granularity: one column per access, a thread's 25 split
      {"--size", "24", "--stencil", "3x3", "--granularity", "exact", "--lines", "12", "--bin",
       "5x2", "--order", "tile:4"}, // 5 steps a column: runs of a thread split across columns
      {"--size", "24", "--stencil", "5x5", "--granularity", "thread", "--level", "lines=12,line=16",
       "--level", "lines=64,line=16", "--bin", "6x2", "--order", "zigzag:4"},
      {"--workload", "matmul", "--size", "16", "--depth", "16", "--granularity", "thread",
       "--lines", "24", "--bin", "4x8"},
  };
  for (const auto &extra : cases) {
    std::vector<std::string> argv{"cbi diagram"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    const auto req = parse_diagram_args(argv);
    const Grid g = build_panels(req, false)[0];
    ASSERT_TRUE(g.binned());
    const sim::SimResult truth = sim::simulate(req.panels[0].sim);
    int64_t accesses = 0;
    std::vector<double> weighted(static_cast<std::size_t>(g.levels()), 0.0);
    for (int64_t col = 0; col < g.cols; ++col)
      for (int64_t row = 0; row < g.rows; ++row) {
        const int64_t n = g.accesses_at(col, row);
        accesses += n;
        for (int k = 0; k < g.levels() && n > 0; ++k) {
          const double share = static_cast<double>(g.missed_at(col, row, k)) / n;
          ASSERT_LE(share, 1.0);
          weighted[static_cast<std::size_t>(k)] += share * static_cast<double>(n);
        }
      }
    EXPECT_EQ(accesses, truth.levels[0].accesses) << argv[2];
    // Equal line sizes: every L1 miss is one access of the next level, so each level's misses
    // are the accesses that missed it.
    for (int k = 0; k < g.levels(); ++k)
      EXPECT_NEAR(weighted[static_cast<std::size_t>(k)],
                  static_cast<double>(truth.levels[static_cast<std::size_t>(k)].misses), 1e-6)
          << argv[2] << " level " << k + 1;
  }
}

// The picture of a binned grid is its shares: every cell's pixels have the colour of its share
// on the shared scale, darker for more misses, and the colour bar is drawn.
TEST(Diagram, BinnedCellsAreDrawnByTheirShare) {
  const auto req = parse_diagram_args(
      {"cbi diagram", "--size", "40x24", "--stencil", "5x5", "--granularity", "thread", "--lines",
       "20", "--order", "linear", "--order", "column:8", "--bin", "4x2", "--cell-px", "2"});
  const auto grids = build_panels(req, false);
  DiagramLayout layout;
  const Canvas img = render_diagram(grids, req.style, &layout);
  const BinScale &s = layout.bins;
  EXPECT_GT(s.top, 0.0);
  EXPECT_LE(s.top, 1.0);
  int64_t accessed = 0;
  for (std::size_t p = 0; p < grids.size(); ++p) {
    const Grid &g = grids[p];
    for (int64_t col = 0; col < g.cols; ++col)
      for (int64_t row = 0; row < g.rows; ++row) {
        const Rect &a = layout.grids[p];
        const Color c = img.pixel(a.x + static_cast<int>(col) * 2, a.y + static_cast<int>(row) * 2);
        const int64_t n = g.accesses_at(col, row);
        if (n == 0) {
          ASSERT_TRUE(c == kWhite || c == s.in_l1()) << col << "," << row;
          continue;
        }
        ++accessed;
        const double share = static_cast<double>(g.missed_at(col, row, 0)) / n;
        ASSERT_TRUE(share <= s.top || s.saturates);
        ASSERT_EQ(c, sequential_color(std::min(1.0, share / s.top))) << col << "," << row;
      }
  }
  EXPECT_GT(accessed, 0);
  EXPECT_TRUE(has_ink(img, layout.colorbar));
  EXPECT_GT(layout.colorbar.y, layout.grids[0].bottom());
}

// --miss-level picks the level whose misses colour the bins; a level that is not there is exit 2.
TEST(Diagram, MissLevelPicksTheLevel) {
  const auto req = parse_diagram_args(
      {"cbi diagram", "--size", "24", "--stencil", "5x5", "--granularity", "thread", "--level",
       "lines=12,line=16", "--level", "lines=32,line=16", "--bin", "4x2", "--miss-level", "2"});
  EXPECT_EQ(req.style.miss_level, 1);
  const auto grids = build_panels(req, false);
  EXPECT_EQ(bin_scale(grids, 1, false).title(2), "share of the bin's accesses served from memory");
  EXPECT_EQ(bin_scale(grids, 0, false).title(2), "share of the bin's accesses that missed L1");
  EXPECT_THROW(bin_scale(grids, 2, false), UsageError);
  EXPECT_THROW(parse_diagram_args({"cbi diagram", "--lines", "8", "--miss-level", "2"}),
               UsageError);
  // The level's name, as the stats lines print it, in any case.
  const auto named = parse_diagram_args(
      {"cbi diagram", "--size", "24", "--stencil", "5x5", "--granularity", "thread", "--level",
       "lines=12,line=16", "--level", "lines=32,line=16", "--bin", "4x2", "--miss-level", "l2"});
  EXPECT_EQ(named.style.miss_level, 1);
}

TEST(Diagram, LargeTracesAreBinnedIntoABoundedImage) {
  // 1024^2 threads, three panels: auto bins keep each panel within the 16384 px width.
  const auto req = parse_diagram_args(
      {"cbi diagram", "--size", "1024", "--stencil", "3x3", "--line-bytes", "128", "--lines", "64",
       "--max-px", "4096", "--order", "linear", "--order", "column:32", "--order", "tile:32"});
  ASSERT_EQ(req.panels.size(), 3u);
  const Binning b = req.panels[0].bins;
  EXPECT_GT(b.time_bin, 1);
  const int64_t cols = (int64_t{1024} * 1024 + b.time_bin - 1) / b.time_bin;
  EXPECT_LE(cols * 3, 16384);
  EXPECT_EQ(fit_bins(int64_t{4096} * 4096, 4096 * 4096 / 4, 2048, 2048).time_bin, 8192);
  EXPECT_EQ(fit_bins(int64_t{4096} * 4096, 4096 * 4096 / 4, 2048, 2048).line_bin, 2048);
}

TEST(Diagram, SidePanelsShareOneScaleAndGreyscaleHasNoHue) {
  const auto req = parse_diagram_args(
      preset_args("fig3.1", {"--order", "linear", "--order", "column:4", "--order", "tile:4",
                             "--greyscale", "--layout", "columns"}));
  const auto grids = build_panels(req, false);
  DiagramLayout layout;
  const Canvas img = render_diagram(grids, req.style, &layout);
  ASSERT_EQ(layout.grids.size(), 3u);
  for (const Rect &r : layout.grids) {
    EXPECT_EQ(r.w, layout.grids[0].w);
    EXPECT_EQ(r.h, layout.grids[0].h);
    EXPECT_EQ(r.y, layout.grids[0].y);
  }
  EXPECT_LT(layout.grids[0].right(), layout.grids[1].x);
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) {
      const Color p = img.pixel(x, y);
      ASSERT_TRUE(p.r == p.g && p.g == p.b) << x << "," << y;
    }
  // Each panel has its own misses (column:4 misses less than linear, Table 3.1).
  EXPECT_LT(grids[1].result.levels[0].misses, grids[0].result.levels[0].misses);
}

// Issue 12, one meaning per name: a thread-granularity hit rate (each thread's distinct lines
// once) and a per-access hit rate (ncu's) never share a label; a preset prints its configuration
// in full in the subtitle.
TEST(Diagram, HitRatesSayWhatTheyCount) {
  const auto thread = build_panels(parse_diagram_args(preset_args("fig3.1")), false);
  const auto exact =
      build_panels(parse_diagram_args(preset_args("fig3.1", {"--granularity", "exact"})), false);
  EXPECT_EQ(hit_rate_label(thread[0]), "hit rate per thread-line");
  EXPECT_EQ(hit_rate_label(exact[0]), "hit rate per access");
  const std::string t = stats_lines(thread[0])[0], e = stats_lines(exact[0])[0];
  EXPECT_NE(t.find("hit rate per thread-line"), std::string::npos) << t;
  EXPECT_EQ(t.find("per access"), std::string::npos) << t;
  EXPECT_NE(e.find("hit rate per access"), std::string::npos) << e;
  EXPECT_EQ(e.find("thread-line"), std::string::npos) << e;
  // The same flags count different things: 4,480 thread-lines against 12,544 loads.
  EXPECT_NE(thread[0].result.levels[0].accesses, exact[0].result.levels[0].accesses);
  EXPECT_EQ(exact[0].result.levels[0].accesses, 16 * 16 * 49);

  const auto req = parse_diagram_args(preset_args("fig3.1"));
  DiagramLayout layout;
  render_diagram(thread, req.style, &layout);
  for (const char *part : {"preset fig3.1: ", "stencil 7x7 on 16x16", "no boundary", "L1 24 lines",
                           "lru", "16 B lines", "thread granularity", "not per access as ncu"})
    EXPECT_NE(layout.subtitle.find(part), std::string::npos) << part << " in " << layout.subtitle;
  EXPECT_EQ(layout.subtitle.rfind("preset fig3.1: ", 0), 0u);
}

// --layout places the panels: side by side, stacked, or two to a row; auto stacks the thesis'
// wide, short 16x16 diagrams and puts two square ones side by side.
TEST(Diagram, LayoutsPlacePanels) {
  const std::vector<std::string> three = {"--order",  "linear",  "--order",
                                          "column:4", "--order", "tile:4"};
  auto layout_of = [&](const std::string &name) {
    std::vector<std::string> extra = three;
    extra.insert(extra.end(), {"--layout", name});
    const auto req = parse_diagram_args(preset_args("fig3.1", extra));
    DiagramLayout l;
    render_diagram(build_panels(req, false), req.style, &l);
    return l;
  };
  const DiagramLayout cols = layout_of("columns"), rows = layout_of("rows"),
                      grid = layout_of("grid"), aut = layout_of("auto");
  EXPECT_EQ(cols.grids[1].y, cols.grids[0].y);
  EXPECT_GT(cols.grids[1].x, cols.grids[0].right());
  EXPECT_EQ(rows.grids[1].x, rows.grids[0].x);
  EXPECT_GT(rows.grids[1].y, rows.stats[0].bottom());
  EXPECT_GT(rows.grids[2].y, rows.grids[1].y);
  EXPECT_EQ(grid.grids[1].y, grid.grids[0].y);
  EXPECT_EQ(grid.grids[2].x, grid.grids[0].x);
  EXPECT_GT(grid.grids[2].y, grid.stats[0].bottom());
  EXPECT_EQ(aut.layout, PanelLayout::rows);
  // Auto keeps the thesis figures unbinned at paper width: one thread per column.
  EXPECT_LE(rows.grids[0].right(), kFigureWidthPx);
  EXPECT_EQ(resolve_layout(PanelLayout::automatic, 2, 100, 256, 3), PanelLayout::columns);
  EXPECT_EQ(resolve_layout(PanelLayout::automatic, 2, 256, 256, 3), PanelLayout::rows);
  EXPECT_EQ(resolve_layout(PanelLayout::automatic, 4, 4096, 4096, 3), PanelLayout::grid);
  EXPECT_THROW(parse_layout("diagonal"), UsageError);
}

// Readable at paper width: a large trace is binned so that every cell keeps --min-cell-px, the
// figure stays about kFigureWidthPx wide, and text grows with an image made larger on purpose.
TEST(Diagram, BinningKeepsTheMinimumCellSize) {
  for (const char *min_px : {"3", "6"}) {
    const auto req = parse_diagram_args(
        {"cbi diagram", "--size", "1024", "--stencil", "3x3", "--line-bytes", "128", "--lines",
         "64", "--order", "linear", "--order", "column:32", "--min-cell-px", min_px});
    const auto grids = build_panels(req, false);
    EXPECT_TRUE(grids[0].binned());
    DiagramLayout layout;
    const Canvas img = render_diagram(grids, req.style, &layout);
    EXPECT_GE(layout.cell_w, std::atoi(min_px)) << min_px;
    EXPECT_GE(layout.cell_h, std::atoi(min_px)) << min_px;
    EXPECT_LE(img.width(), kFigureWidthPx + 200) << min_px;
  }
  const auto small = parse_diagram_args(preset_args("fig3.1"));
  const auto big = parse_diagram_args(preset_args("fig3.1", {"--cell-px", "16"}));
  const auto grids = build_panels(small, false);
  DiagramLayout ls, lb;
  const Canvas cs = render_diagram(grids, small.style, &ls);
  const Canvas cb = render_diagram(grids, big.style, &lb);
  EXPECT_GT(cb.width(), 3 * cs.width());
  EXPECT_GT(lb.chart.tick_px, 2 * ls.chart.tick_px);
  EXPECT_GE(ls.chart.tick_px, 13); // 1.2x the chart default at paper width
}

TEST(Diagram, CsvHasOneRowPerCachedCell) {
  const auto grids = build_panels(parse_diagram_args(preset_args("fig4.4")), false);
  const std::string csv = grid_csv(grids);
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "panel,order,col,row,first_step,last_step,first_line,last_line,state,accesses,"
                  "l1_misses");
  int64_t rows = 0, misses = 0;
  while (std::getline(in, line)) {
    ++rows;
    misses += line.find(",miss,1,1") != std::string::npos;
  }
  EXPECT_EQ(misses, grids[0].result.levels[0].misses);
  EXPECT_EQ(rows, grids[0].cols * grids[0].rows - grids[0].count(cell::not_cached));
}

TEST(Diagram, LocatesElementsInTheirArrays) {
  sim::Workload w; // 16x16, 7x7, clamp
  EXPECT_EQ(locate(array_regions(w), 17).row, 1);
  EXPECT_EQ(locate(array_regions(w), 17).col, 1);
  w.boundary = sim::Boundary::none; // rows -3..18 of stride 16, element 0 is (-3, -3)
  const ElementPlace first = locate(array_regions(w), 0);
  EXPECT_EQ(first.row, -3);
  EXPECT_EQ(first.col, -3);
  const ElementPlace p = locate(array_regions(w), (2 + 3) * 16 + 12 + 3); // (row 2, col 12)
  EXPECT_EQ(p.row, 2);
  EXPECT_EQ(p.col, 12);
  // (row 2, col 15) is the same memory as (row 3, col -1); columns are read in [-3, 13).
  const ElementPlace q = locate(array_regions(w), (2 + 3) * 16 + 15 + 3);
  EXPECT_EQ(q.row, 3);
  EXPECT_EQ(q.col, -1);
  w.kind = sim::kind_of<sim::MatmulWorkload>(); // A 16x16 then B 16x16
  const ElementPlace b = locate(array_regions(w), 256 + 16 * 3 + 2);
  EXPECT_EQ(b.array, "B");
  EXPECT_EQ(b.row, 3);
  EXPECT_EQ(b.col, 2);
  // Each workload labels its own arrays (its arrays()): the tiled SGEMM reads matmul's A and B,
  // the 3-D stencil's planes stack below each other, and --writes adds the output after them.
  w.kind = sim::kind_of<sim::SgemmTiledWorkload>();
  EXPECT_EQ(locate(array_regions(w), 256 + 16 * 3 + 2).array, "B");
  sim::Workload v;
  v.kind = sim::kind_of<sim::Stencil3dWorkload>(); // 16x16x16
  v.writes = true;
  const std::vector<ArrayRegion> regions = array_regions(v);
  ASSERT_EQ(regions.size(), 2u);
  EXPECT_EQ(regions[0].rows, 16 * 16); // every plane's rows
  EXPECT_EQ(regions[1].name, "output");
  EXPECT_EQ(regions[1].rows, 16 * 16); // one row of 16 tasks a row of the folded task grid
  const ElementPlace out = locate(regions, 16 * 16 * 16 + 16 * 5 + 7);
  EXPECT_EQ(out.array, "output");
  EXPECT_EQ(out.row, 5);
  EXPECT_EQ(out.col, 7);
}

TEST(DiagramCli, WritesPngThroughCbi) {
  const std::string png = ::testing::TempDir() + "/cbi_fig3_1.png";
  const std::string csv = ::testing::TempDir() + "/cbi_fig3_1.csv";
  std::remove(png.c_str());
  const test::CliRun r = cbi_run("diagram --preset fig3.1 -o " + png + " --csv " + csv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("bin: 1 thread x 1 line per cell"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("misses 462"), std::string::npos) << r.out;
  const Canvas img = load_png(png);
  // Laid out for a paper column: about kFigureWidthPx wide, not a 6:1 strip.
  EXPECT_GT(img.width(), 700);
  EXPECT_LE(img.width(), 1400);
  EXPECT_GT(img.height(), 300);
  EXPECT_NE(slurp(csv).find(",miss,1,1\n"), std::string::npos);
}

TEST(DiagramCli, BadOptionsExit2WithOneLineAndNoFile) {
  const std::string png = ::testing::TempDir() + "/cbi_bad.png";
  for (const std::string &args :
       {std::string("--preset fig9"), std::string("--bin 3x3"), std::string("--order spiral"),
        std::string("--max-px 0"), std::string("--bin 1x1 --size 4096"),
        std::string("--granularity warp"), std::string("--cell-px 99"),
        std::string("--layout diagonal"), std::string("--min-cell-px 0"),
        std::string("--miss-level 2")}) {
    std::remove(png.c_str());
    const test::CliRun r = cbi_run("diagram " + args + " -o " + png);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("--" + args.substr(2, args.find(' ') - 2)), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("allowed"), std::string::npos) << r.err;
    EXPECT_NE(access(png.c_str(), F_OK), 0) << args;
  }
  const test::CliRun r = cbi_run("diagram -o " + ::testing::TempDir() + "/x.jpg");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--output"), std::string::npos);
}

// The memory check's estimate covers what the panels really allocate (cells, per-bin counts), and
// is not wildly above it: a binned two-level diagram and an unbinned one.
TEST(Diagram, MemoryEstimateCoversThePanels) {
  for (const std::vector<std::string> &argv :
       {std::vector<std::string>{"cbi diagram", "--size", "256", "--stencil", "5x5", "--level",
                                 "lines=8,line=32", "--level", "lines=64,line=64", "--order",
                                 "linear,column:8"},
        preset_args("table3.1")}) {
    const viz_app::DiagramRequest req = parse_diagram_args(argv);
    const auto grids = build_panels(req, false);
    double allocated = 0;
    for (const Grid &g : grids) {
      allocated += double(g.cells.size()) + 4.0 * double(g.accesses.size());
      for (const auto &m : g.missed)
        allocated += 4.0 * double(m.size());
    }
    const double estimate = viz_app::diagram_memory_bytes(req);
    EXPECT_GE(estimate, allocated);
    EXPECT_LT(estimate, 100.0 * allocated + 1e7); // the image and cache state on top, no more
  }
}

} // namespace
} // namespace cbi::viz
