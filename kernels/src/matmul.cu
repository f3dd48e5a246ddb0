// Matrix multiplication C = A B (A: I_h x D, B: D x I_w, row-major): listing 4 on a 1D grid with
// remapped thread ids, and a block-tiled, register-blocked, double-buffered SGEMM after seed 000.
#include "element.cuh"
#include "launch.hpp"
#include "sgemm_tiled.cuh"

#include "cbi/order_text.hpp" // the host-side kernel names
#include "cbi/remap/dispatch.hpp"

namespace cbi::kernels::detail {

namespace {

using remap::Shape;
using remap::Task;

// Listing 4, with thread i computing task mapper.map(i) (remap's exact map or its Params).
template <class T, class Mapper>
__global__ void matmul_remap(const T *__restrict__ a, const T *__restrict__ b, T *__restrict__ out,
                             int depth, int width, int height, Mapper mapper) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= width * height)
    return;
  const Task<int> t = mapper.map(tid);
  acc_t<T> result = 0;
  for (int i = 0; i < depth; ++i)
    result += to_acc(a[t.y * depth + i]) * to_acc(b[t.x + i * width]);
  out[t.y * width + t.x] = from_acc<T>(result);
}

unsigned blocks_for(long long tasks, int threads) {
  return static_cast<unsigned>((tasks + threads - 1) / threads);
}

template <class T>
LaunchInfo launch_remapped(const BenchConfig &c, const LaunchContext &ctx, bool enqueue) {
  const T *a = static_cast<const T *>(ctx.a);
  const T *b = static_cast<const T *>(ctx.b);
  T *out = static_cast<T *>(ctx.out);
  const int w = int(c.width), h = int(c.height), d = int(c.effective_depth());
  return remap::visit_mapper(c.order, Shape<int>{w, h}, c.remap_math, [&](auto mapper) {
    using Mapper = decltype(mapper);
    LaunchInfo i;
    i.func = reinterpret_cast<const void *>(&matmul_remap<T, Mapper>);
    i.name = std::string("matmul_remap<") + type_name<T>() + ", " + remap::kind_name(c.order) +
             ", " + remap::to_string(c.remap_math) + ">";
    i.block = dim3(unsigned(c.block_threads));
    i.grid = dim3(blocks_for((long long)w * h, c.block_threads));
    if (enqueue)
      matmul_remap<T, Mapper><<<i.grid, i.block, 0, ctx.stream>>>(a, b, out, d, w, h, mapper);
    return i;
  });
}

LaunchInfo launch_sgemm_tiled(const BenchConfig &c, const LaunchContext &ctx, bool enqueue) {
  const Shape<int> tiles{int(blocks_for(c.width, kBN)), int(blocks_for(c.height, kBM))};
  LaunchInfo info;
  info.func = reinterpret_cast<const void *>(&sgemm_tiled<>);
  info.name =
      std::string("sgemm_tiled<128x128x8, 8x8, blocks ") + remap::kind_name(c.block_order) + ">";
  info.block = dim3(kThreads);
  info.grid = dim3(unsigned(tiles.width * tiles.height));
  if (enqueue)
    sgemm_tiled<><<<info.grid, info.block, 0, ctx.stream>>>(
        static_cast<const float *>(ctx.a), static_cast<const float *>(ctx.b),
        static_cast<float *>(ctx.out), int(c.height), int(c.width), int(c.effective_depth()),
        c.block_order, tiles);
  return info;
}

} // namespace

LaunchInfo launch_matmul(const BenchConfig &c, const LaunchContext &ctx, bool enqueue) {
  if (c.kernel == KernelKind::sgemm_tiled)
    return launch_sgemm_tiled(c, ctx, enqueue);
  return visit_type(c.type, [&](auto t) { return launch_remapped<decltype(t)>(c, ctx, enqueue); });
}

} // namespace cbi::kernels::detail
