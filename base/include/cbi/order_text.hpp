// The host-only text side of remap's thread orders (target cbi::base), generated from the
// registry (cbi/remap/orders.hpp): parsing ("column:32"), the canonical spelling, and the syntax
// line of the help text. It lives beside cbi/error.hpp, not in remap/, because parsing throws
// cbi::UsageError: remap stays header-only and free of host-only code. The functions keep remap's
// namespace, as the text side of remap::Order.
#pragma once

#include "cbi/error.hpp"
#include "cbi/parse.hpp"
#include "cbi/remap/dispatch.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

namespace cbi::remap {

namespace detail {

template <std::size_t... I> std::string order_syntax_list(std::index_sequence<I...>) {
  std::string s;
  ((s += (I == 0 ? "" : ", "), s += OrderAt<I>::syntax), ...);
  return s;
}

// "; hilbert:S: S a power of two" for every order with a rule beyond "positive".
template <std::size_t... I> std::string order_rules(std::index_sequence<I...>) {
  std::string s;
  ((s += *OrderAt<I>::rule ? std::string("; ") + OrderAt<I>::syntax + ": " + OrderAt<I>::rule
                           : std::string()),
   ...);
  return s;
}

// Parses the text after "name:" by the order's parameter form.
// A malformed parameter ("tile:3x", "column:abc", "column:0") names the whole order and its
// spelling, not the bare fragment that failed ("'' is not a positive integer").
template <class O> Order parse_params(const std::string &arg, const std::string &option) {
  long long w = 0, h = 0;
  const long long max = O::form == ParamForm::extent ? 1LL << 30 : (1LL << 31) - 1;
  try {
    if constexpr (O::form == ParamForm::extent)
      std::tie(w, h) = parse_extent(arg, option, /*square_ok=*/true, max);
    else
      w = parse_positive(arg, option, max);
  } catch (const UsageError &) {
    // column:0 was told "from 1 to 2147483647": the bound is named only where a number passed it.
    bool past_max = false;
    for (std::size_t at = 0; (at = arg.find_first_of("0123456789", at)) != std::string::npos;) {
      const std::size_t end = std::min(arg.find_first_not_of("0123456789", at), arg.size());
      past_max = past_max || digits_value(arg.substr(at, end - at), max) < 0;
      at = end;
    }
    throw UsageError(option, std::string("'") + O::name + ":" + arg +
                                 "' has a bad parameter; allowed: " + O::syntax +
                                 " with positive integers " +
                                 (past_max ? "from 1 to " + limit_text(max) : "(1 or more)") +
                                 (*O::rule ? std::string("; ") + O::rule : std::string()));
  }
  if (!O::valid(w, h))
    throw UsageError(option, std::string("'") + O::name + ":" + arg +
                                 "' is not allowed; allowed: " + O::syntax + " with " + O::rule);
  return Order::of(O::make(w, h));
}

template <std::size_t I = 0>
bool parse_named(const std::string &name, const std::string &arg, bool has_arg,
                 const std::string &option, Order &out) {
  if constexpr (I < Orders::size) {
    using O = OrderAt<I>;
    const bool named = name == O::name || (O::alias != nullptr && name == O::alias);
    // "tile" and "linear:3" were an "unknown order": the order is known, its parameter is not.
    if (named && has_arg != (O::form != ParamForm::none))
      throw UsageError(option, "'" + name + (has_arg ? ":" + arg : "") + "' " +
                                   (has_arg ? "takes no parameter" : "needs a parameter") +
                                   "; allowed: " + O::syntax +
                                   (has_arg ? "" : " with positive integers (1 or more)") +
                                   (!has_arg && *O::rule ? std::string("; ") + O::rule : ""));
    if (named) {
      if constexpr (O::form == ParamForm::none)
        out = Order::of(O{});
      else
        out = parse_params<O>(arg, option);
      return true;
    }
    return parse_named<I + 1>(name, arg, has_arg, option, out);
  } else {
    return false;
  }
}

} // namespace detail

// "linear, tile:T, tile:TWxTH, column:W, zigzag:W, hilbert:S (positive integers; hilbert:S: S a
// power of two)", from the registry.
inline const char *order_syntax() {
  static const std::string syntax =
      detail::order_syntax_list(std::make_index_sequence<Orders::size>()) + " (positive integers" +
      detail::order_rules(std::make_index_sequence<Orders::size>()) + ")";
  return syntax.c_str();
}

// Parses an order; throws UsageError naming `option` on anything else.
inline Order parse_order(const std::string &text, const std::string &option = "--order") {
  const auto colon = text.find(':');
  const bool has_arg = colon != std::string::npos;
  Order o;
  if (!detail::parse_named(text.substr(0, colon), has_arg ? text.substr(colon + 1) : "", has_arg,
                           option, o))
    throw UsageError(option, "unknown order '" + text + "'; allowed: " + order_syntax());
  return o;
}

// The canonical spelling, e.g. "column:32", "tile:16x4"; parse_order(to_string(o)) == o.
inline std::string to_string(const Order &o) {
  return visit(o, [](auto order) -> std::string {
    using O = decltype(order);
    const std::string name = O::name;
    if constexpr (O::form == ParamForm::none)
      return name;
    else if constexpr (O::form == ParamForm::width)
      return name + ":" + std::to_string(order.param_w());
    else if (order.param_w() == order.param_h())
      return name + ":" + std::to_string(order.param_w());
    else
      return name + ":" + std::to_string(order.param_w()) + "x" + std::to_string(order.param_h());
  });
}

// "column" etc.: the order's name without its parameters.
// A list of orders as the user gave them, each parsed, and none given twice (tile:4 and tile:4x4
// are one order): "--order: 'linear' is given twice; allowed: each order once".
inline std::vector<Order> parse_orders(const std::vector<std::string> &texts,
                                       const std::string &option = "--order",
                                       const std::string &allowed = "each order once") {
  std::vector<Order> orders;
  std::vector<std::string> canonical;
  for (const std::string &text : texts) {
    orders.push_back(parse_order(text, option));
    canonical.push_back(to_string(orders.back()));
  }
  refuse_repeats(texts, canonical, option, allowed);
  return orders;
}

inline const char *kind_name(const Order &o) {
  return visit(o, [](auto order) -> const char * { return decltype(order)::name; });
}

inline const char *to_string(RemapMath m) { return m == RemapMath::div ? "div" : "fast"; }

inline const char *remap_math_syntax() { return "div, fast"; }

// "div" or "fast"; throws UsageError naming `option` on anything else.
inline RemapMath parse_remap_math(const std::string &text,
                                  const std::string &option = "--remap-math") {
  if (text == "div")
    return RemapMath::div;
  if (text == "fast")
    return RemapMath::fast;
  throw UsageError(option, "unknown remap math '" + text + "'; allowed: " + remap_math_syntax());
}

} // namespace cbi::remap
