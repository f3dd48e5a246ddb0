// N-dimensional folding, thesis §4.1.2: the first dimension stays horizontal (I_w) and all the
// others fold into the vertical one (I_h = product of the rest), so every 2D order applies to N-d
// arrays.
#pragma once

#include "cbi/remap/orders.hpp"

namespace cbi::remap {

// dims[0] is the fastest-varying (contiguous) dimension.
// Example: fold {8, 4, 3} -> I_w = 8, I_h = 12.
template <class Int> CBI_HD Shape<Int> fold(const Int *dims, int rank) {
  Int height = 1;
  for (int d = 1; d < rank; ++d)
    height *= dims[d];
  return {dims[0], height};
}

// The N-d coordinate of folded task (x, y): coord[0] = x, the rest unravel y, dims[1] fastest.
// Example: dims {8, 4, 3}, task (5, 7) -> (5, 3, 1).
template <class Int> CBI_HD void unfold(Task<Int> t, const Int *dims, int rank, Int *coord) {
  coord[0] = t.x;
  Int rest = t.y;
  for (int d = 1; d < rank; ++d) {
    coord[d] = rest % dims[d];
    rest /= dims[d];
  }
}

// Inverse of unfold.
template <class Int> CBI_HD Task<Int> refold(const Int *coord, const Int *dims, int rank) {
  Int y = 0;
  for (int d = rank - 1; d >= 1; --d)
    y = y * dims[d] + coord[d];
  return {coord[0], y};
}

} // namespace cbi::remap
