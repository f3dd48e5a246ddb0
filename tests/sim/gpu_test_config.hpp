// A GPU model configuration for the tests, in one line: workload, its size, the stencil's window
// (S x S; ignored by matmul), the order, threads per block and the device row.
#pragma once

#include "cbi/sim/gpu_model.hpp"

#include <cstdint>

namespace cbi::test {

inline sim::GpuConfig gpu_config(const char *workload, int64_t width, int64_t height, int64_t depth,
                                 int stencil, const char *order, int64_t block,
                                 const char *device) {
  sim::GpuConfig c;
  c.workload.kind = sim::parse_workload_kind(workload);
  c.workload.width = width;
  c.workload.height = height;
  c.workload.depth = depth;
  c.workload.stencil_w = c.workload.stencil_h = stencil;
  c.order = remap::parse_order(order);
  c.block_threads = block;
  c.device = sim::find_device(device);
  return c;
}

} // namespace cbi::test
