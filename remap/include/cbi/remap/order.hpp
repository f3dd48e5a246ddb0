// The orders (orders.hpp) and the runtime Order with its dispatch (dispatch.hpp), for host and
// device code alike. The text side (parse_order, to_string, order_syntax) is host-only and lives in
// cbi/order_text.hpp (base/, target cbi::base).
#pragma once

#include "cbi/remap/dispatch.hpp"
