// Everything about thread orders for host code: the orders (orders.hpp), the runtime Order with its
// dispatch (dispatch.hpp) and the text side, parse_order / to_string / order_syntax
// (order_text.hpp). Device code (.cu kernels) includes dispatch.hpp, which is free of host-only
// types.
#pragma once

#include "cbi/remap/dispatch.hpp"
#include "cbi/remap/order_text.hpp"
