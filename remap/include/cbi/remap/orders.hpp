// The thread orders: each maps a linear thread id i in [0, I_w*I_h) to a task (x, y) and back. Each
// lives in one header under orders/ with one static interface (name, parameter form, make, map,
// inverse, and host-prepared Params with the divisions precomputed), after CUTLASS's threadblock
// swizzles. Written once, __host__ __device__, so the simulator and the CUDA kernels call the same
// code. OrderList below is the registry: visit (dispatch.hpp), parsing, printing and the help
// text (cbi/order_text.hpp, host-only, target cbi::base) are generated from it.
//
// A new order: one header under orders/, its include and its entry in OrderList and OrderKind here.
#pragma once

#include "cbi/remap/orders/column.hpp"
#include "cbi/remap/orders/hilbert.hpp"
#include "cbi/remap/orders/linear.hpp"
#include "cbi/remap/orders/tile.hpp"

#include <cstddef>

namespace cbi::remap {

template <class... Orders> struct OrderList {
  static constexpr std::size_t size = sizeof...(Orders);
};

// The registry. OrderKind's value is the index in OrderList (checked in dispatch.hpp).
enum class OrderKind { linear, tile, column, zigzag, hilbert };
using Orders = OrderList<Linear, Tile, Column, Zigzag, Hilbert>;

} // namespace cbi::remap
