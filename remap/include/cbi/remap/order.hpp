// A thread order chosen at run time ("linear", "tile:8", "tile:16x4", "column:32", "zigzag:32"),
// and `visit`, which hands the concrete order type to templated code (simulator loops, CUDA
// kernels) so that the per-thread remap is inlined with no switch. Adding an order means one struct
// in orders.hpp plus one case in visit() and parse_order().
#pragma once

#include "cbi/error.hpp"
#include "cbi/parse.hpp"
#include "cbi/remap/orders.hpp"

#include <cstdint>
#include <string>

namespace cbi::remap {

enum class OrderKind { linear, tile, column, zigzag };

struct Order {
  OrderKind kind = OrderKind::linear;
  long long param_w = 0; // tile width or column width
  long long param_h = 0; // tile height (tile only)

  // Runtime-dispatched map; templated loops should prefer visit().
  template <class Int> CBI_HD Task<Int> map(Int i, Shape<Int> s) const {
    switch (kind) {
    case OrderKind::tile:
      return Tile{param_w, param_h}.map(i, s);
    case OrderKind::column:
      return Column{param_w, false}.map(i, s);
    case OrderKind::zigzag:
      return Column{param_w, true}.map(i, s);
    default:
      return Linear{}.map(i, s);
    }
  }
  template <class Int> CBI_HD Int inverse(Task<Int> t, Shape<Int> s) const {
    switch (kind) {
    case OrderKind::tile:
      return Tile{param_w, param_h}.inverse(t, s);
    case OrderKind::column:
      return Column{param_w, false}.inverse(t, s);
    case OrderKind::zigzag:
      return Column{param_w, true}.inverse(t, s);
    default:
      return Linear{}.inverse(t, s);
    }
  }
};

// Calls f with the concrete order (Linear, Tile or Column) and returns its result.
template <class F> decltype(auto) visit(const Order &o, F &&f) {
  switch (o.kind) {
  case OrderKind::tile:
    return f(Tile{o.param_w, o.param_h});
  case OrderKind::column:
    return f(Column{o.param_w, false});
  case OrderKind::zigzag:
    return f(Column{o.param_w, true});
  default:
    return f(Linear{});
  }
}

inline const char *order_syntax() {
  return "linear, tile:T, tile:TWxTH, column:W, zigzag:W (T, TW, TH, W positive integers)";
}

// Parses an order; throws UsageError naming `option` on anything else.
inline Order parse_order(const std::string &text, const std::string &option = "--order") {
  if (text == "linear" || text == "naive")
    return {};
  const auto colon = text.find(':');
  const std::string name = text.substr(0, colon);
  if (colon == std::string::npos || (name != "tile" && name != "column" && name != "zigzag"))
    throw UsageError(option, "unknown order '" + text + "'; allowed: " + order_syntax());
  const std::string arg = text.substr(colon + 1);
  if (name == "tile") {
    const auto [w, h] = parse_extent(arg, option, /*square_ok=*/true);
    return {OrderKind::tile, w, h};
  }
  const long long w = parse_positive(arg, option);
  return {name == "column" ? OrderKind::column : OrderKind::zigzag, w, 0};
}

// The canonical spelling, e.g. "column:32", "tile:16x4"; parse_order(to_string(o)) == o.
inline std::string to_string(const Order &o) {
  switch (o.kind) {
  case OrderKind::tile:
    return o.param_w == o.param_h
               ? "tile:" + std::to_string(o.param_w)
               : "tile:" + std::to_string(o.param_w) + "x" + std::to_string(o.param_h);
  case OrderKind::column:
    return "column:" + std::to_string(o.param_w);
  case OrderKind::zigzag:
    return "zigzag:" + std::to_string(o.param_w);
  default:
    return "linear";
  }
}

} // namespace cbi::remap
