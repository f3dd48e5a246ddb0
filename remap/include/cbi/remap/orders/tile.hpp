// Tiles of tile_w x tile_h in row-major order, row-major inside each tile.
#pragma once

#include "cbi/remap/fast_divmod.hpp"
#include "cbi/remap/order_traits.hpp"
#include "cbi/remap/shape.hpp"

namespace cbi::remap {

// Tiles on the right and bottom edges are partial, so every thread id maps to a real task and no
// task is skipped. Tiles wider or taller than the shape are clamped to it.
// Example: tile 4x4 on 16x16 maps 5 -> (1,1), 16 -> (4,0).
struct Tile {
  static constexpr const char *name = "tile";
  static constexpr const char *alias = nullptr;
  static constexpr ParamForm form = ParamForm::extent;
  static constexpr const char *syntax = "tile:T, tile:TWxTH";

  long long tile_w;
  long long tile_h;

  CBI_HD static constexpr Tile make(long long w, long long h) { return {w, h}; }
  CBI_HD constexpr long long param_w() const { return tile_w; }
  CBI_HD constexpr long long param_h() const { return tile_h; }
  static constexpr const char *rule = "";
  static constexpr const char *groups = "tiles";
  CBI_HD static constexpr bool valid(long long w, long long h) { return w >= 1 && h >= 1; }

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

  // Traits (order_traits.hpp).
  CBI_HD constexpr ModelShape model_shape() const { return {0, tile_w, tile_h}; }
  template <class Int> CBI_HD Int group(Task<Int> t, Shape<Int> s) const {
    const Int tw = static_cast<Int>(tile_w), th = static_cast<Int>(tile_h);
    return (t.y / th) * ((s.width + tw - 1) / tw) + t.x / tw;
  }
  // I_w * TH and TW * TH before clamping.
  CBI_HD constexpr bool exact_math_fits(long long width, long long) const {
    return width * tile_h <= kIndexMax && tile_w * tile_h <= kIndexMax;
  }
  CBI_HD constexpr double remap_instructions() const { return 20.0 * 6; } // six divisions
  // Measured beyond linear's (tile:8, tile:16 and tile:32x8 alike): 31 (stencil), 37 (matmul).
  CBI_HD constexpr double fast_remap_instructions() const { return 34.0; }

  struct Params;
};

// Host-prepared: the five divisors map can meet (a tile row; a full tile and one of the last,
// shorter tile row; a full tile's width and the last, narrower one's) as FastDivmods, and map
// picks between them with selects. The tile is first clamped to the shape, which leaves map
// unchanged and keeps every divisor within I_w * I_h.
struct Tile::Params {
  FastDivmod row_tasks;       // I_w * th: tasks in a full tile row
  FastDivmod tile_tasks;      // tw * th
  FastDivmod last_tile_tasks; // tw * (height of the last tile row)
  FastDivmod full_w;          // tw
  FastDivmod last_w;          // width of the last tile column
  int tile_w = 1, tile_h = 1; // clamped to the shape
  Shape<int> shape{1, 1};
  int last_row = 0, last_col = 0; // indices of the last tile row and column

  Params() = default;
  CBI_HD Params(Tile t, Shape<int> s)
      : row_tasks(s.width * clamp(t.tile_h, s.height)),
        tile_tasks(clamp(t.tile_w, s.width) * clamp(t.tile_h, s.height)),
        last_tile_tasks(clamp(t.tile_w, s.width) * last_extent(t.tile_h, s.height)),
        full_w(clamp(t.tile_w, s.width)), last_w(last_extent(t.tile_w, s.width)),
        tile_w(clamp(t.tile_w, s.width)), tile_h(clamp(t.tile_h, s.height)), shape(s),
        last_row((s.height - 1) / clamp(t.tile_h, s.height)),
        last_col((s.width - 1) / clamp(t.tile_w, s.width)) {}

  CBI_HD Task<int> map(int i) const {
    int tile_row, in_row;
    row_tasks.divmod(i, tile_row, in_row);
    const FastDivmod tiles = FastDivmod::select(tile_row == last_row, last_tile_tasks, tile_tasks);
    int tile_col, in_tile;
    tiles.divmod(in_row, tile_col, in_tile);
    const FastDivmod col_w = FastDivmod::select(tile_col == last_col, last_w, full_w);
    int y, x;
    col_w.divmod(in_tile, y, x);
    return {tile_col * tile_w + x, tile_row * tile_h + y};
  }
  CBI_HD int inverse(Task<int> t) const { return Tile{tile_w, tile_h}.inverse(t, shape); }

private:
  CBI_HD static int clamp(long long tile, int extent) {
    return int(min_of<long long>(tile, extent));
  }
  // The extent of the last tile along one axis: extent - (tiles - 1) * tile.
  CBI_HD static int last_extent(long long tile, int extent) {
    const int t = clamp(tile, extent);
    return extent - (extent - 1) / t * t;
  }
};

} // namespace cbi::remap
