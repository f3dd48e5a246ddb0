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

// "not cached", "in L2+", "in cache" / "in L1", "hit", "served by L2", ..., "miss (fetched)" /
// "from memory".
std::string state_label(uint8_t state, int levels);
// Short machine names for the CSV: not_cached, in_lower, in_l1, hit, l2, l3, ..., miss / memory.
std::string state_name(uint8_t state, int levels);
// Legend entries for `levels` cache levels, most important first.
std::vector<LegendItem> legend_items(const Palette &p, int levels);

// The stats strip of one panel: one line per cache level, e.g.
// "L1: accesses 1,588 · hits 1,204 · misses 384 · fetches 384 · hit rate 75.82%".
std::vector<std::string> stats_lines(const Grid &g);
// "1 thread x 1 line per cell"; binned: "64 threads x 2 lines per cell (any miss in a bin shows as
// a miss)"; "accesses" in exact granularity.
std::string bin_text(const Grid &g);
// "stencil 7x7 on 16x16 float, clamp | L1 24 lines, 384 B fully associative lru, 16 B lines |
// thread granularity".
std::string config_text(const Grid &g);

struct DiagramStyle {
  bool greyscale = false;
  // Pixels per cell; 0 = square cells of 1..16 px that make a panel about 1200 x 800 px, up to 4x
  // taller for short grids.
  int cell_w = 0, cell_h = 0;
  std::string title;                     // empty: config_text of the first panel
  std::vector<std::string> panel_titles; // empty: each panel's order
  Style chart;
};

// Where things went, for tests and the viewer's hit testing.
struct DiagramLayout {
  Rect title, legend;
  std::vector<Rect> grids; // one per panel: exactly cols*cell_w x rows*cell_h
  std::vector<Rect> stats; // the stats strip of each panel
  std::vector<Rect> axes;  // per panel: the box around grid and its axis labels
  int cell_w = 1, cell_h = 1;
};

// The cell size render_diagram uses for these grids and style.
void cell_size(const std::vector<Grid> &panels, const DiagramStyle &style, int &cell_w,
               int &cell_h);

// Draws every panel at the same cell size; all grids must have the same cols and rows. With
// upto_col >= 0 only columns [0, upto_col] are drawn, the rest left blank (the viewer's playback).
Canvas render_diagram(const std::vector<Grid> &panels, const DiagramStyle &style,
                      DiagramLayout *layout = nullptr, int64_t upto_col = -1);

// Draws a grid's cells into `area` of the canvas, cell_w x cell_h each; columns after upto_col
// (if >= 0) are left alone.
void draw_cells(Canvas &canvas, const Grid &g, const Rect &area, int cell_w, int cell_h,
                const Palette &p, int64_t upto_col = -1);

// The cell grid as tidy CSV, one row per cell that is not "not cached":
// panel,order,col,row,first_step,last_step,first_line,last_line,state.
std::string grid_csv(const std::vector<Grid> &panels);

} // namespace cbi::viz
