// A Hilbert curve over the task grid, in S x S tiles (S a power of two): a standard locality
// order (Hilbert 1891; Moon et al., IEEE TKDE 2001), not one of the thesis's.
#pragma once

#include "cbi/remap/fast_divmod.hpp"
#include "cbi/remap/order_traits.hpp"
#include "cbi/remap/shape.hpp"

namespace cbi::remap {

// hilbert:S cuts the grid into S x S tiles visited in row-major order (as tile:S) and runs each
// full tile along the Hilbert curve of side S, so consecutive threads stay neighbours in both x and
// y. Non-power-of-two grids: tiles cut by the right or bottom edge are not squares of side S and
// have no Hilbert curve; they run row-major inside (exactly as tile:S), so every grid works and
// every thread maps to one task. On a 2^k x 2^k grid, hilbert:2^k is the Hilbert curve over the
// whole grid. S is clamped to no tile: hilbert:S with S larger than the grid is linear.
// Example: hilbert:4 on 4x4 maps 0..3 -> (0,0) (1,0) (1,1) (0,1); hilbert:2 on 4x4 maps 4 -> (2,0).
struct Hilbert {
  static constexpr const char *name = "hilbert";
  static constexpr const char *alias = nullptr;
  static constexpr ParamForm form = ParamForm::width;
  static constexpr const char *syntax = "hilbert:S";
  static constexpr const char *rule = "S a power of two";
  static constexpr const char *groups = "tiles";

  long long side;

  CBI_HD static constexpr Hilbert make(long long s, long long) { return {s}; }
  CBI_HD constexpr long long param_w() const { return side; }
  CBI_HD constexpr long long param_h() const { return 0; }
  CBI_HD static constexpr bool valid(long long s, long long) {
    return s >= 1 && (s & (s - 1)) == 0;
  }

  template <class Int> CBI_HD Task<Int> map(Int i, Shape<Int> s) const {
    const Int n = static_cast<Int>(side);
    const Int tile_row = i / (s.width * n);
    const Int in_row = i - tile_row * s.width * n;
    const Int row_h = min_of<Int>(n, s.height - tile_row * n);
    const Int tile_col = in_row / (n * row_h);
    const Int in_tile = in_row - tile_col * n * row_h;
    const Int col_w = min_of<Int>(n, s.width - tile_col * n);
    Task<Int> t{static_cast<Int>(in_tile % col_w), static_cast<Int>(in_tile / col_w)};
    if (col_w == n && row_h == n)
      t = curve(in_tile, n);
    return {static_cast<Int>(tile_col * n + t.x), static_cast<Int>(tile_row * n + t.y)};
  }
  template <class Int> CBI_HD Int inverse(Task<Int> t, Shape<Int> s) const {
    const Int n = static_cast<Int>(side);
    const Int tile_row = t.y / n, tile_col = t.x / n;
    const Int row_h = min_of<Int>(n, s.height - tile_row * n);
    const Int col_w = min_of<Int>(n, s.width - tile_col * n);
    const Int x = t.x - tile_col * n, y = t.y - tile_row * n;
    const Int in_tile = col_w == n && row_h == n ? curve_index(x, y, n) : y * col_w + x;
    return tile_row * s.width * n + tile_col * n * row_h + in_tile;
  }

  // Traits (order_traits.hpp): the tile sizes of the analytical model and the diagram's groups,
  // the 32-bit bound of the exact map, its cost for the GPU model.
  CBI_HD constexpr ModelShape model_shape() const { return {0, side, side}; }
  template <class Int> CBI_HD Int group(Task<Int> t, Shape<Int> s) const {
    const Int n = static_cast<Int>(side);
    return (t.y / n) * ((s.width + n - 1) / n) + t.x / n;
  }
  CBI_HD constexpr bool exact_math_fits(long long width, long long) const {
    return width * side <= kIndexMax && side * side <= kIndexMax;
  }
  // Tile's six divisions, then per level of the curve (log2 S) about six bit operations.
  CBI_HD constexpr double remap_instructions() const { return 20.0 * 6 + 6.0 * curve_levels(); }
  // Measured beyond linear's at hilbert:64 only (6 levels): 237 (stencil), 246 (matmul), that is
  // tile's 34 and about 35 a level.
  CBI_HD constexpr double fast_remap_instructions() const { return 34.0 + 35.0 * curve_levels(); }
  // The curve's levels: log2 S, rounded up.
  CBI_HD constexpr int curve_levels() const {
    int levels = 0;
    for (long long n = 1; n < side; n *= 2)
      ++levels;
    return levels;
  }

  struct Params;

private:
  // Position d along the Hilbert curve of side n (a power of two), and back: the iterative
  // d2xy/xy2d of the curve's standard construction, one quadrant rotation per level.
  template <class Int> CBI_HD static Task<Int> curve(Int d, Int n) {
    Int x = 0, y = 0;
    for (Int q = 1; q < n; q *= 2) {
      const Int rx = 1 & (d / 2), ry = 1 & (d ^ rx);
      rotate(q, x, y, rx, ry);
      x += q * rx;
      y += q * ry;
      d /= 4;
    }
    return {x, y};
  }
  template <class Int> CBI_HD static Int curve_index(Int x, Int y, Int n) {
    Int d = 0;
    for (Int q = n / 2; q > 0; q /= 2) {
      const Int rx = (x & q) > 0 ? 1 : 0, ry = (y & q) > 0 ? 1 : 0;
      d += q * q * ((3 * rx) ^ ry);
      rotate(n, x, y, rx, ry);
    }
    return d;
  }
  template <class Int> CBI_HD static void rotate(Int n, Int &x, Int &y, Int rx, Int ry) {
    if (ry == 0) {
      if (rx == 1) {
        x = n - 1 - x;
        y = n - 1 - y;
      }
      const Int t = x;
      x = y;
      y = t;
    }
  }
};

// Host-prepared: the exact map itself (its tile divisions are by powers of two but for the row of
// tiles; the curve is bit operations), so fast and div agree by construction.
struct Hilbert::Params {
  Hilbert order{1};
  Shape<int> shape{1, 1};

  Params() = default;
  CBI_HD Params(Hilbert o, Shape<int> s) : order(o), shape(s) {}
  CBI_HD Task<int> map(int i) const { return order.map(i, shape); }
  CBI_HD int inverse(Task<int> t) const { return order.inverse(t, shape); }
};

} // namespace cbi::remap
