// Column-based iteration (thesis §4.1, eq. 4.1-4.6, listing 5) and its zigzag variant (§4.1.1).
#pragma once

#include "cbi/remap/fast_divmod.hpp"
#include "cbi/remap/order_traits.hpp"
#include "cbi/remap/shape.hpp"

namespace cbi::remap {

// Columns of width w run the full height; the last column is narrower when w does not divide I_w
// (eq. 4.2). w >= I_w is linear. In the zigzag variant odd rows inside each column run right to
// left (§4.1.1). The thesis's eq. 4.7 writes the mirror as w' - x, which runs one past the column;
// the correct mirror is w' - 1 - x.
// Example: column:4 on 16x16 maps 5 -> (1,1), 64 -> (4,0); zigzag:4 maps 5 -> (2,1).
template <bool Zigzag> struct ColumnOrder {
  static constexpr const char *name = Zigzag ? "zigzag" : "column";
  static constexpr const char *alias = nullptr;
  static constexpr ParamForm form = ParamForm::width;
  static constexpr const char *syntax = Zigzag ? "zigzag:W" : "column:W";

  long long column_width;

  CBI_HD static constexpr ColumnOrder make(long long w, long long) { return {w}; }
  CBI_HD constexpr long long param_w() const { return column_width; }
  CBI_HD constexpr long long param_h() const { return 0; }
  static constexpr const char *rule = "";
  static constexpr const char *groups = "columns";
  CBI_HD static constexpr bool valid(long long w, long long) { return w >= 1; }

  template <class Int> CBI_HD Task<Int> map(Int i, Shape<Int> s) const {
    const Int w = static_cast<Int>(column_width);
    const Int column_tasks = s.height * w;               // tasks in a full column
    const Int column_id = i / column_tasks;              // eq. 4.1: o = floor(i / (I_h w)) w
    const Int offset = column_id * w;                    //
    const Int true_w = min_of<Int>(s.width - offset, w); // eq. 4.2, as listing 5 line 35
    const Int in_column = i - column_id * column_tasks;  // eq. 4.3: i' = i mod I_h w
    Int x = in_column % true_w;                          // eq. 4.4
    const Int y = in_column / true_w;                    // eq. 4.5
    if (Zigzag && (y & 1))
      x = true_w - 1 - x;                     // eq. 4.7, corrected mirror
    return {static_cast<Int>(x + offset), y}; // eq. 4.6: j = x + y I_w + o
  }
  template <class Int> CBI_HD Int inverse(Task<Int> t, Shape<Int> s) const {
    const Int w = static_cast<Int>(column_width);
    const Int column_id = t.x / w;
    const Int offset = column_id * w;
    const Int true_w = min_of<Int>(s.width - offset, w);
    Int x = t.x - offset;
    if (Zigzag && (t.y & 1))
      x = true_w - 1 - x;
    return column_id * s.height * w + t.y * true_w + x;
  }

  // Traits (order_traits.hpp).
  CBI_HD constexpr ModelShape model_shape() const { return {column_width, 0, 0}; }
  template <class Int> CBI_HD Int group(Task<Int> t, Shape<Int>) const {
    return t.x / static_cast<Int>(column_width);
  }
  // I_h * w before clamping.
  CBI_HD constexpr bool exact_math_fits(long long, long long height) const {
    return height * column_width <= kIndexMax;
  }
  CBI_HD constexpr double remap_instructions() const { return 20.0 * 5; } // eq. 4.1-4.7
  // Measured beyond linear's (the same for every width): column 15 (stencil) and 18 (matmul),
  // zigzag 19 and 19.
  CBI_HD constexpr double fast_remap_instructions() const { return Zigzag ? 19.0 : 16.5; }

  struct Params;
};

// Host-prepared: the three divisors of eq. 4.1-4.5 (I_h w, w, and the last column's w') as
// FastDivmods; map picks w or w' with a select. w is first clamped to I_w, which leaves map
// unchanged (w >= I_w is linear) and keeps I_h w within I_w * I_h.
template <bool Zigzag> struct ColumnOrder<Zigzag>::Params {
  FastDivmod column_tasks; // I_h * w
  FastDivmod full_w;       // w
  FastDivmod last_w;       // w' of the last column (eq. 4.2)
  int last_column = 0;
  int column_w = 1; // clamped to I_w
  Shape<int> shape{1, 1};

  Params() = default;
  CBI_HD Params(ColumnOrder o, Shape<int> s)
      : column_tasks(s.height * clamp(o.column_width, s.width)),
        full_w(clamp(o.column_width, s.width)),
        last_w(s.width -
               (s.width - 1) / clamp(o.column_width, s.width) * clamp(o.column_width, s.width)),
        last_column((s.width - 1) / clamp(o.column_width, s.width)),
        column_w(clamp(o.column_width, s.width)), shape(s) {}

  CBI_HD Task<int> map(int i) const {
    int column_id, in_column;
    column_tasks.divmod(i, column_id, in_column); // eq. 4.1, 4.3
    const FastDivmod true_w =
        FastDivmod::select(column_id == last_column, last_w, full_w); // eq. 4.2
    int y, x;
    true_w.divmod(in_column, y, x); // eq. 4.4, 4.5
    if (Zigzag && (y & 1))
      x = true_w.divisor() - 1 - x;               // eq. 4.7, corrected mirror
    return {x + column_id * full_w.divisor(), y}; // eq. 4.6
  }
  CBI_HD int inverse(Task<int> t) const { return ColumnOrder{column_w}.inverse(t, shape); }

private:
  CBI_HD static int clamp(long long w, int width) { return int(min_of<long long>(w, width)); }
};

using Column = ColumnOrder<false>;
using Zigzag = ColumnOrder<true>;

} // namespace cbi::remap
