// The tiny device's reference (tests/sim): the sequential simulator through the two levels that
// the tiny device's L1 (fully associative, LRU) and L2 (its ways, LRU) are, 128-byte lines of
// 32-byte sectors, in the GPU config's order. Its counts are what simulate_gpu must give on the
// tiny device without stores.
#pragma once

#include "cbi/sim/gpu_model.hpp"
#include "cbi/sim/simulate.hpp"

namespace cbi::test {

// The two levels as a sequential configuration of the GPU config's workload and order.
inline sim::SimConfig tiny_config(const sim::GpuConfig &g) {
  sim::SimConfig s;
  s.workload = g.workload;
  s.order = g.order;
  sim::CacheConfig l1, l2;
  l1.line_bytes = l2.line_bytes = 128;
  l1.sector_bytes = l2.sector_bytes = 32;
  l1.capacity_lines = g.device.l1_bytes / 128;
  l1.ways = 0;
  l2.capacity_lines = g.device.l2_bytes / 128;
  l2.ways = g.device.l2_ways;
  s.levels = {l1, l2};
  return s;
}

inline sim::SimResult tiny_sequential(const sim::GpuConfig &g) {
  return sim::simulate(tiny_config(g));
}

} // namespace cbi::test
