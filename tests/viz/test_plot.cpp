// Plots of tidy CSV tables: parsing, defaults, the heatmap's relative values and best cell, one
// point per (series, x) in line plots, and the `cbi plot` command's errors.
#include "cbi/error.hpp"
#include "cbi/viz/plot.hpp"
#include "cli_run.hpp"

#include <gtest/gtest.h>

#include "cbi/viz/chart.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <string>
#include <unistd.h>
#include <utility>

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
  // Orders go through remap's parser: only column:W has a number; tile:16x4 is not 16.
  EXPECT_FALSE(leading_number("tile:16x4", v));
  EXPECT_FALSE(leading_number("tile:16", v));
  EXPECT_FALSE(leading_number("zigzag:32", v));
  EXPECT_FALSE(leading_number("column:0", v));
  EXPECT_FALSE(leading_number("12:30", v));
  EXPECT_TRUE(leading_number("column:1024", v));
  EXPECT_EQ(v, 1024);
}

TEST(Plot, UnitsComeFromTheColumnName) {
  EXPECT_EQ(unit_of("l1tex__t_sector_hit_rate.pct"), "%");
  EXPECT_EQ(unit_of("l1tex__t_sector_hit_rate.pct_meas"), "%");
  EXPECT_EQ(unit_of("gpu_l1_hit_pct"), "%");
  EXPECT_EQ(unit_of("predicted_ms"), "ms");
  EXPECT_EQ(unit_of("gpu_time_ms_pred"), "ms");
  EXPECT_EQ(unit_of("dram__bytes_read.sum"), "bytes");
  EXPECT_EQ(unit_of("lts__t_sectors_srcunit_tex_op_read.sum_pred"), "sectors");
  EXPECT_EQ(unit_of("gpu_gbs"), "GB/s");
  EXPECT_EQ(unit_of("order"), "");
}

// Predicted against measured: |y - x| = 2, 2, 3, 0 over four rows (a fifth has no prediction),
// so N = 4, the mean absolute error 1.75 percentage points and the worst +3 at column:32.
const char *kCompare = "kernel,order,l1tex__t_sector_hit_rate.pct_meas,"
                       "l1tex__t_sector_hit_rate.pct_pred\n"
                       "matmul,linear,10,12\n"
                       "matmul,column:8,20,18\n"
                       "stencil,column:32,30,33\n"
                       "stencil,linear,40,40\n"
                       "stencil,tile:16,50,\n";

PlotSpec compare_spec() {
  PlotSpec s;
  s.kind = PlotKind::scatter;
  s.x = "l1tex__t_sector_hit_rate.pct_meas";
  s.y = "l1tex__t_sector_hit_rate.pct_pred";
  s.series = "kernel";
  s.label = "order";
  return s;
}

PlotSpec scatter_of(const std::string &x, const std::string &y) {
  PlotSpec s;
  s.kind = PlotKind::scatter;
  s.x = x;
  s.y = y;
  return s;
}

TEST(Plot, ScatterOfOneQuantityGivesTheMeanAbsoluteError) {
  PlotLayout layout;
  plot(parse_csv(kCompare), compare_spec(), &layout);
  EXPECT_EQ(layout.n, 4);
  EXPECT_EQ(layout.cells, 4);
  EXPECT_DOUBLE_EQ(layout.mean_abs_error, 1.75);
  EXPECT_DOUBLE_EQ(layout.worst_error, 3.0);
  ASSERT_FALSE(layout.caption.empty());
  EXPECT_NE(layout.caption[0].find("N = 4;"), std::string::npos) << layout.caption[0];
  EXPECT_NE(layout.caption[0].find("mean absolute error |y - x| = 1.75 percentage points"),
            std::string::npos)
      << layout.caption[0];
  EXPECT_NE(layout.caption[0].find("worst +3.00 percentage points (stencil column:32)"),
            std::string::npos)
      << layout.caption[0];
  // Pearson's r and NRMSE by hand: x 10..40 (mean 25), y 12, 18, 33, 40 (mean 25.75): r =
  // 495 / sqrt(500 x 504.75) = 0.9853; RMSE sqrt(17 / 4) = 2.0616 over the range 30: 0.0687.
  EXPECT_NEAR(layout.pearson_r, 495.0 / std::sqrt(500.0 * 504.75), 1e-12);
  EXPECT_NEAR(layout.nrmse, std::sqrt(17.0 / 4.0) / 30.0, 1e-12);
  EXPECT_NE(layout.caption[0].find("Pearson r = 0.985; NRMSE = 0.069 (RMSE / range of x)"),
            std::string::npos)
      << layout.caption[0];
  // A constant x (every simulated rate equal) leaves r and NRMSE undefined: said in words.
  PlotLayout flat;
  plot(
      parse_csv("kernel,order,l1tex__t_sector_hit_rate.pct_meas,"
                "l1tex__t_sector_hit_rate.pct_pred\nmatmul,linear,43,50\nmatmul,column:32,43,90\n"),
      compare_spec(), &flat);
  ASSERT_FALSE(flat.caption.empty());
  EXPECT_TRUE(std::isnan(flat.pearson_r));
  EXPECT_EQ(flat.caption[0].find("nan"), std::string::npos) << flat.caption[0];
  EXPECT_NE(flat.caption[0].find("Pearson r = undefined (x or y does not vary); NRMSE = undefined"),
            std::string::npos)
      << flat.caption[0];
  // Percentages have no relative error; the row without a prediction is named, not counted.
  EXPECT_EQ(layout.caption[0].find("y / x"), std::string::npos);
  ASSERT_EQ(layout.notes.size(), 1u);
  EXPECT_NE(layout.notes[0].find("1 rows without a number"), std::string::npos);

  // Times: the error is in ms and the mean relative error is given too (|y/x - 1| = 0.5, 0).
  const CsvTable t = parse_csv("order,time_ms_meas,time_ms_pred\nlinear,2,3\ncolumn:8,4,4\n");
  PlotSpec s;
  s.kind = PlotKind::scatter;
  s.x = "time_ms_meas";
  s.y = "time_ms_pred";
  plot(t, s, &layout);
  EXPECT_DOUBLE_EQ(layout.mean_abs_error, 0.5);
  EXPECT_NE(layout.caption[0].find("= 0.5 ms"), std::string::npos) << layout.caption[0];
  EXPECT_NE(layout.caption[0].find("mean |y / x - 1| = 25.0%"), std::string::npos)
      << layout.caption[0];
}

// Equal axes (the same ticks on a square data area) and the dashed line y = x on the diagonal.
TEST(Plot, ScatterOfOneQuantityHasEqualAxesAndTheIdentityLine) {
  PlotLayout layout;
  const Canvas c = plot(parse_csv(kCompare), compare_spec(), &layout);
  EXPECT_EQ(layout.plot.w, layout.plot.h);
  EXPECT_EQ(layout.x_labels, layout.y_labels);
  EXPECT_GE(layout.x_labels.size(), 3u);
  // Grey pixels on the diagonal from the bottom-left to the top-right corner (the dashes).
  const Color identity{110, 110, 110, 255};
  int on_line = 0;
  for (int k = 0; k < layout.plot.w; ++k)
    for (int d = -1; d <= 1; ++d)
      on_line += c.pixel(layout.plot.x + k, layout.plot.bottom() - 1 - k + d) == identity;
  EXPECT_GT(on_line, layout.plot.w / 3) << "the dashed y = x line";
  // Every marker lies inside the data area; the legend sits to its right.
  for (const Rect &m : layout.markers) {
    EXPECT_GE(m.x, layout.plot.x);
    EXPECT_LE(m.right(), layout.plot.right());
  }
  EXPECT_GT(layout.legend.x, layout.plot.right());
  EXPECT_GE(c.width(), 800) << "sized for a ~1000 px paper column";
  EXPECT_LE(c.width(), 1100);

  // Values over 100x or more: decades on both axes.
  const CsvTable wide = parse_csv("a_bytes,b_bytes\n10,12\n1000,900\n100000,80000\n");
  PlotSpec s;
  s.kind = PlotKind::scatter;
  s.x = "a_bytes";
  s.y = "b_bytes";
  plot(wide, s, &layout);
  EXPECT_EQ(layout.x_labels, (std::vector<std::string>{"10", "100", "1k", "10k", "100k"}));
  EXPECT_EQ(layout.x_labels, layout.y_labels);
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
  // --y is a quantity: the orders' text drew column:W at W and dropped linear, silently.
  for (const PlotKind kind : {PlotKind::lines, PlotKind::scatter}) {
    PlotSpec text;
    text.kind = kind;
    text.x = "size";
    text.y = "order";
    try {
      plot_defaults(t, text);
      ADD_FAILURE() << "--y order was taken";
    } catch (const UsageError &e) {
      EXPECT_EQ(e.option(), "--y");
      EXPECT_NE(std::string(e.what()).find("column 'order' holds no numbers; allowed: a numeric "
                                           "column ("),
                std::string::npos)
          << e.what();
    }
  }
  PlotSpec sc;
  sc.kind = PlotKind::scatter;
  sc.x = "sim_l1_hit_pct";
  EXPECT_THROW(plot_defaults(t, sc), UsageError); // no --y
  // A sweep of the GPU model (--backend model) has predicted_ms and no measured time: lines and a
  // heatmap take it by default (it was "none of the columns ... has numbers").
  const CsvTable model = parse_csv("size,block,order,gpu_time_ms,predicted_ms,sim_l1_misses\n"
                                   "1024,256,linear,,1.49,\n1024,256,column:32,,1.55,\n");
  PlotSpec lines;
  lines.kind = PlotKind::lines;
  EXPECT_EQ(plot_defaults(model, lines).y, "predicted_ms");
  PlotSpec heat;
  heat.kind = PlotKind::heatmap;
  EXPECT_EQ(plot_defaults(model, heat).value, "predicted_ms");
  EXPECT_TRUE(higher_is_better("sim_l1_hit_pct"));
  EXPECT_FALSE(higher_is_better("gpu_time_ms"));
}

// plot_defaults's refusal of `s`: the option its UsageError names and its message ("" and
// "(taken)" where it took `s`).
std::pair<std::string, std::string> refusal(const CsvTable &t, const PlotSpec &s) {
  try {
    plot_defaults(t, s);
  } catch (const UsageError &e) {
    return {e.option(), e.what()};
  }
  return {"", "(taken)"};
}

// A column is numeric only where every non-empty cell is a number through and through: point_id's
// hex, shard's "0/1" and stencil's "9x9" start with a number and were offered and taken as --y.
TEST(Plot, ColumnsThatStartWithANumberAreNotNumeric) {
  const CsvTable t = parse_csv("point_id,shard,stencil,size,gpu_time_ms,order\n"
                               "1447ee63a0b1c2d3,0/1,9x9,4096,0.61,linear\n"
                               "190e7549f72f9c93,0/1,9x9,8192,,column:4\n"
                               "2fe0aa1b00c1d2e3,0/1,5x5,8192,2.5e-1,column:4\n");
  for (const PlotKind kind : {PlotKind::lines, PlotKind::scatter})
    for (const char *column : {"point_id", "shard", "stencil", "order"}) {
      PlotSpec s;
      s.kind = kind;
      s.x = "size";
      s.y = column;
      try {
        plot_defaults(t, s);
        ADD_FAILURE() << "--y " << column << " was taken";
      } catch (const UsageError &e) {
        EXPECT_EQ(e.option(), "--y");
        EXPECT_NE(std::string(e.what()).find(std::string("column '") + column +
                                             "' holds no numbers; allowed: a numeric column "
                                             "(size, gpu_time_ms)"),
                  std::string::npos)
            << e.what();
      }
    }
  PlotSpec ok; // an empty cell is no value, not text
  ok.kind = PlotKind::lines;
  ok.y = "gpu_time_ms";
  EXPECT_EQ(plot_defaults(t, ok).y, "gpu_time_ms");
}

// scatter places each point by both columns: a non-numeric --x is refused as --y is, listing the
// numeric columns (it drew column:W at W and dropped linear, or hex ids at their leading digits).
TEST(Plot, ScatterXMustBeNumeric) {
  const CsvTable t = parse_csv("point_id,stencil,size,gpu_time_ms,order\n"
                               "1447ee63a0b1c2d3,9x9,4096,0.61,linear\n"
                               "2fe0aa1b00c1d2e3,5x5,8192,2.5e-1,column:4\n");
  for (const char *column : {"point_id", "stencil", "order"}) {
    PlotSpec s;
    s.kind = PlotKind::scatter;
    s.x = column;
    s.y = "gpu_time_ms";
    EXPECT_EQ(refusal(t, s), std::make_pair(std::string("--x"),
                                            std::string("column '") + column +
                                                "' holds no numbers; allowed: a numeric column "
                                                "(size, gpu_time_ms)"));
  }
  PlotSpec ok;
  ok.kind = PlotKind::scatter;
  ok.x = "size";
  ok.y = "gpu_time_ms";
  EXPECT_EQ(plot_defaults(t, ok).x, "size");
}

// A scatter compares one quantity unless --free-axes: columns of two units (a hit rate against a
// time) are refused naming --y and both units; they drew y = x and an error "in ms".
TEST(Plot, ScatterOfTwoUnitsNeedsFreeAxes) {
  const CsvTable t = parse_csv("order,l1_hit_pct_pred,predicted_ms,hits,time_ms\n"
                               "linear,87,0.009,5,0.01\ncolumn:32,88,0.008,6,0.02\n");
  PlotSpec s;
  s.kind = PlotKind::scatter;
  s.x = "l1_hit_pct_pred";
  s.y = "predicted_ms";
  EXPECT_EQ(refusal(t, s),
            std::make_pair(std::string("--y"),
                           std::string("'predicted_ms' (ms) is another quantity than --x "
                                       "'l1_hit_pct_pred' (%), and scatter compares one quantity "
                                       "(the line y = x, the error in one unit); allowed: "
                                       "--free-axes for two quantities, or --y in %")));
  s.same_quantity = false; // --free-axes
  EXPECT_NO_THROW(plot_defaults(t, s));
  PlotSpec same; // one unit, or a column whose unit the name does not tell: compared
  same.kind = PlotKind::scatter;
  same.x = "time_ms";
  same.y = "predicted_ms";
  EXPECT_NO_THROW(plot_defaults(t, same));
  same.x = "hits";
  EXPECT_NO_THROW(plot_defaults(t, same));
}

// A percentage against a column whose name carries no unit (a count, a ratio) is compared as
// numbers: the caption said "3.00 percentage points" of values that are not both in percent.
TEST(Plot, ScatterSaysPercentagePointsOnlyWhereBothColumnsArePercentages) {
  const CsvTable t = parse_csv("order,a,b_pct,c_pct\nlinear,1,2,3\ncolumn:4,5,7,4\n"
                               "column:8,3,9,1\n");
  PlotSpec s = scatter_of("a", "b_pct");
  PlotLayout mixed;
  plot(t, s, &mixed);
  ASSERT_FALSE(mixed.caption.empty());
  EXPECT_EQ(mixed.caption[0].find("percentage points"), std::string::npos) << mixed.caption[0];
  EXPECT_NE(mixed.caption[0].find("mean absolute error |y - x| = 3; worst +6 (column:8)"),
            std::string::npos)
      << mixed.caption[0];
  s.x = "c_pct"; // both percentages: points
  PlotLayout pct;
  plot(t, s, &pct);
  EXPECT_NE(pct.caption[0].find("= 4.00 percentage points; worst +8.00 percentage points"),
            std::string::npos)
      << pct.caption[0];
}

// A column the plot takes by default (the heatmap's y, size; lines' x and series) missing from the
// CSV blamed --y, --x or --series, which the user had not given: the input lacks it, and the
// option is the way out.
TEST(Plot, ADefaultColumnMissingNamesTheInputAndTheOption) {
  const CsvTable t = parse_csv("order,a,v\nlinear,1,2\ncolumn:4,5,7\n");
  PlotSpec heat;
  heat.kind = PlotKind::heatmap;
  heat.value = "v";
  EXPECT_EQ(refusal(t, heat), std::make_pair(std::string("--input"),
                                             std::string("has no column 'size', which --y is by "
                                                         "default; allowed: --y COL with order, "
                                                         "a, v")));
  PlotSpec lines;
  lines.kind = PlotKind::lines;
  lines.value = "v";
  EXPECT_EQ(refusal(t, lines).first, "--input");
  EXPECT_NE(refusal(t, lines).second.find("which --x is by default; allowed: --x COL"),
            std::string::npos);
  lines.x = "a";
  EXPECT_EQ(refusal(t, lines), std::make_pair(std::string(""), std::string("(taken)")));
  lines.x = "size"; // given: named as given
  EXPECT_EQ(refusal(t, lines).first, "--x");
  // No value column: said as the input's lack ("none of the columns value, ... has numbers" read
  // as if the columns were there), with the columns that could be --value.
  heat.value.clear();
  EXPECT_EQ(refusal(t, heat),
            std::make_pair(std::string("--input"),
                           std::string("has no numbers in a value column (value, gpu_time_ms, "
                                       "predicted_ms, sim_l1_misses, sim_l1_hit_pct: a cbi sweep "
                                       "CSV's); allowed: --value NAME of a numeric column (this "
                                       "CSV's: a, v)")));
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
  // The mean over the blocks is said under the plot (it was drawn without a word).
  ASSERT_EQ(layout.notes.size(), 1u);
  EXPECT_EQ(layout.notes[0], "3 points are each the mean of 2 rows that share order and size and "
                             "differ in block: keep one block's rows in the CSV to plot it alone");
  bool ink = false;
  for (int y = layout.legend.y; y < layout.legend.bottom() && !ink; ++y)
    for (int x = layout.legend.x; x < layout.legend.right(); ++x)
      ink = ink || c.pixel(x, y) != kWhite;
  EXPECT_TRUE(ink);
}

// Seven series at every point (reproduce --tiny's fig5.3, all 1.0): the markers side by side
// spilled past the frame, over the y axis's lowest label. Every marker stays inside now.
TEST(Plot, MarkersSideBySideStayInsideTheFrame) {
  std::string csv = "size,order,value\n";
  for (const char *size : {"32", "64", "128"})
    for (int w = 1; w <= 7; ++w)
      csv += std::string(size) + ",column:" + std::to_string(1 << w) + ",1\n";
  PlotSpec s;
  s.kind = PlotKind::lines;
  PlotLayout layout;
  plot(parse_csv(csv), s, &layout);
  ASSERT_EQ(layout.markers.size(), 21u);
  for (const Rect &m : layout.markers) {
    EXPECT_GE(m.x, layout.plot.x);
    EXPECT_LE(m.right(), layout.plot.right());
  }
}

// An order column as x: column:W sits at W; tile:16x4 is not read as 16 but left out and named.
TEST(Plot, OrdersWithoutAWidthAreNamedNotPlotted) {
  const CsvTable t = parse_csv("order,hit_pct\ncolumn:8,80\ncolumn:16,90\ntile:16x4,99\n");
  PlotSpec s;
  s.kind = PlotKind::lines;
  s.x = "order";
  s.y = "hit_pct";
  s.series = "order";
  PlotLayout layout;
  plot(t, s, &layout);
  EXPECT_EQ(layout.cells, 2);
  ASSERT_EQ(layout.notes.size(), 1u);
  EXPECT_EQ(layout.notes[0], "1 rows without a number in order or hit_pct not shown (order: "
                             "tile:16x4)");
}

TEST(Plot, ScatterHasOnePointPerRow) {
  const CsvTable t = parse_csv(kSweep);
  PlotSpec s;
  s.kind = PlotKind::scatter;
  s.x = "sim_l1_hit_pct";
  s.y = "gpu_time_ms";
  s.same_quantity = false; // two quantities: --free-axes
  PlotLayout layout;
  plot(t, s, &layout);
  EXPECT_EQ(layout.cells, 7);
}

// Issue 12's plot defects, one test each.
TEST(Plot, TickLabelsAreUnique) {
  const CsvTable t = parse_csv("size,order,hit\n256,a,99.80\n512,a,99.83\n1024,a,99.85\n"
                               "2048,a,99.81\n");
  PlotSpec s;
  s.kind = PlotKind::lines;
  s.y = "hit";
  PlotLayout layout;
  plot(t, s, &layout);
  ASSERT_GE(layout.y_labels.size(), 3u);
  const std::set<std::string> distinct(layout.y_labels.begin(), layout.y_labels.end());
  EXPECT_EQ(distinct.size(), layout.y_labels.size());
  EXPECT_EQ(tick_labels({99.8, 99.85, 99.9}),
            (std::vector<std::string>{"99.80", "99.85", "99.90"}));
}

TEST(Plot, TiesAreDrawnSideBySideAndListed) {
  const CsvTable t = parse_csv("size,order,hit\n256,linear,99\n256,tile:16,99\n512,linear,98\n"
                               "512,tile:16,97\n");
  PlotSpec s;
  s.kind = PlotKind::lines;
  s.y = "hit";
  PlotLayout layout;
  plot(t, s, &layout);
  ASSERT_EQ(layout.ties.size(), 1u);
  EXPECT_NE(layout.ties[0].find("linear = tile:16"), std::string::npos) << layout.ties[0];
  ASSERT_EQ(layout.markers.size(), 4u); // linear 256, 512; tile:16 256, 512
  const Rect &a = layout.markers[0], &b = layout.markers[2];
  EXPECT_EQ(a.y, b.y);
  EXPECT_GE(std::abs(a.x - b.x), a.w); // side by side, not on top of each other
}

TEST(Plot, MarkerShapesDiffer) {
  std::vector<std::vector<bool>> masks;
  for (int shape = 0; shape < kMarkers; ++shape) {
    Canvas c(20, 20);
    draw_marker(c, shape, 10, 10, 6, kBlack);
    std::vector<bool> m;
    for (int y = 0; y < 20; ++y)
      for (int x = 0; x < 20; ++x)
        m.push_back(c.pixel(x, y) == kBlack);
    for (const auto &other : masks)
      EXPECT_NE(m, other) << shape;
    masks.push_back(m);
  }
  // The legend draws the series' marker: a lines legend has the colour outside a square swatch.
  Canvas c(400, 40);
  const Rect box = draw_legend(&c, Font::standard(), 0, 0, 400,
                               {{hex_color("#d55e00"), "column:8", 2, true}}, Style{});
  int inked = 0;
  for (int y = box.y; y < box.bottom(); ++y)
    for (int x = box.x; x < box.x + 30; ++x)
      inked += c.pixel(x, y) == hex_color("#d55e00");
  EXPECT_GT(inked, 20);
}

TEST(Plot, BestOnlyWhenUniqueAndBetterThanNaive) {
  // Every column order is slower than linear: no best cell.
  const CsvTable worse = parse_csv("size,block,order,gpu_time_ms\n1,64,linear,10\n"
                                   "1,64,column:8,11\n1,64,column:16,12\n");
  PlotSpec s;
  s.kind = PlotKind::heatmap;
  s.value = "gpu_time_ms";
  PlotLayout layout;
  plot(worse, s, &layout);
  EXPECT_EQ(layout.best.w, 0);
  // Two cells tie for best: none is marked, the tie is listed.
  const CsvTable tie = parse_csv("size,block,order,gpu_time_ms\n1,64,linear,10\n"
                                 "1,64,column:8,5\n1,64,column:16,5\n");
  plot(tie, s, &layout);
  EXPECT_EQ(layout.best.w, 0);
  ASSERT_EQ(layout.ties.size(), 1u);
  EXPECT_NE(layout.ties[0].find("column:8"), std::string::npos);
  EXPECT_NE(layout.ties[0].find("column:16"), std::string::npos);
  // One better cell: marked.
  plot(parse_csv(kSweep), s, &layout);
  EXPECT_GT(layout.best.w, 0);
}

TEST(Plot, HeatmapSaysWhatItLeavesOut) {
  std::string csv = kSweep;
  csv += "7,1024x1024,64,tile:16,4,95\n";
  PlotSpec s;
  s.kind = PlotKind::heatmap;
  s.value = "gpu_time_ms";
  PlotLayout layout;
  plot(parse_csv(csv), s, &layout);
  std::string notes;
  for (const std::string &n : layout.notes)
    notes += n + "\n";
  EXPECT_NE(notes.find("tile:16"), std::string::npos) << notes;
  EXPECT_NE(notes.find("1 rows of smaller sizes"), std::string::npos) << notes;
}

TEST(Plot, TitlesFitTheImage) {
  PlotSpec s;
  s.kind = PlotKind::lines;
  s.title = "short";
  const Canvas a = plot(parse_csv(kSweep), s);
  s.title = std::string(400, 'x').replace(100, 1, " ").replace(200, 1, " ").replace(300, 1, " ");
  const Canvas b = plot(parse_csv(kSweep), s);
  EXPECT_EQ(a.width(), b.width()); // wrapped, not widened
  EXPECT_GT(b.height(), a.height());
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
  EXPECT_EQ(
      run_status("scatter --input " + csv + " --output " + png +
                 " --x sim_l1_hit_pct --y gpu_time_ms --free-axes --title 'hit rate vs time'"),
      0);
  std::remove(png.c_str());
  // Issue 12: `lines --y` on a CSV with no default value column (reproduce's FAILED lines) works,
  // and the ties and left-out rows are printed as the figure lists them.
  const std::string bare = dir + "/cbi_plot_bare.csv";
  std::ofstream(bare) << "size,order,hit\n256,linear,99\n256,tile:16,99\n512,linear,98\n";
  const test::CliRun lines =
      test::cbi_run("plot lines --input " + bare + " --output " + png + " --y hit");
  EXPECT_EQ(lines.exit_code, 0) << lines.err;
  EXPECT_NE(lines.out.find("tie: linear = tile:16 at size 256 (hit 99)"), std::string::npos)
      << lines.out;
  std::remove(png.c_str());
  EXPECT_EQ(run_status("pie --input " + csv + " --output " + png), 2);
  EXPECT_EQ(run_status("lines --input " + csv + " --output " + png + " --y nope"), 2);
  EXPECT_EQ(run_status("lines --input " + dir + "/missing.csv --output " + png), 2);
  EXPECT_EQ(run_status("lines --output " + png), 2);
  EXPECT_NE(access(png.c_str(), F_OK), 0);
}

// cbi plot scatter end to end: the caption (with the mean absolute error) is printed as the
// figure shows it; a column that is not in the CSV exits 2 with one line that names the option and
// lists the columns, and writes no PNG.
TEST(PlotCli, ScatterPrintsTheCaptionAndNamesBadColumns) {
  const std::string dir = ::testing::TempDir();
  const std::string csv = dir + "/cbi_plot_compare.csv", png = dir + "/cbi_plot_compare.png";
  std::ofstream(csv) << kCompare;
  std::remove(png.c_str());
  const std::string cols = " --x l1tex__t_sector_hit_rate.pct_meas --y "
                           "l1tex__t_sector_hit_rate.pct_pred --series kernel --label order";
  const test::CliRun ok = test::cbi_run("plot scatter --input " + csv + " --output " + png + cols);
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.out.find("caption: N = 4; mean absolute error |y - x| = 1.75 percentage points"),
            std::string::npos)
      << ok.out;
  EXPECT_EQ(load_png(png).width(), plot(parse_csv(kCompare), compare_spec()).width());
  std::remove(png.c_str());

  const test::CliRun bad = test::cbi_run("plot scatter --input " + csv + " --output " + png +
                                         " --x l1_meas --y l1tex__t_sector_hit_rate.pct_pred");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err.find("cbi plot: --x: no column 'l1_meas' in the CSV; allowed: kernel, order, "
                         "l1tex__t_sector_hit_rate.pct_meas, l1tex__t_sector_hit_rate.pct_pred"),
            0u)
      << bad.err;
  EXPECT_EQ(test::count_lines(bad.err), 1) << bad.err;
  EXPECT_NE(access(png.c_str(), F_OK), 0) << "no PNG after a bad option";
  const test::CliRun label = test::cbi_run("plot scatter --input " + csv + " --output " + png +
                                           cols.substr(0, cols.find(" --label")) + " --label nope");
  EXPECT_EQ(label.exit_code, 2);
  EXPECT_EQ(label.err.find("cbi plot: --label: no column 'nope'"), 0u) << label.err;
  EXPECT_EQ(run_status("lines --input " + csv + " --output " + png + " --label order"), 2);
  // Options a plot has no use for are refused, not ignored.
  const test::CliRun series =
      test::cbi_run("plot heatmap --input " + csv + " --output " + png + " --series order");
  EXPECT_EQ(series.exit_code, 2);
  EXPECT_EQ(series.err.find("cbi plot: --series: applies to lines and scatter"), 0u) << series.err;
  const test::CliRun value =
      test::cbi_run("plot scatter --input " + csv + " --output " + png + cols + " --value order");
  EXPECT_EQ(value.exit_code, 2);
  EXPECT_EQ(value.err.find("cbi plot: --value: applies to heatmap and lines"), 0u) << value.err;
  EXPECT_NE(access(png.c_str(), F_OK), 0);
}

// A sweep's CSV has 55 columns: --x nocol listed every one in a line of 900 characters. It names
// the nearest spellings, the count, and the columns that hold numbers (what --x and --y plot).
TEST(PlotCli, AnUnknownColumnOfAWideCsvSuggestsTheNearestAndTheNumericOnes) {
  const std::string dir = ::testing::TempDir();
  const std::string csv = dir + "/cbi_plot_wide.csv", png = dir + "/cbi_plot_wide.png";
  ASSERT_EQ(test::cbi_run("sweep --size 16 --order linear,column:4 -o " + csv).exit_code, 0);
  std::remove(png.c_str());
  const std::string scatter = "plot scatter --input " + csv + " --output " + png;
  test::expect_usage_error(scatter + " --x sim_l1_hit_pcct --y sim_l1_misses",
                           "cbi plot: --x: no column 'sim_l1_hit_pcct' in the CSV (did you mean "
                           "sim_l1_hit_pct or sim_l2_hit_pct?); allowed: one of its ");
  const test::CliRun r = test::cbi_run(scatter + " --x nocol --y sim_l1_misses");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(" columns (its first line names them), numbers in: point, "),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("sim_l1_misses, sim_l1_hit_pct"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("point_id"), std::string::npos) << "text columns are not listed: " << r.err;
  EXPECT_LT(r.err.size(), 400u) << r.err;
  EXPECT_NE(access(png.c_str(), F_OK), 0);
  std::remove(csv.c_str());
}

} // namespace
} // namespace cbi::viz
