// Small device helpers of the harness: the blocking kernel that makes event timing exact, and the
// probe that evaluates a thread order on the device for the tests.
#include "launch.hpp"

#include "cbi/remap/dispatch.hpp"

namespace cbi::kernels::detail {

namespace {

// Spins until the host sets *flag (or about ten seconds pass, so a lost flag cannot hang the GPU).
__global__ void wait_for_flag(volatile int *flag) {
  const long long start = clock64();
  while (*flag == 0) {
    if (clock64() - start > 20'000'000'000LL)
      break;
  }
}

template <class Mapper>
__global__ void task_probe(int width, int height, Mapper mapper, int *task_index) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= width * height)
    return;
  const remap::Task<int> t = mapper.map(tid);
  task_index[tid] = t.y * width + t.x;
}

} // namespace

void enqueue_wait_for_flag(volatile int *device_flag, cudaStream_t stream) {
  wait_for_flag<<<1, 1, 0, stream>>>(device_flag);
}

void launch_task_probe(const remap::Order &order, remap::RemapMath math, int width, int height,
                       int block_threads, int *task_index, cudaStream_t stream) {
  const long long tasks = (long long)width * height;
  const unsigned blocks = unsigned((tasks + block_threads - 1) / block_threads);
  remap::visit_mapper(order, remap::Shape<int>{width, height}, math, [&](auto mapper) {
    task_probe<<<blocks, block_threads, 0, stream>>>(width, height, mapper, task_index);
  });
}

} // namespace cbi::kernels::detail
