// The 2D task space the thesis uses (§3.3) and the task a thread computes. Host and device.
#pragma once

#include "cbi/remap/hd.hpp"

namespace cbi::remap {

// I_w tasks wide, I_h tall. N-d shapes fold into it (fold.hpp).
template <class Int> struct Shape {
  Int width;  // I_w
  Int height; // I_h
};

template <class Int> struct Task {
  Int x;
  Int y;
};

template <class Int> CBI_HD constexpr Int min_of(Int a, Int b) { return a < b ? a : b; }

} // namespace cbi::remap
