// What the plot kinds share (plot.cpp; one file each: plot_heatmap.cpp, plot_lines.cpp,
// plot_scatter.cpp): the frame, the series' colours and markers, column checks, ticks, axis
// titles in words, and the text blocks above and below a plot. Internal to viz.
#pragma once

#include "cbi/viz/chart.hpp"
#include "cbi/viz/plot.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace cbi::viz::plot_detail {

struct Frame {
  const Font &font = Font::standard();
  Style st;
};

// Series k: Okabe & Ito's eight colours (black last, the axis colour too) crossed with kMarkers
// shapes; 8 and kMarkers = 6 give a different (colour, shape) pair to each of the first 24 series.
Color series_colour(std::size_t k);
int series_marker(std::size_t k);

bool has_numbers(const CsvTable &t, int col);
// Distinct numbers in a column (0 when none).
std::size_t distinct_numbers(const CsvTable &t, int col);
// UsageError naming `option` with the CSV's columns when `name` is not one of them.
// `given`: false where `name` is the option's default, not the user's (the message names --input).
void require(const CsvTable &t, const std::string &name, const char *option, bool given = true);
// UsageError naming `option` when `name` is not a numeric column: one whose every non-empty
// cell is a number through and through (an order's text, "9x9", "0/1" and hex ids are not).
void require_numbers(const CsvTable &t, const std::string &name, const char *option);
bool is_naive(const std::string &order);
// A cbi sweep CSV whose every row comes from the simulator (its backend column names no gpu):
// the block does not apply to its rows.
bool simulated_only(const CsvTable &t);

// Axis ticks for [lo, hi]: powers of two (log_base 2) or of ten (log_base 10) on a log axis,
// whose positions are the logarithms; round steps otherwise (log_base 0).
std::vector<Tick> ticks_for(double lo, double hi, int log_base, int max_ticks);

// A column in words with its unit: "sim_l1_misses" -> "L1 misses (simulated)", "gpu_time_ms"
// -> "time (ms, measured)", "block" -> "threads per block"; other names with the unit their
// name carries ("x_bytes (bytes)").
std::string column_title(const std::string &column);
// `given` (--x-title, --y-title) when not empty, else column_title(column).
std::string axis_title(const std::string &given, const std::string &column);
// An error in the column's unit: "2.73 percentage points", "0.041 ms", "1.2M bytes".
std::string error_text(double v, const std::string &unit, bool sign = false);

// Lines of text wrapped to `width` px, each item prefixed ("note: ").
std::vector<std::string> wrap_all(const Frame &f, const std::vector<std::string> &items,
                                  const std::string &prefix, int px, int width);
// Draws `lines` from (x, y) down, `line_h` apart.
void draw_lines_of_text(Canvas &c, const Frame &f, int x, int y,
                        const std::vector<std::string> &lines, int px, int line_h, Color colour);

Canvas heatmap(const CsvTable &t, const PlotSpec &s, PlotLayout &out);
Canvas lines_plot(const CsvTable &t, const PlotSpec &s, PlotLayout &out); // lines, free scatter
Canvas compare_plot(const CsvTable &t, const PlotSpec &s, PlotLayout &out);

} // namespace cbi::viz::plot_detail
