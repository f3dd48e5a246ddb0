// Thread orders: each maps a linear thread id i in [0, I_w*I_h) to a task (x, y) and back.
// Written once, __host__ __device__, so the simulator and the CUDA kernels call the same code.
#pragma once

#include "cbi/remap/hd.hpp"

namespace cbi::remap {

// The 2D task space the thesis uses (§3.3): I_w tasks wide, I_h tall. N-d shapes fold into it
// (fold.hpp).
template <class Int> struct Shape {
  Int width;  // I_w
  Int height; // I_h
};

template <class Int> struct Task {
  Int x;
  Int y;
};

template <class Int> CBI_HD constexpr Int min_of(Int a, Int b) { return a < b ? a : b; }

// The naive order (listings 3 and 4): x = i mod I_w, y = i div I_w.
// Example: linear on 16x16 maps 17 -> (1,1).
struct Linear {
  template <class Int> CBI_HD Task<Int> map(Int i, Shape<Int> s) const {
    return {static_cast<Int>(i % s.width), static_cast<Int>(i / s.width)};
  }
  template <class Int> CBI_HD Int inverse(Task<Int> t, Shape<Int> s) const {
    return t.y * s.width + t.x;
  }
};

// Tiles of tile_w x tile_h in row-major order, row-major inside each tile. Tiles on the right and
// bottom edges are partial, so every thread id maps to a real task and no task is skipped.
// Example: tile 4x4 on 16x16 maps 5 -> (1,1), 16 -> (4,0).
struct Tile {
  long long tile_w;
  long long tile_h;

  template <class Int> CBI_HD Task<Int> map(Int i, Shape<Int> s) const {
    const Int tw = static_cast<Int>(tile_w), th = static_cast<Int>(tile_h);
    // All tile rows but the last are full height, so the tile row is a plain division.
    const Int tile_row = i / (s.width * th);
    const Int in_row = i - tile_row * s.width * th;
    const Int row_h = min_of<Int>(th, s.height - tile_row * th);
    // Inside a tile row all tiles but the last are full width.
    const Int tile_col = in_row / (tw * row_h);
    const Int in_tile = in_row - tile_col * tw * row_h;
    const Int col_w = min_of<Int>(tw, s.width - tile_col * tw);
    return {static_cast<Int>(tile_col * tw + in_tile % col_w),
            static_cast<Int>(tile_row * th + in_tile / col_w)};
  }
  template <class Int> CBI_HD Int inverse(Task<Int> t, Shape<Int> s) const {
    const Int tw = static_cast<Int>(tile_w), th = static_cast<Int>(tile_h);
    const Int tile_row = t.y / th, tile_col = t.x / tw;
    const Int row_h = min_of<Int>(th, s.height - tile_row * th);
    const Int col_w = min_of<Int>(tw, s.width - tile_col * tw);
    return tile_row * s.width * th + tile_col * tw * row_h + (t.y - tile_row * th) * col_w +
           (t.x - tile_col * tw);
  }
};

// Column-based iteration, thesis §4.1, eq. 4.1-4.6 and listing 5. Columns of width w run the full
// height; the last column is narrower when w does not divide I_w (eq. 4.2). w >= I_w is linear.
// With zigzag set, odd rows inside each column run right to left (§4.1.1). The thesis's eq. 4.7
// writes the mirror as w' - x, which runs one past the column; the correct mirror is w' - 1 - x.
// Example: column:4 on 16x16 maps 5 -> (1,1), 64 -> (4,0); zigzag:4 maps 5 -> (2,1).
struct Column {
  long long column_width;
  bool zigzag = false;

  template <class Int> CBI_HD Task<Int> map(Int i, Shape<Int> s) const {
    const Int w = static_cast<Int>(column_width);
    const Int column_tasks = s.height * w;           // tasks in a full column
    const Int column_id = i / column_tasks;          // eq. 4.1: o = floor(i / (I_h w)) w
    const Int offset = column_id * w;                //
    const Int true_w = min_of<Int>(s.width - offset, w); // eq. 4.2, as listing 5 line 35
    const Int in_column = i - column_id * column_tasks;  // eq. 4.3: i' = i mod I_h w
    Int x = in_column % true_w;                          // eq. 4.4
    const Int y = in_column / true_w;                    // eq. 4.5
    if (zigzag && (y & 1))
      x = true_w - 1 - x; // eq. 4.7, corrected mirror
    return {static_cast<Int>(x + offset), y};            // eq. 4.6: j = x + y I_w + o
  }
  template <class Int> CBI_HD Int inverse(Task<Int> t, Shape<Int> s) const {
    const Int w = static_cast<Int>(column_width);
    const Int column_id = t.x / w;
    const Int offset = column_id * w;
    const Int true_w = min_of<Int>(s.width - offset, w);
    Int x = t.x - offset;
    if (zigzag && (t.y & 1))
      x = true_w - 1 - x;
    return column_id * s.height * w + t.y * true_w + x;
  }
};

} // namespace cbi::remap
