// Small device helpers of the harness: the blocking kernel that makes event timing exact, and the
// probe that evaluates a thread order on the device for the tests.
#include "launch.hpp"

#include "cbi/remap/order.hpp"

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

template <class Order>
__global__ void task_probe(int width, int height, Order order, int *task_index) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= width * height)
    return;
  const remap::Task<int> t = order.template map<int>(tid, remap::Shape<int>{width, height});
  task_index[tid] = t.y * width + t.x;
}

} // namespace

void enqueue_wait_for_flag(volatile int *device_flag, cudaStream_t stream) {
  wait_for_flag<<<1, 1, 0, stream>>>(device_flag);
}

void launch_task_probe(const remap::Order &order, int width, int height, int block_threads,
                       int *task_index, cudaStream_t stream) {
  const long long tasks = (long long)width * height;
  const unsigned blocks = unsigned((tasks + block_threads - 1) / block_threads);
  remap::visit(order, [&](auto o) {
    task_probe<<<blocks, block_threads, 0, stream>>>(width, height, o, task_index);
  });
}

const char *order_kind_name(const remap::Order &o) {
  switch (o.kind) {
  case remap::OrderKind::tile:
    return "tile";
  case remap::OrderKind::column:
    return "column";
  case remap::OrderKind::zigzag:
    return "zigzag";
  default:
    return "linear";
  }
}

} // namespace cbi::kernels::detail
