// What every order header declares besides its index math: the form of its parameter (which the
// host-only parser and printer in cbi/order_text.hpp read), and the range where its host-prepared
// Params (fast division) equal the exact map.
#pragma once

#include "cbi/remap/fast_divmod.hpp"
#include "cbi/remap/shape.hpp"

#include <cstdint>

namespace cbi::remap {

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
