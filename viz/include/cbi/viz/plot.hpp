// Plots of tidy CSV tables (one row per measurement, as `cbi sweep` writes them): a heatmap of
// column width x block size relative to the naive order, lines over input size with one line per
// order, and a scatter of predicted against measured (equal axes, y = x, the mean absolute error
// in the caption) or of any two columns. Drawn headless into a Canvas.
#pragma once

#include "cbi/cli/csv.hpp"
#include "cbi/viz/canvas.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cbi::viz {

// The CSV reader is cli's, the one that sweeps and reports read through (RFC 4180;
// UsageError(option) on ragged rows).
using cli::CsvTable;
using cli::parse_csv;

// A number at the start of a cell: "4096" -> 4096, "4096x4096" -> 4096, "12.5%" -> 12.5. A cell
// with a colon is a thread order (remap's parser reads it): column:32 -> 32, its width W (the
// heatmap's x axis); other orders (tile:16x4, zigzag:32, linear) and other text with a colon have
// no number. Returns false for empty or non-numeric cells.
bool leading_number(const std::string &cell, double &value);

enum class PlotKind { heatmap, lines, scatter };
PlotKind parse_plot_kind(const std::string &text); // UsageError naming the subcommand

struct PlotSpec {
  PlotKind kind = PlotKind::lines;
  // Column names; empty picks the kind's default (see plot_defaults).
  std::string x, y, value, series, title;
  std::string label;            // scatter: a column whose text labels each point (optional)
  std::string x_title, y_title; // axis titles; empty: the column's name and its unit
  // scatter: x and y are one quantity (measured and predicted): equal axes, the line y = x and the
  // mean absolute error in the caption. False: two quantities, each axis its own range.
  bool same_quantity = true;
};

// Fills the empty names of `spec` for `table` and checks that every named column exists (UsageError
// naming --x, --y, --value or --series). Defaults: heatmap x = the order's column width, y = block,
// value = the first of value_columns() with numbers; lines x =
// size, y = that value column (not needed with --y), series = order; scatter x and y required,
// series = order (colour and marker per value) where the CSV has one.
PlotSpec plot_defaults(const CsvTable &table, PlotSpec spec);
// The value columns a heatmap or lines plot takes by default, the first with numbers: value,
// gpu_time_ms (measured), predicted_ms (the GPU model's sweep: --backend model), sim_l1_misses,
// sim_l1_hit_pct; and the same list as text, for help and messages.
const std::vector<std::string> &value_columns();
std::string value_columns_text(); // "value, gpu_time_ms, predicted_ms, sim_l1_misses, ..."

// True where a larger value is better (hit rates, GB/s, GFLOP/s, speed-ups), by column name.
bool higher_is_better(const std::string &column);

struct PlotLayout {
  Rect plot;     // the data area
  Rect legend;   // lines: the series legend
  Rect best;     // heatmap: the best cell (empty when none is unique and better than naive)
  int cells = 0; // heatmap cells drawn / points drawn
  std::vector<std::string> x_labels, y_labels; // the tick labels drawn
  // Printed under the plot: rows left out and why; points that several series share.
  std::vector<std::string> notes, ties;
  std::vector<Rect> markers; // lines/scatter: each point's marker box, in drawing order
  // scatter of one quantity: the caption under it (N, mean absolute and worst error, Pearson r,
  // NRMSE), the points it counts and their mean |y - x|; n = 0 for other plots.
  std::vector<std::string> caption;
  int64_t n = 0;
  double mean_abs_error = 0, worst_error = 0; // worst: y - x of the point farthest from y = x
  // As the field reports agreement (Accel-Sim's correlation table): Pearson's r of y against x, and
  // the root-mean-square error over the range of x (NaN with fewer than two distinct x or y).
  double pearson_r = 0, nrmse = 0;
};

// The unit a column's name carries: "%" (.pct, _pct), "ms", "us", "s", "GB/s", "bytes",
// "sectors", "requests", or "" when the name says none. The suffixes that name a source
// (_meas, _measured, _pred, _predicted) do not hide it.
std::string unit_of(const std::string &column);

Canvas plot(const CsvTable &table, const PlotSpec &spec, PlotLayout *layout = nullptr);

} // namespace cbi::viz
