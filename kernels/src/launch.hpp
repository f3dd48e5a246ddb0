// Internal to kernels/: how the harness launches each kernel family. One entry point per family
// turns a BenchConfig into a launch, so timing, checking and profiling all run the same call.
#pragma once

#include "cbi/kernels/config.hpp"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <string>

namespace cbi::kernels::detail {

struct LaunchContext {
  cudaStream_t stream = nullptr;
  const void *a = nullptr; // stencil input, or matmul A (I_h x D)
  const void *b = nullptr; // matmul B (D x I_w)
  void *out = nullptr;     // I_w x I_h output
};

struct LaunchInfo {
  const void *func = nullptr; // the __global__ function, for cudaFuncGetAttributes; null for cuBLAS
  std::string name;           // "stencil_remap<float, column>"
  dim3 grid{1, 1, 1};
  dim3 block{1, 1, 1};
  size_t dynamic_shared_bytes = 0;
};

// With enqueue false, only describes the launch (for the resource report); otherwise launches on
// ctx.stream and returns the same description. Launch errors are left for the caller to read.
LaunchInfo launch_stencil(const BenchConfig &c, const LaunchContext &ctx, bool enqueue);
LaunchInfo launch_matmul(const BenchConfig &c, const LaunchContext &ctx, bool enqueue);
LaunchInfo launch_cublas(const BenchConfig &c, const LaunchContext &ctx, bool enqueue);
// Destroys the process-wide cuBLAS handle (created on the first cuBLAS launch), if any.
void release_cublas();

inline LaunchInfo launch(const BenchConfig &c, const LaunchContext &ctx, bool enqueue) {
  if (c.kernel == KernelKind::cublas)
    return launch_cublas(c, ctx, enqueue);
  return is_stencil(c.kernel) ? launch_stencil(c, ctx, enqueue) : launch_matmul(c, ctx, enqueue);
}

// nvbench's blocking kernel: holds the stream until the host sets *flag, so that the start event,
// the kernel and the stop event run back to back, free of host launch latency.
void enqueue_wait_for_flag(volatile int *device_flag, cudaStream_t stream);

// Writes y * I_w + x of the task thread i computes under `order` (with `math`) to task_index[i].
void launch_task_probe(const remap::Order &order, remap::RemapMath math, int width, int height,
                       int block_threads, int *task_index, cudaStream_t stream);

} // namespace cbi::kernels::detail
