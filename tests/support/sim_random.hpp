// Random thread orders and cache levels for the simulator's property tests (tests/sim/).
#pragma once

#include "cbi/remap/order.hpp"
#include "cbi/sim/cache.hpp"

#include <algorithm>
#include <random>

namespace cbi::test {

inline remap::Order random_order(std::mt19937_64 &rng, int64_t width) {
  remap::Order o;
  switch (rng() % 4) {
  case 0:
    return o;
  case 1:
    o.kind = remap::OrderKind::tile;
    o.param_w = 1 + static_cast<long long>(rng() % 9);
    o.param_h = 1 + static_cast<long long>(rng() % 9);
    return o;
  case 2:
    o.kind = remap::OrderKind::column;
    break;
  default:
    o.kind = remap::OrderKind::zigzag;
  }
  o.param_w = 1 + static_cast<long long>(rng() % static_cast<uint64_t>(width + 3));
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
