// Plots of tidy CSV tables: parsing, defaults, the heatmap's relative values and best cell, one
// point per (series, x) in line plots, and the `cbi plot` command's errors.
#include "cbi/error.hpp"
#include "cbi/viz/plot.hpp"
#include "cli_run.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>

namespace cbi::viz {
namespace {

// A miniature of cbi sweep's output: two block sizes, the naive order and two column widths, and a
// smaller size that the heatmap must ignore.
const char *kSweep = "point,size,block,order,gpu_time_ms,sim_l1_hit_pct\n"
                     "0,1024x1024,64,linear,10,50\n"
                     "1,1024x1024,64,column:8,5,80\n"
                     "2,1024x1024,64,column:16,8,70\n"
                     "3,1024x1024,128,linear,12,50\n"
                     "4,1024x1024,128,column:8,12,60\n"
                     "5,1024x1024,128,column:16,\"24\",90\n"
                     "6,256x256,64,column:8,0.1,99\n";

TEST(Csv, ParsesQuotesAndCrlf) {
  const CsvTable t = parse_csv("a,b\r\n\"x,1\",\"say \"\"hi\"\"\"\r\n2,\n");
  ASSERT_EQ(t.columns, (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[0][0], "x,1");
  EXPECT_EQ(t.rows[0][1], "say \"hi\"");
  EXPECT_EQ(t.rows[1][1], "");
  EXPECT_THROW(parse_csv("a,b\n1\n"), UsageError);
  EXPECT_THROW(parse_csv(""), UsageError);
}

TEST(Csv, LeadingNumbers) {
  double v = 0;
  EXPECT_TRUE(leading_number("4096x4096", v));
  EXPECT_EQ(v, 4096);
  EXPECT_TRUE(leading_number("column:32", v));
  EXPECT_EQ(v, 32);
  EXPECT_TRUE(leading_number("12.5", v));
  EXPECT_EQ(v, 12.5);
  EXPECT_FALSE(leading_number("", v));
  EXPECT_FALSE(leading_number("linear", v));
  EXPECT_FALSE(leading_number("nan", v));
}

TEST(Plot, DefaultsAndMissingColumns) {
  const CsvTable t = parse_csv(kSweep);
  PlotSpec s;
  s.kind = PlotKind::lines;
  const PlotSpec d = plot_defaults(t, s);
  EXPECT_EQ(d.x, "size");
  EXPECT_EQ(d.y, "gpu_time_ms");
  EXPECT_EQ(d.series, "order");
  s.y = "nope";
  EXPECT_THROW(plot_defaults(t, s), UsageError);
  PlotSpec sc;
  sc.kind = PlotKind::scatter;
  sc.x = "sim_l1_hit_pct";
  EXPECT_THROW(plot_defaults(t, sc), UsageError); // no --y
  EXPECT_TRUE(higher_is_better("sim_l1_hit_pct"));
  EXPECT_FALSE(higher_is_better("gpu_time_ms"));
}

TEST(Plot, HeatmapIsRelativeToNaiveAndMarksTheBest) {
  const CsvTable t = parse_csv(kSweep);
  PlotSpec s;
  s.kind = PlotKind::heatmap;
  s.value = "gpu_time_ms";
  PlotLayout layout;
  const Canvas c = plot(t, s, &layout);
  EXPECT_EQ(layout.cells, 4); // 2 widths x 2 blocks at the largest size
  // Lower time is better: column:8 at block 64 (5 / 10 = 0.5x, top left) is best, saturated blue.
  EXPECT_EQ(layout.best.x, layout.plot.x);
  EXPECT_EQ(layout.best.y, layout.plot.y);
  const Color full_blue = mix(kWhite, hex_color("#0072b2"), 0.85);
  EXPECT_EQ(c.pixel(layout.best.x + 5, layout.best.y + 5), full_blue);
  EXPECT_EQ(c.pixel(layout.best.x + 1, layout.best.y + 1), kBlack); // the outline
  // column:16 at block 128 is 24 / 12 = 2x worse: saturated vermillion, bottom right.
  const Color full_red = mix(kWhite, hex_color("#d55e00"), 0.85);
  const Rect &p = layout.plot;
  EXPECT_EQ(c.pixel(p.right() - 5, p.bottom() - 5), full_red);

  // With a higher-is-better value the best cell moves: hit rate 90 / 50 at block 128, column:16.
  s.value = "sim_l1_hit_pct";
  const Canvas c2 = plot(t, s, &layout);
  EXPECT_EQ(layout.best.right(), layout.plot.right());
  EXPECT_EQ(layout.best.bottom(), layout.plot.bottom());
  EXPECT_GT(c2.width(), 100);
}

TEST(Plot, HeatmapOverSizesKeepsEverySize) {
  const CsvTable t = parse_csv(kSweep);
  PlotSpec s;
  s.kind = PlotKind::heatmap;
  s.y = "size";
  s.value = "gpu_time_ms";
  PlotLayout layout;
  plot(t, s, &layout);
  // column:8 and column:16 at 1024 (relative to its linear rows); 256 has no linear row.
  EXPECT_EQ(layout.cells, 2);
  s.y = "block"; // back to the largest size only
  plot(t, s, &layout);
  EXPECT_EQ(layout.cells, 4);
}

TEST(Plot, LinesHaveOnePointPerSeriesAndX) {
  const CsvTable t = parse_csv(kSweep);
  PlotSpec s;
  s.kind = PlotKind::lines;
  PlotLayout layout;
  const Canvas c = plot(t, s, &layout);
  // linear: 1 size, column:8: 2 sizes, column:16: 1 size (the two blocks are averaged).
  EXPECT_EQ(layout.cells, 4);
  bool ink = false;
  for (int y = layout.legend.y; y < layout.legend.bottom() && !ink; ++y)
    for (int x = layout.legend.x; x < layout.legend.right(); ++x)
      ink = ink || c.pixel(x, y) != kWhite;
  EXPECT_TRUE(ink);
}

TEST(Plot, ScatterHasOnePointPerRow) {
  const CsvTable t = parse_csv(kSweep);
  PlotSpec s;
  s.kind = PlotKind::scatter;
  s.x = "sim_l1_hit_pct";
  s.y = "gpu_time_ms";
  PlotLayout layout;
  plot(t, s, &layout);
  EXPECT_EQ(layout.cells, 7);
}

int run_status(const std::string &args) { return test::cbi_run("plot " + args).exit_code; }

TEST(PlotCli, WritesPngsAndRejectsBadOptions) {
  const std::string dir = ::testing::TempDir();
  const std::string csv = dir + "/cbi_plot_in.csv", png = dir + "/cbi_plot_out.png";
  std::ofstream(csv) << kSweep;
  for (const std::string kind : {"heatmap", "lines"}) {
    std::remove(png.c_str());
    EXPECT_EQ(run_status(kind + " --input " + csv + " --output " + png), 0) << kind;
    EXPECT_EQ(access(png.c_str(), F_OK), 0) << kind;
  }
  EXPECT_EQ(run_status("scatter --input " + csv + " --output " + png +
                       " --x sim_l1_hit_pct --y gpu_time_ms --title 'hit rate vs time'"),
            0);
  std::remove(png.c_str());
  EXPECT_EQ(run_status("pie --input " + csv + " --output " + png), 2);
  EXPECT_EQ(run_status("lines --input " + csv + " --output " + png + " --y nope"), 2);
  EXPECT_EQ(run_status("lines --input " + dir + "/missing.csv --output " + png), 2);
  EXPECT_EQ(run_status("lines --output " + png), 2);
  EXPECT_NE(access(png.c_str(), F_OK), 0);
}

} // namespace
} // namespace cbi::viz
