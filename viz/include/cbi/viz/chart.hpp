// Chart pieces shared by the diagrams and the plots: a linear scale, "nice" tick values, axes with
// labelled ticks and a title, a legend of colour swatches, and number formats. Every drawing
// function also runs with a null canvas to measure, so layouts are computed before drawing.
#pragma once

#include "cbi/viz/canvas.hpp"
#include "cbi/viz/text.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cbi::viz {

struct Style {
  Color text{25, 25, 25, 255};
  Color muted{95, 95, 95, 255}; // tick labels, subtitles
  Color axis{70, 70, 70, 255};
  Color frame{150, 150, 150, 255};
  Color background = kWhite;
  int title_px = 17;
  int label_px = 13; // axis titles, panel headers
  int tick_px = 11;  // tick labels, legend, stats
  int tick_len = 5;
  int margin = 14;
};

// Maps data values linearly onto pixels; px_lo may exceed px_hi (an axis that grows upward).
struct Scale {
  double lo = 0, hi = 1;
  double px_lo = 0, px_hi = 1;
  double operator()(double v) const {
    return hi == lo ? px_lo : px_lo + (v - lo) / (hi - lo) * (px_hi - px_lo);
  }
};

// A step of 1, 2 or 5 times a power of ten giving at most max_ticks ticks over [lo, hi].
double nice_step(double lo, double hi, int max_ticks);
// The multiples of nice_step(lo, hi, max_ticks) that lie in [lo, hi].
std::vector<double> nice_ticks(double lo, double hi, int max_ticks);

// 12544 -> "12,544".
std::string group_digits(int64_t value);
// Short numbers in notes: 250, 12544 -> "12,544", 125440 -> "125k", 4194304 -> "4.19M", 0.25 ->
// "0.25"; `digits`
// significant digits for non-integers.
std::string short_number(double value, int digits = 3);
// Labels for the values of one axis or one grid of cells, all in one style: one suffix (none,
// k, M or G, the largest value's) and one count of decimals, the fewest that show each value
// exactly or with 3 significant digits of the largest, and (`distinct`) that keep distinct values
// apart: 0, 5,000, 10,000, 15,000 (not 0, 5,000, 10k, 15k); 99.80, 99.85, 99.90; 0, 0.5M, 1.0M.
// Whole numbers below 100,000 are grouped.
std::vector<std::string> number_labels(const std::vector<double> &values, bool distinct);
// number_labels with distinct values apart: the ticks of a linear axis.
std::vector<std::string> tick_labels(const std::vector<double> &values);
// The decades of a log axis, each with its own suffix: 0.1, 1, 10, 100, 1k, 10k, 1M, 1G.
std::vector<std::string> decade_labels(const std::vector<double> &values);
// The powers of two of a log axis: 1, 2, ..., 65,536 grouped; 2^24 beyond 10 million.
std::vector<std::string> power_of_two_labels(const std::vector<double> &values);
// 0.94921875 -> "94.92%".
std::string percent(double fraction, int decimals = 2);

struct Tick {
  double value = 0;
  std::string label; // empty: a mark with no label
  bool major = true; // minor ticks are shorter
};

enum class Side { bottom, left, right, top };

// An axis along `side` of `area`: a line on that edge, ticks pointing out, labels beyond them
// (dropped where they would overlap their neighbour) and the title beyond the labels. Returns the
// depth in pixels it takes outside `area`. With canvas == nullptr it only measures.
int draw_axis(Canvas *canvas, const Font &font, const Rect &area, Side side, const Scale &scale,
              const std::vector<Tick> &ticks, const std::string &title, const Style &style);

struct LegendItem {
  Color swatch;
  std::string label;
  int marker = -1;   // >= 0: draw_marker's shape instead of a square swatch
  bool line = false; // with a marker: a short line through it (a line plot's series)
};

// Point markers that tell series apart without colour: 0 disc, 1 square, 2 triangle up,
// 3 diamond, 4 triangle down, 5 plus; radius r px around (x, y).
constexpr int kMarkers = 6;
void draw_marker(Canvas &canvas, int shape, int x, int y, int r, Color c);

// Swatches with labels, left to right from (x, y), wrapping at max_width. Returns the box used.
Rect draw_legend(Canvas *canvas, const Font &font, int x, int y, int max_width,
                 const std::vector<LegendItem> &items, const Style &style);

// Breaks text into lines no wider than max_width px: at " | " separators first (kept at the line
// ends as " |"), then at spaces; a single word wider than max_width gets a line of its own.
std::vector<std::string> wrap_text(const Font &font, const std::string &text, int size_px,
                                   int max_width);

// A sequential, colour-blind-safe scale for fractions: viridis (van der Walt and Smith, the
// matplotlib default), reversed so that 0 is light yellow and 1 dark purple, i.e. more is darker.
// With greyscale, mid grey (0) to black (1). t is clamped to [0, 1].
Color sequential_color(double t, bool greyscale = false);

// A horizontal colour bar of `width` px at (x, y): the scale over [0, top] (fractions, labelled
// as percentages at round ticks; the last "≥ top" when larger values saturate) with `title` to
// its left. Returns the box used; measures only with a null canvas.
Rect draw_colorbar(Canvas *canvas, const Font &font, int x, int y, int width, double top,
                   bool greyscale, const std::string &title, const Style &style,
                   bool saturates = false);

} // namespace cbi::viz
