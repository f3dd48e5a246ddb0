// A labelled spatial-temporal diagram (§3.2) of one or more grids side by side at one scale: the
// cells, a line axis with array rows marked, a time axis with the order's group boundaries, a
// stats strip per panel, a legend and a title. Also the grid's CSV export and the stats text.
#pragma once

#include "cbi/viz/canvas.hpp"
#include "cbi/viz/chart.hpp"
#include "cbi/viz/grid.hpp"

#include <string>
#include <vector>

namespace cbi::viz {

// Cell colours. The default is Okabe & Ito's colour-blind-safe set (blue hits, vermillion misses,
// orange/yellow for L2/L3); greyscale orders the states from white (not cached) to black (memory).
struct Palette {
  Color not_cached, in_lower, in_l1, hit;
  std::vector<Color> served; // served[k-1]: served by level k+1 (the last one: memory / a miss)

  static Palette standard(int levels);
  static Palette greyscale(int levels);
  Color of(uint8_t state) const;
};

// How binned cells are coloured: by the share of their accesses that missed `level` (0 = L1; the
// last level: fetched from memory), on sequential_color over [0, top]. Cells with no access show
// their residency in greys, which the sequential scale does not use.
struct BinScale {
  int level = 0;
  double top = 1;
  bool saturates = false; // some bins lie above top and are drawn at it
  bool greyscale = false;
  Color in_l1() const;
  Color in_lower() const;
  Color of(const Grid &g, int64_t col, int64_t row) const;
  // "share of the bin's accesses that missed L1" / "... served from memory".
  std::string title(int levels) const;
};
// The scale shared by all panels, so they compare at one scale: top is the smallest of 1, 2, 5,
// 10, 20, 50, 100% that holds the shares of 99% of the binned accesses; the rest saturate. Throws
// UsageError naming
// --miss-level when level is not one of the grids' levels.
BinScale bin_scale(const std::vector<Grid> &panels, int level, bool greyscale);

// "not cached", "in L2+", "in cache" / "in L1", "hit", "served by L2", ..., "miss (fetched)" /
// "from memory".
std::string state_label(uint8_t state, int levels);
// Short machine names for the CSV: not_cached, in_lower, in_l1, hit, l2, l3, ..., miss / memory.
std::string state_name(uint8_t state, int levels);
// Legend entries for `levels` cache levels, most important first; for binned grids the residency
// greys only (the colour bar explains the rest).
std::vector<LegendItem> legend_items(const Palette &p, int levels);
std::vector<LegendItem> binned_legend_items(const BinScale &s, int levels);

// The stats strip of one panel: one line per cache level, e.g. in exact granularity
// "L1: accesses 1,588 · hits 1,204 · misses 384 · fetches 384 · hit rate per access 75.82%", in
// thread granularity "L1: thread-lines 4,480 · ... · hit rate per thread-line 89.69%".
std::vector<std::string> stats_lines(const Grid &g);
// "1 thread x 1 line per cell"; binned: "64 threads x 2 lines per cell (colour: share of the
// accesses that missed L1)"; "accesses" in exact granularity.
std::string bin_text(const Grid &g, int miss_level = 0);
// "stencil 7x7 on 16x16 float, clamp | L1 24 lines, 384 B fully associative lru, 16 B lines |
// thread granularity (hit rates per thread-line: ...)".
std::string config_text(const Grid &g);
// What the hit rates of a grid count: "per access" (every load and store, as ncu counts) or
// "per thread-line" (each thread's distinct lines once, §3.2); never the same words.
std::string hit_rate_label(const Grid &g);

// How panels are arranged: side by side, stacked, or in a near-square grid (filled row by row).
enum class PanelLayout { automatic, columns, rows, grid };
// "columns" -> PanelLayout::columns; throws UsageError("--layout", ...) listing the allowed names.
PanelLayout parse_layout(const std::string &name);

// A diagram is laid out for print: about kFigureWidthPx wide (one paper column at ~1000 px
// reads it at 0.8x), cells at least min_cell_px a side.
constexpr int kFigureWidthPx = 1200;

// The room each panel's grid gets, in pixels, when n panels are laid out so: grid_w binds,
// grid_h is a target (cells shrink to min_cell_px to meet it; lines bin past 1200 px).
struct PanelBudget {
  int per_row = 1, panel_rows = 1;
  int grid_w = 1, grid_h = 1;
};
// automatic: the first of columns, grid, rows in which every step of a panel keeps min_cell_px
// without binning; for traces binned anyway, two panels side by side, more in a grid. steps and
// lines are those of one panel before binning.
PanelLayout resolve_layout(PanelLayout layout, int n, int64_t steps, int64_t lines,
                           int min_cell_px);
PanelBudget panel_budget(PanelLayout layout, int n);

struct DiagramStyle {
  bool greyscale = false;
  // Pixels per cell; 0 = cells that fill the panel budget, from min_cell_px to 16 px a side.
  int cell_w = 0, cell_h = 0;
  int min_cell_px = 3;
  PanelLayout layout = PanelLayout::automatic;
  std::string title;                     // empty: config_text of the first panel
  std::string preset;                    // the preset's name, printed before its configuration
  std::vector<std::string> panel_titles; // empty: each panel's order
  int miss_level = 0;                    // binned cells: the level whose misses colour them
  Style chart;                           // sizes for a kFigureWidthPx image, scaled with it
};

// Where things went, for tests and the viewer's hit testing.
struct DiagramLayout {
  Rect title, legend;
  Rect colorbar;           // binned grids only
  BinScale bins;           // the scale binned cells were drawn with
  std::vector<Rect> grids; // one per panel: exactly cols*cell_w x rows*cell_h
  std::vector<Rect> stats; // the stats strip of each panel
  std::vector<Rect> axes;  // per panel: the box around grid and its axis labels
  int cell_w = 1, cell_h = 1;
  PanelLayout layout = PanelLayout::columns; // as resolved
  std::string subtitle;                      // before wrapping
  Style chart;                               // the text sizes used
};

// The cell size render_diagram uses for these grids and style.
void cell_size(const std::vector<Grid> &panels, const DiagramStyle &style, int &cell_w,
               int &cell_h);

// Draws every panel at the same cell size; all grids must have the same cols and rows. With
// upto_col >= 0 only columns [0, upto_col] are drawn, the rest left blank (the viewer's playback).
Canvas render_diagram(const std::vector<Grid> &panels, const DiagramStyle &style,
                      DiagramLayout *layout = nullptr, int64_t upto_col = -1);

// Draws a grid's cells into `area` of the canvas, cell_w x cell_h each; columns after upto_col
// (if >= 0) are left alone. Unbinned cells take their state's colour from `p`, binned ones their
// share of misses from `s`.
void draw_cells(Canvas &canvas, const Grid &g, const Rect &area, int cell_w, int cell_h,
                const Palette &p, const BinScale &s, int64_t upto_col = -1);

// The cell grid as tidy CSV, one row per cell that is not "not cached":
// panel,order,col,row,first_step,last_step,first_line,last_line,state,accesses,l1_misses,...
// (state: the highest in the cell; lK_misses: its accesses that missed level K).
std::string grid_csv(const std::vector<Grid> &panels);

} // namespace cbi::viz
