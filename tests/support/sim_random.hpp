// Random thread orders and cache levels for the simulator's property tests (tests/sim/).
#pragma once

#include "cbi/remap/order.hpp"
#include "cbi/sim/cache.hpp"

#include <algorithm>
#include <random>

namespace cbi::test {

// Any registered order (a new one is covered without an edit here), its parameters as its form
// spells them (none, a width up to the grid's width + 3, or an extent up to 9 high), drawn until
// the order's own valid() allows them.
inline remap::Order random_order(std::mt19937_64 &rng, int64_t width) {
  remap::Order o;
  o.kind = static_cast<remap::OrderKind>(rng() % remap::Orders::size);
  const remap::ParamForm form = remap::visit(o, [](auto order) { return decltype(order)::form; });
  do {
    o.param_w = form == remap::ParamForm::none
                    ? 0
                    : 1 + static_cast<long long>(rng() % static_cast<uint64_t>(width + 3));
    o.param_h = form == remap::ParamForm::extent ? 1 + static_cast<long long>(rng() % 9) : 0;
  } while (!remap::valid(o));
  return o;
}

inline sim::CacheConfig random_level(std::mt19937_64 &rng, int64_t min_line_bytes) {
  sim::CacheConfig c;
  c.line_bytes = std::max<int64_t>(min_line_bytes, int64_t{8} << (rng() % 5)); // 8..128
  const int64_t ways[] = {0, 1, 2, 4, 8};
  c.ways = ways[rng() % 5];
  c.capacity_lines = c.ways == 0 ? 1 + static_cast<int64_t>(rng() % 200)
                                 : c.ways * (1 + static_cast<int64_t>(rng() % 16));
  const sim::Policy policies[] = {sim::Policy::lru, sim::Policy::fifo, sim::Policy::random,
                                  sim::Policy::volta};
  c.policy = policies[rng() % 4];
  if (c.policy == sim::Policy::volta && c.ways_effective() < 4)
    c.policy = sim::Policy::lru;
  if (c.line_bytes >= 64 && rng() % 3 == 0)
    c.sector_bytes = 32;
  c.seed = rng();
  return c;
}

} // namespace cbi::test
