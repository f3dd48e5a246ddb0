// The S_w x S_h box stencil of listing 3 (clamped coordinates, output at the task's own (x, y))
// three ways: a 1D grid whose thread ids are remapped by a thread order from remap/, a 2D grid
// (the thesis's stencil_tile), and a shared-memory tiled baseline.
#include "element.cuh"
#include "launch.hpp"

#include "cbi/remap/order.hpp"

#include <cuda_pipeline.h>

#include <type_traits>

namespace cbi::kernels::detail {

namespace {

using remap::Shape;
using remap::Task;

// Listing 3's inner loops for one task: clamp i and j independently, sum, scale.
template <class T>
__device__ __forceinline__ acc_t<T> window_mean(const T *__restrict__ in, int width, int height,
                                                int rx, int ry, acc_t<T> scale, int x, int y) {
  acc_t<T> sum = 0;
  for (int dy = -ry; dy <= ry; ++dy) {
    const int i = min(height - 1, max(0, y + dy));
    for (int dx = -rx; dx <= rx; ++dx) {
      const int j = min(width - 1, max(0, x + dx));
      sum += to_acc(in[i * width + j]);
    }
  }
  return sum * scale;
}

// The thesis's launch: thread i of a 1D grid computes task order.map(i) (listing 5 for column
// orders). The remap is the one the simulator calls, inlined through Order's concrete type.
template <class T, class Order>
__global__ void stencil_remap(const T *__restrict__ in, T *__restrict__ out, int width, int height,
                              int rx, int ry, acc_t<T> scale, Order order) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= width * height)
    return;
  const Task<int> t = order.template map<int>(tid, Shape<int>{width, height});
  out[t.y * width + t.x] = from_acc<T>(window_mean(in, width, height, rx, ry, scale, t.x, t.y));
}

// stencil_tile: a 2D grid, thread (x, y) computes task (x, y).
template <class T>
__global__ void stencil_2d(const T *__restrict__ in, T *__restrict__ out, int width, int height,
                           int rx, int ry, acc_t<T> scale) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  out[y * width + x] = from_acc<T>(window_mean(in, width, height, rx, ry, scale, x, y));
}

// Shared-memory tiling. A block of 256 threads computes a 64 x 32 output tile:
//  1. load the tile plus its clamped halo, (64 + 2 r_x) x (32 + 2 r_y), into shared memory;
//  2. horizontal window sums of every loaded row, 8 outputs per thread as a running sum
//     (S_w + 14 shared reads for 8 sums instead of 8 S_w);
//  3. vertical running sums of those, 8 rows per thread, written straight to global memory.
// The box is separable, so this is the same function as listing 3 summed in another order.
// Row pitches are odd so that the lanes of a warp, one row each, fall into distinct banks.
constexpr int kSmemTileW = 64;
constexpr int kSmemTileH = 32;
constexpr int kSmemThreads = 256;
constexpr int kSmemRun = 8; // outputs per running sum

struct SmemLayout {
  int rows_in, cols_in, pitch_in, pitch_h;
  __host__ __device__ SmemLayout(int rx, int ry)
      : rows_in(kSmemTileH + 2 * ry), cols_in(kSmemTileW + 2 * rx), pitch_in(cols_in | 1),
        pitch_h(kSmemTileW + 1) {}
  __host__ __device__ int elements() const { return rows_in * (pitch_in + pitch_h); }
};

template <class T>
__global__ void __launch_bounds__(kSmemThreads)
    stencil_smem(const T *__restrict__ in, T *__restrict__ out, int width, int height, int rx,
                 int ry, acc_t<T> scale) {
  using A = acc_t<T>;
  extern __shared__ unsigned char smem_raw[];
  A *tile = reinterpret_cast<A *>(smem_raw);
  const SmemLayout L(rx, ry);
  A *hsum = tile + L.rows_in * L.pitch_in;
  const int x0 = blockIdx.x * kSmemTileW, y0 = blockIdx.y * kSmemTileH;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int sw = 2 * rx + 1, sh = 2 * ry + 1;

  // 1. Each warp loads whole rows: coalesced, no divisions. Where the accumulator is the stored
  //    type (float, double), the loads are asynchronous copies (cp.async) straight into shared
  //    memory: every load of the tile is in flight at once and none holds a register. Half is
  //    widened to float on the way, which cp.async cannot do, so it loads through registers.
  for (int r = warp; r < L.rows_in; r += kSmemThreads / 32) {
    const int gy = min(height - 1, max(0, y0 - ry + r));
    for (int c = lane; c < L.cols_in; c += 32) {
      const int gx = min(width - 1, max(0, x0 - rx + c));
      if constexpr (std::is_same_v<T, A>)
        __pipeline_memcpy_async(&tile[r * L.pitch_in + c], &in[gy * width + gx], sizeof(T));
      else
        tile[r * L.pitch_in + c] = to_acc(in[gy * width + gx]);
    }
  }
  if constexpr (std::is_same_v<T, A>) {
    __pipeline_commit();
    __pipeline_wait_prior(0);
  }
  __syncthreads();

  // 2. Consecutive lanes take consecutive rows of the same run.
  constexpr int runs_per_row = kSmemTileW / kSmemRun;
  for (int item = threadIdx.x; item < L.rows_in * runs_per_row; item += kSmemThreads) {
    const int r = item % L.rows_in, c0 = (item / L.rows_in) * kSmemRun;
    const A *row = tile + r * L.pitch_in + c0;
    A s = 0;
    for (int k = 0; k < sw; ++k)
      s += row[k];
    A *dst = hsum + r * L.pitch_h + c0;
    dst[0] = s;
#pragma unroll
    for (int j = 1; j < kSmemRun; ++j) {
      s += row[j + sw - 1] - row[j - 1];
      dst[j] = s;
    }
  }
  __syncthreads();

  // 3. Consecutive lanes take consecutive columns: coalesced stores.
  constexpr int runs_per_col = kSmemTileH / kSmemRun;
  for (int item = threadIdx.x; item < kSmemTileW * runs_per_col; item += kSmemThreads) {
    const int c = item % kSmemTileW, r0 = (item / kSmemTileW) * kSmemRun;
    const int gx = x0 + c;
    const A *col = hsum + r0 * L.pitch_h + c;
    A s = 0;
    for (int k = 0; k < sh; ++k)
      s += col[k * L.pitch_h];
#pragma unroll
    for (int j = 0; j < kSmemRun; ++j) {
      if (j > 0)
        s += col[(j + sh - 1) * L.pitch_h] - col[(j - 1) * L.pitch_h];
      const int gy = y0 + r0 + j;
      if (gx < width && gy < height)
        out[gy * width + gx] = from_acc<T>(s * scale);
    }
  }
}

unsigned blocks_for(long long tasks, int threads) {
  return static_cast<unsigned>((tasks + threads - 1) / threads);
}

template <class T>
LaunchInfo launch_typed(const BenchConfig &c, const LaunchContext &ctx, bool enqueue) {
  const T *in = static_cast<const T *>(ctx.a);
  T *out = static_cast<T *>(ctx.out);
  const int w = int(c.width), h = int(c.height), rx = c.stencil_w / 2, ry = c.stencil_h / 2;
  const acc_t<T> scale = acc_t<T>(1) / acc_t<T>(c.stencil_w * c.stencil_h);
  LaunchInfo info;
  switch (c.kernel) {
  case KernelKind::stencil_2d: {
    info.func = reinterpret_cast<const void *>(&stencil_2d<T>);
    info.name = std::string("stencil_2d<") + type_name<T>() + ">";
    info.block = dim3(unsigned(c.block_x), unsigned(c.block_threads / c.block_x));
    info.grid = dim3(blocks_for(w, int(info.block.x)), blocks_for(h, int(info.block.y)));
    if (enqueue)
      stencil_2d<T><<<info.grid, info.block, 0, ctx.stream>>>(in, out, w, h, rx, ry, scale);
    return info;
  }
  case KernelKind::stencil_smem: {
    info.func = reinterpret_cast<const void *>(&stencil_smem<T>);
    info.name = std::string("stencil_smem<") + type_name<T>() + ">";
    info.block = dim3(kSmemThreads);
    info.grid = dim3(blocks_for(w, kSmemTileW), blocks_for(h, kSmemTileH));
    info.dynamic_shared_bytes = size_t(SmemLayout(rx, ry).elements()) * sizeof(acc_t<T>);
    if (enqueue) {
      cudaFuncSetAttribute(&stencil_smem<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                           int(info.dynamic_shared_bytes));
      stencil_smem<T><<<info.grid, info.block, info.dynamic_shared_bytes, ctx.stream>>>(
          in, out, w, h, rx, ry, scale);
    }
    return info;
  }
  default:
    return remap::visit(c.order, [&](auto order) {
      using Order = decltype(order);
      LaunchInfo i;
      i.func = reinterpret_cast<const void *>(&stencil_remap<T, Order>);
      i.name =
          std::string("stencil_remap<") + type_name<T>() + ", " + order_kind_name(c.order) + ">";
      i.block = dim3(unsigned(c.block_threads));
      i.grid = dim3(blocks_for((long long)w * h, c.block_threads));
      if (enqueue)
        stencil_remap<T, Order>
            <<<i.grid, i.block, 0, ctx.stream>>>(in, out, w, h, rx, ry, scale, order);
      return i;
    });
  }
}

} // namespace

LaunchInfo launch_stencil(const BenchConfig &c, const LaunchContext &ctx, bool enqueue) {
  return visit_type(c.type, [&](auto t) { return launch_typed<decltype(t)>(c, ctx, enqueue); });
}

} // namespace cbi::kernels::detail
