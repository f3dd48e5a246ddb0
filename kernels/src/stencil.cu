// The S_w x S_h box stencil of listing 3 (clamped coordinates, output at the task's own (x, y))
// three ways: a 1D grid whose thread ids are remapped by a thread order from remap/, a 2D grid
// (the thesis's stencil_tile), and a shared-memory tiled baseline whose thread blocks take their
// tiles in a block order from remap/. The naive kernels are instantiated for the common square
// windows (3x3 .. 11x11) with the window a compile-time constant, as the thesis's
// `#define STENCIL_SIZE`, so the loops unroll; other odd windows take a run-time fallback.
#include "element.cuh"
#include "launch.hpp"

#include "cbi/order_text.hpp" // the host-side kernel names
#include "cbi/remap/dispatch.hpp"

#include <cuda_pipeline.h>

#include <stdexcept>
#include <string>
#include <type_traits>

namespace cbi::kernels::detail {

namespace {

using remap::Shape;
using remap::Task;

// A compile-time window radius, or kRunTimeRadius for the fallback that reads it from the launch.
constexpr int kRunTimeRadius = -1;
constexpr int kMaxCompileTimeRadius = 5; // windows 3x3 .. 11x11

// Listing 3's inner loops for one task: clamp i and j independently, sum, scale. With a
// compile-time radius R the loops have constant bounds and unroll fully.
template <int R, class T>
__device__ __forceinline__ acc_t<T> window_mean(const T *__restrict__ in, int width, int height,
                                                int rx, int ry, acc_t<T> scale, int x, int y) {
  acc_t<T> sum = 0;
  if constexpr (R != kRunTimeRadius) {
#pragma unroll
    for (int dy = -R; dy <= R; ++dy) {
      const int i = min(height - 1, max(0, y + dy));
#pragma unroll
      for (int dx = -R; dx <= R; ++dx) {
        const int j = min(width - 1, max(0, x + dx));
        sum += to_acc(in[i * width + j]);
      }
    }
  } else {
    for (int dy = -ry; dy <= ry; ++dy) {
      const int i = min(height - 1, max(0, y + dy));
      for (int dx = -rx; dx <= rx; ++dx) {
        const int j = min(width - 1, max(0, x + dx));
        sum += to_acc(in[i * width + j]);
      }
    }
  }
  return sum * scale;
}

// The thesis's launch: thread i of a 1D grid computes task mapper.map(i) (listing 5 for column
// orders). The mapper is remap's: the order's exact map (--remap-math div) or its host-prepared
// Params (fast), the same functions the simulator and the tests call.
template <int R, class T, class Mapper>
__global__ void stencil_remap(const T *__restrict__ in, T *__restrict__ out, int width, int height,
                              int rx, int ry, acc_t<T> scale, Mapper mapper) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= width * height)
    return;
  const Task<int> t = mapper.map(tid);
  out[t.y * width + t.x] = from_acc<T>(window_mean<R>(in, width, height, rx, ry, scale, t.x, t.y));
}

// stencil_tile: a 2D grid, thread (x, y) computes task (x, y).
template <int R, class T>
__global__ void stencil_2d(const T *__restrict__ in, T *__restrict__ out, int width, int height,
                           int rx, int ry, acc_t<T> scale) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  out[y * width + x] = from_acc<T>(window_mean<R>(in, width, height, rx, ry, scale, x, y));
}

// Calls f(std::integral_constant<int, R>) with the compile-time radius for a square window of
// 3x3 .. 11x11, else with kRunTimeRadius.
template <class F> decltype(auto) visit_radius(int rx, int ry, F &&f) {
  if (rx == ry) {
    switch (rx) {
    case 1:
      return f(std::integral_constant<int, 1>{});
    case 2:
      return f(std::integral_constant<int, 2>{});
    case 3:
      return f(std::integral_constant<int, 3>{});
    case 4:
      return f(std::integral_constant<int, 4>{});
    case 5:
      return f(std::integral_constant<int, 5>{});
    default:
      break;
    }
  }
  return f(std::integral_constant<int, kRunTimeRadius>{});
}

// "9x9" for a compile-time window, "run-time" for the fallback: kernel names say which one ran.
std::string window_name(int r) {
  return r == kRunTimeRadius ? "run-time window"
                             : std::to_string(2 * r + 1) + "x" + std::to_string(2 * r + 1);
}
static_assert(kMaxCompileTimeRadius == 5, "visit_radius lists radii 1..5");

// Shared-memory tiling. A block of 256 threads computes a 64 x 32 output tile:
//  1. load the tile plus its clamped halo, (64 + 2 r_x) x (32 + 2 r_y), into shared memory;
//  2. horizontal window sums of every loaded row, 8 outputs per thread as a running sum
//     (S_w + 14 shared reads for 8 sums instead of 8 S_w);
//  3. vertical running sums of those, 8 rows per thread, written straight to global memory.
// The box is separable, so this is the same function as listing 3 summed in another order.
// Row pitches are odd (in 4-byte words for half) so that the lanes of a warp, one row each, fall
// into distinct banks.
constexpr int kSmemTileW = 64;
constexpr int kSmemTileH = 32;
constexpr int kSmemThreads = 256;
constexpr int kSmemRun = 8; // outputs per running sum

// The input tile holds the stored type T; the horizontal sums the accumulator type. Half is kept
// as half and copied in pairs (4-byte cp.async), so its tile starts at an even column: `pad`
// extra columns on the left when r_x is odd, and its pitch is an odd number of half pairs.
template <class T> struct SmemLayout {
  static constexpr bool kPairs = sizeof(T) == 2;
  int pad, rows_in, cols_in, pitch_in, pitch_h;
  __host__ __device__ SmemLayout(int rx, int ry)
      : pad(kPairs ? rx & 1 : 0), rows_in(kSmemTileH + 2 * ry),
        cols_in(kSmemTileW + 2 * rx + 2 * pad),
        pitch_in(kPairs ? ((cols_in / 2) | 1) * 2 : cols_in | 1), pitch_h(kSmemTileW + 1) {}
  // Bytes before the horizontal sums (a multiple of the accumulator's size), and in all.
  __host__ __device__ size_t tile_bytes() const {
    const size_t b = size_t(rows_in) * pitch_in * sizeof(T);
    return (b + sizeof(acc_t<T>) - 1) / sizeof(acc_t<T>) * sizeof(acc_t<T>);
  }
  __host__ __device__ size_t bytes() const {
    return tile_bytes() + size_t(rows_in) * pitch_h * sizeof(acc_t<T>);
  }
};

// Block k of the 1D grid computes tile block_order.map(k) of the grid of tiles (--block-order).
// Eight blocks per SM (at most 32 registers a thread, the SM's 2048 threads): at 40 registers
// (half, or a block order's remap) only six fit, and the loads in flight drop with them.
template <class T, class BlockMapper>
__global__ void __launch_bounds__(kSmemThreads, 8)
    stencil_smem(const T *__restrict__ in, T *__restrict__ out, int width, int height, int rx,
                 int ry, acc_t<T> scale, BlockMapper block_order) {
  using A = acc_t<T>;
  extern __shared__ unsigned char smem_raw[];
  const SmemLayout<T> L(rx, ry);
  T *tile = reinterpret_cast<T *>(smem_raw);
  A *hsum = reinterpret_cast<A *>(smem_raw + L.tile_bytes());
  const Task<int> block = block_order.map(int(blockIdx.x));
  const int x0 = block.x * kSmemTileW, y0 = block.y * kSmemTileH;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int sw = 2 * rx + 1, sh = 2 * ry + 1;

  // 1. Each warp loads whole rows: coalesced, no divisions. The loads are asynchronous copies
  //    (cp.async) straight into shared memory: every load of the tile is in flight at once and
  //    none holds a register. cp.async copies 4, 8 or 16 bytes, so half goes in pairs: a pair
  //    inside the row (on an even width, so that it is 4-byte aligned) is one copy, a pair that
  //    the clamp splits at the left or right edge is two plain loads.
  const int x_first = x0 - rx - L.pad; // the tile's first column (even for half)
  for (int r = warp; r < L.rows_in; r += kSmemThreads / 32) {
    const int gy = min(height - 1, max(0, y0 - ry + r));
    const T *row_in = in + size_t(gy) * width;
    if constexpr (SmemLayout<T>::kPairs) {
      for (int c = 2 * lane; c < L.cols_in; c += 64) {
        const int gx = x_first + c;
        if (gx >= 0 && gx + 1 < width && (width & 1) == 0) {
          __pipeline_memcpy_async(&tile[r * L.pitch_in + c], &row_in[gx], 2 * sizeof(T));
        } else {
          tile[r * L.pitch_in + c] = row_in[min(width - 1, max(0, gx))];
          tile[r * L.pitch_in + c + 1] = row_in[min(width - 1, max(0, gx + 1))];
        }
      }
    } else {
      for (int c = lane; c < L.cols_in; c += 32) {
        const int gx = min(width - 1, max(0, x_first + c));
        __pipeline_memcpy_async(&tile[r * L.pitch_in + c], &row_in[gx], sizeof(T));
      }
    }
  }
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();

  // 2. Consecutive lanes take consecutive rows of the same run.
  constexpr int runs_per_row = kSmemTileW / kSmemRun;
  for (int item = threadIdx.x; item < L.rows_in * runs_per_row; item += kSmemThreads) {
    const int r = item % L.rows_in, c0 = (item / L.rows_in) * kSmemRun;
    const T *row = tile + r * L.pitch_in + L.pad + c0;
    A s = 0;
    for (int k = 0; k < sw; ++k)
      s += to_acc(row[k]);
    A *dst = hsum + r * L.pitch_h + c0;
    dst[0] = s;
#pragma unroll
    for (int j = 1; j < kSmemRun; ++j) {
      s += to_acc(row[j + sw - 1]) - to_acc(row[j - 1]);
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

void check_cuda(cudaError_t e, const char *what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

template <class T>
LaunchInfo launch_typed(const BenchConfig &c, const LaunchContext &ctx, bool enqueue) {
  const T *in = static_cast<const T *>(ctx.a);
  T *out = static_cast<T *>(ctx.out);
  const int w = int(c.width), h = int(c.height), rx = c.stencil_w / 2, ry = c.stencil_h / 2;
  const acc_t<T> scale = acc_t<T>(1) / acc_t<T>(c.stencil_w * c.stencil_h);
  switch (c.kernel) {
  case KernelKind::stencil_2d:
    return visit_radius(rx, ry, [&](auto radius) {
      constexpr int R = decltype(radius)::value;
      LaunchInfo info;
      info.func = reinterpret_cast<const void *>(&stencil_2d<R, T>);
      info.name = std::string("stencil_2d<") + type_name<T>() + ", " + window_name(R) + ">";
      info.block = dim3(unsigned(c.block_x), unsigned(c.block_threads / c.block_x));
      info.grid = dim3(blocks_for(w, int(info.block.x)), blocks_for(h, int(info.block.y)));
      if (enqueue)
        stencil_2d<R, T><<<info.grid, info.block, 0, ctx.stream>>>(in, out, w, h, rx, ry, scale);
      return info;
    });
  case KernelKind::stencil_smem: {
    const remap::Shape<int> tiles{int(blocks_for(w, kSmemTileW)), int(blocks_for(h, kSmemTileH))};
    return remap::visit_params(c.block_order, tiles, [&](auto mapper) {
      using Mapper = decltype(mapper);
      LaunchInfo info;
      info.func = reinterpret_cast<const void *>(&stencil_smem<T, Mapper>);
      info.name = std::string("stencil_smem<") + type_name<T>() + ", blocks " +
                  remap::kind_name(c.block_order) + ">";
      info.block = dim3(kSmemThreads);
      info.grid = dim3(unsigned(tiles.width * tiles.height));
      info.dynamic_shared_bytes = SmemLayout<T>(rx, ry).bytes();
      if (enqueue) {
        check_cuda(cudaFuncSetAttribute(&stencil_smem<T, Mapper>,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        int(info.dynamic_shared_bytes)),
                   "cudaFuncSetAttribute(stencil_smem)");
        stencil_smem<T, Mapper><<<info.grid, info.block, info.dynamic_shared_bytes, ctx.stream>>>(
            in, out, w, h, rx, ry, scale, mapper);
      }
      return info;
    });
  }
  default:
    return visit_radius(rx, ry, [&](auto radius) {
      constexpr int R = decltype(radius)::value;
      return remap::visit_mapper(c.order, remap::Shape<int>{w, h}, c.remap_math, [&](auto mapper) {
        using Mapper = decltype(mapper);
        LaunchInfo i;
        i.func = reinterpret_cast<const void *>(&stencil_remap<R, T, Mapper>);
        i.name = std::string("stencil_remap<") + type_name<T>() + ", " + remap::kind_name(c.order) +
                 ", " + remap::to_string(c.remap_math) + ", " + window_name(R) + ">";
        i.block = dim3(unsigned(c.block_threads));
        i.grid = dim3(blocks_for((long long)w * h, c.block_threads));
        if (enqueue)
          stencil_remap<R, T, Mapper>
              <<<i.grid, i.block, 0, ctx.stream>>>(in, out, w, h, rx, ry, scale, mapper);
        return i;
      });
    });
  }
}

} // namespace

LaunchInfo launch_stencil(const BenchConfig &c, const LaunchContext &ctx, bool enqueue) {
  return visit_type(c.type, [&](auto t) { return launch_typed<decltype(t)>(c, ctx, enqueue); });
}

} // namespace cbi::kernels::detail
