// What every order header declares besides its index math: the form of its parameter (which the
// host-only parser and printer in cbi/order_text.hpp read), and the range where its host-prepared
// Params (fast division) equal the exact map. The traits that the engines read instead of switching
// on the kind, each checked for every registered order in dispatch.hpp:
//   rule                       its parameter's rule beyond "positive", for help and errors ("" if
//                              none)
//   groups                     what the diagram marks above the grid ("task rows", "columns", ...)
//   valid(w, h)                whether the parameters are allowed (positive, and the rule)
//   model_shape()              the column width or tile the analytical model sees (ModelShape)
//   group(task, shape)         the group (task row, column, tile) a task belongs to, for diagrams
//   exact_math_fits(I_w, I_h)  whether listing 5's 32-bit exact map cannot overflow
//   remap_instructions()       integer instructions per thread for the remap (GPU model's cost)
//   fast_remap_instructions()  warp instructions per thread that the kernels' fast map (Params,
//                              cbi bench's default --remap-math) executes beyond the linear
//                              order's, as measured on the H200 (ncu smsp__inst_executed.sum,
//                              kernels/scripts/sm_inst.sh; docs/results/tight/sm.md §2)
#pragma once

#include "cbi/remap/fast_divmod.hpp"
#include "cbi/remap/shape.hpp"

#include <cstdint>

namespace cbi::remap {

// Listing 5's exact maps compute in 32 bits: their products must stay within this.
inline constexpr long long kIndexMax = 0x7fffffff;

// What the analytical model (sim/src/model.cpp) sees of an order: a column width (eq. 4.1-4.8) or
// a tile, zero where it has none; all zero reads as linear.
struct ModelShape {
  long long column_w = 0;
  long long tile_w = 0, tile_h = 0;
};

// none: "name"; width: "name:W"; extent: "name:T" (square) or "name:TWxTH". Parameters are
// positive integers.
enum class ParamForm { none, width, extent };

// Params(order, shape).map(i) equals order.map(i, shape) for every i in [0, I_w * I_h) when every
// task id fits FastDivmod's range: I_w * I_h <= 2^31 - 1 (a grid of up to 2^31 - 1 threads). Every
// divisor an order precomputes is at most I_w * I_h, because the orders clamp their parameters to
// the shape first.
CBI_HD constexpr bool fast_math_exact(Shape<int64_t> s) {
  return s.width >= 1 && s.height >= 1 && s.width <= kFastDivmodMax &&
         s.height <= kFastDivmodMax / s.width;
}

} // namespace cbi::remap
