// A thread order chosen at run time (Order: a kind and up to two parameters), and the dispatch
// generated from the registry in orders.hpp: visit hands the concrete order type to templated code
// (simulator loops, CUDA kernel templates) so that the per-thread remap is inlined with no switch,
// and visit_mapper hands it over as a per-launch mapper, exact (listing 5's divisions) or fast
// (precomputed multiply-and-shift). Host and device; nothing here is host-only.
#pragma once

#include "cbi/remap/orders.hpp"

#include <cstddef>
#include <type_traits>
#include <utility>

namespace cbi::remap {

namespace detail {
template <std::size_t I, class List> struct At;
template <std::size_t I, class First, class... Rest> struct At<I, OrderList<First, Rest...>> {
  using type = typename At<I - 1, OrderList<Rest...>>::type;
};
template <class First, class... Rest> struct At<0, OrderList<First, Rest...>> {
  using type = First;
};
} // namespace detail

// The order type at index I of the registry, and the index of an order type.
template <std::size_t I> using OrderAt = typename detail::At<I, Orders>::type;
template <class O, std::size_t I = 0> constexpr OrderKind kind_of() {
  static_assert(I < Orders::size, "not a registered order");
  if constexpr (std::is_same_v<O, OrderAt<I>>)
    return static_cast<OrderKind>(I);
  else
    return kind_of<O, I + 1>();
}
static_assert(kind_of<Linear>() == OrderKind::linear && kind_of<Tile>() == OrderKind::tile &&
                  kind_of<Column>() == OrderKind::column && kind_of<Zigzag>() == OrderKind::zigzag,
              "OrderKind must list the orders in OrderList's order");

// How a remap divides: div keeps listing 5's exact integer arithmetic (to reproduce the thesis);
// fast uses the host-prepared FastDivmod Params (the default).
enum class RemapMath { div, fast };

struct Order {
  OrderKind kind = OrderKind::linear;
  long long param_w = 0; // tile width or column width
  long long param_h = 0; // tile height (tile only)

  template <class O> static constexpr Order of(O o) {
    return {kind_of<O>(), o.param_w(), o.param_h()};
  }

  // Runtime-dispatched exact map, for host code and tests; templated loops should prefer visit().
  template <class Int> CBI_HD Task<Int> map(Int i, Shape<Int> s) const { return map_at<0>(i, s); }
  template <class Int> CBI_HD Int inverse(Task<Int> t, Shape<Int> s) const {
    return inverse_at<0>(t, s);
  }

private:
  template <std::size_t I, class Int> CBI_HD Task<Int> map_at(Int i, Shape<Int> s) const {
    if constexpr (I + 1 < Orders::size) {
      if (static_cast<std::size_t>(kind) != I)
        return map_at<I + 1>(i, s);
    }
    return OrderAt<I>::make(param_w, param_h).map(i, s);
  }
  template <std::size_t I, class Int> CBI_HD Int inverse_at(Task<Int> t, Shape<Int> s) const {
    if constexpr (I + 1 < Orders::size) {
      if (static_cast<std::size_t>(kind) != I)
        return inverse_at<I + 1>(t, s);
    }
    return OrderAt<I>::make(param_w, param_h).inverse(t, s);
  }
};

// Calls f with the concrete order (Linear, Tile, Column or Zigzag) and returns its result.
template <class F, std::size_t I = 0> decltype(auto) visit(const Order &o, F &&f) {
  if constexpr (I + 1 < Orders::size) {
    if (static_cast<std::size_t>(o.kind) != I)
      return visit<F, I + 1>(o, std::forward<F>(f));
  }
  return f(OrderAt<I>::make(o.param_w, o.param_h));
}

// A per-launch mapper with listing 5's exact arithmetic: map(i) = order.map(i, shape).
template <class O> struct ExactMapper {
  O order;
  Shape<int> shape;
  CBI_HD Task<int> map(int i) const { return order.map(i, shape); }
  CBI_HD int inverse(Task<int> t) const { return order.inverse(t, shape); }
};

// Calls f with the order's host-prepared Params for `shape` (fast division only). Precondition:
// fast_math_exact(shape).
template <class F> decltype(auto) visit_params(const Order &o, Shape<int> shape, F &&f) {
  return visit(o, [&](auto order) { return f(typename decltype(order)::Params(order, shape)); });
}

// Calls f with a mapper for `shape`: ExactMapper<O> for div, O::Params for fast; both have
// CBI_HD map(int) -> Task<int>. Precondition for fast: fast_math_exact(shape) (the caller checks
// it on the host; kernels' validate() does).
template <class F>
decltype(auto) visit_mapper(const Order &o, Shape<int> shape, RemapMath math, F &&f) {
  return visit(o, [&](auto order) {
    using O = decltype(order);
    if (math == RemapMath::div)
      return f(ExactMapper<O>{order, shape});
    return f(typename O::Params(order, shape));
  });
}

// Every registered order declares the traits of order_traits.hpp, so that no engine switches on its
// kind.
namespace detail {
template <class O, class = void> struct HasTraits : std::false_type {};
template <class O>
struct HasTraits<
    O, std::void_t<decltype(O::rule), decltype(O::groups), decltype(O::valid(1LL, 1LL)),
                   decltype(std::declval<const O &>().model_shape()),
                   decltype(std::declval<const O &>().group(Task<long long>{}, Shape<long long>{})),
                   decltype(std::declval<const O &>().exact_math_fits(1LL, 1LL)),
                   decltype(std::declval<const O &>().remap_instructions()),
                   decltype(std::declval<const O &>().fast_remap_instructions())>>
    : std::true_type {};
template <class... Os> constexpr bool all_have_traits(OrderList<Os...>) {
  return (HasTraits<Os>::value && ...);
}
} // namespace detail
static_assert(detail::all_have_traits(Orders{}),
              "every order in OrderList declares rule, groups, valid, model_shape, group, "
              "exact_math_fits, remap_instructions and fast_remap_instructions (order_traits.hpp)");

// The traits of a runtime order (host side).
inline bool valid(const Order &o) {
  return visit(o, [&](auto order) { return decltype(order)::valid(o.param_w, o.param_h); });
}
inline const char *group_name(const Order &o) {
  return visit(o, [](auto order) { return decltype(order)::groups; });
}
inline ModelShape model_shape(const Order &o) {
  return visit(o, [](auto order) { return order.model_shape(); });
}
template <class Int> Int group_of(const Order &o, Task<Int> t, Shape<Int> s) {
  return visit(o, [&](auto order) { return order.group(t, s); });
}
inline bool exact_math_fits(const Order &o, long long width, long long height) {
  return visit(o, [&](auto order) { return order.exact_math_fits(width, height); });
}
inline double remap_instructions(const Order &o) {
  return visit(o, [](auto order) { return order.remap_instructions(); });
}
inline double fast_remap_instructions(const Order &o) {
  return visit(o, [](auto order) { return order.fast_remap_instructions(); });
}

} // namespace cbi::remap
