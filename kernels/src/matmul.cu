// Matrix multiplication C = A B (A: I_h x D, B: D x I_w, row-major): listing 4 on a 1D grid with
// remapped thread ids, and a block-tiled, register-blocked, double-buffered SGEMM after seed 000.
#include "element.cuh"
#include "launch.hpp"

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

// Seed 000, algorithm 3: a 128 x 128 block tile of C per 256 threads, an 8 x 8 thread tile held in
// registers, K consumed 8 at a time through two shared-memory buffers so that the next tile's
// global loads overlap this tile's arithmetic and one barrier per step suffices. A is stored
// transposed in shared memory so both fragments load as float4. The thread tile is interleaved
// (rows ty*4 + {0..3} and 64 + ty*4 + {0..3}) so that the warp's fragment loads and C stores are
// contiguous (seed 000, 1.1.2). Edges load zeros and skip stores (1.1.3). Block k of the 1D grid
// computes block tile block_order.map(k) of the grid of tiles (--block-order): column:W over tiles
// is CUTLASS's threadblock swizzle, tile:TWxTH Triton's grouped ordering.
constexpr int kBM = 128, kBN = 128, kBK = 8, kThreads = 256;
constexpr int kPadA = 4; // breaks the 2-way bank conflict of the transposed A stores

// Two blocks per SM (at most 128 registers a thread): the 1D grid's block remap otherwise pushes
// the kernel to 130-147 registers and one block per SM.
template <class BlockMapper>
__global__ void __launch_bounds__(kThreads, 2)
    sgemm_tiled(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                int M, int N, int K, BlockMapper block_order) {
  __shared__ __align__(16) float As[2][kBK][kBM + kPadA];
  __shared__ __align__(16) float Bs[2][kBK][kBN];
  const int tid = threadIdx.x;
  const Task<int> block = block_order.map(int(blockIdx.x));
  const int m0 = block.y * kBM, n0 = block.x * kBN;
  const bool vec_a = (K % 4) == 0, vec_b = (N % 4) == 0;

  // Global -> register staging: each thread brings one float4 of A and one of B per step.
  const int a_row = tid / 2, a_col = (tid % 2) * 4;   // A tile: 128 rows x 8 columns
  const int b_row = tid / 32, b_col = (tid % 32) * 4; // B tile: 8 rows x 128 columns
  float4 a_reg, b_reg;
  auto load = [&](int k0) {
    const int gm = m0 + a_row, gk = k0 + a_col;
    if (vec_a && gm < M && gk + 3 < K) {
      a_reg = *reinterpret_cast<const float4 *>(A + size_t(gm) * K + gk);
    } else {
      const float *p = A + size_t(gm) * K;
      a_reg.x = (gm < M && gk + 0 < K) ? p[gk + 0] : 0.f;
      a_reg.y = (gm < M && gk + 1 < K) ? p[gk + 1] : 0.f;
      a_reg.z = (gm < M && gk + 2 < K) ? p[gk + 2] : 0.f;
      a_reg.w = (gm < M && gk + 3 < K) ? p[gk + 3] : 0.f;
    }
    const int bk = k0 + b_row, gn = n0 + b_col;
    if (vec_b && bk < K && gn + 3 < N) {
      b_reg = *reinterpret_cast<const float4 *>(B + size_t(bk) * N + gn);
    } else {
      const float *p = B + size_t(bk) * N;
      b_reg.x = (bk < K && gn + 0 < N) ? p[gn + 0] : 0.f;
      b_reg.y = (bk < K && gn + 1 < N) ? p[gn + 1] : 0.f;
      b_reg.z = (bk < K && gn + 2 < N) ? p[gn + 2] : 0.f;
      b_reg.w = (bk < K && gn + 3 < N) ? p[gn + 3] : 0.f;
    }
  };
  auto store = [&](int buf) {
    As[buf][a_col + 0][a_row] = a_reg.x;
    As[buf][a_col + 1][a_row] = a_reg.y;
    As[buf][a_col + 2][a_row] = a_reg.z;
    As[buf][a_col + 3][a_row] = a_reg.w;
    *reinterpret_cast<float4 *>(&Bs[buf][b_row][b_col]) = b_reg;
  };

  const int ty = tid / 16, tx = tid % 16;
  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j)
      acc[i][j] = 0.f;

  load(0);
  store(0);
  __syncthreads();
  int buf = 0;
  for (int k0 = 0; k0 < K; k0 += kBK) {
    const bool has_next = k0 + kBK < K;
    if (has_next)
      load(k0 + kBK); // in flight during the arithmetic below
#pragma unroll
    for (int k = 0; k < kBK; ++k) {
      const float4 a0 = *reinterpret_cast<const float4 *>(&As[buf][k][ty * 4]);
      const float4 a1 = *reinterpret_cast<const float4 *>(&As[buf][k][64 + ty * 4]);
      const float4 b0 = *reinterpret_cast<const float4 *>(&Bs[buf][k][tx * 4]);
      const float4 b1 = *reinterpret_cast<const float4 *>(&Bs[buf][k][64 + tx * 4]);
      const float af[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float bf[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
          acc[i][j] = fmaf(af[i], bf[j], acc[i][j]);
    }
    if (has_next)
      store(buf ^ 1); // the other buffer: everyone finished reading it before the last barrier
    __syncthreads();
    buf ^= 1;
  }

#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int m = m0 + (i < 4 ? 0 : 64) + ty * 4 + (i % 4);
    if (m >= M)
      continue;
#pragma unroll
    for (int part = 0; part < 2; ++part) {
      const int n = n0 + part * 64 + tx * 4;
      float *dst = C + size_t(m) * N + n;
      const float *v = &acc[i][part * 4];
      if (vec_b && n + 3 < N) {
        *reinterpret_cast<float4 *>(dst) = make_float4(v[0], v[1], v[2], v[3]);
      } else {
        for (int j = 0; j < 4; ++j)
          if (n + j < N)
            dst[j] = v[j];
      }
    }
  }
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
  return remap::visit_params(c.block_order, tiles, [&](auto mapper) {
    using Mapper = decltype(mapper);
    LaunchInfo info;
    info.func = reinterpret_cast<const void *>(&sgemm_tiled<Mapper>);
    info.name =
        std::string("sgemm_tiled<128x128x8, 8x8, blocks ") + remap::kind_name(c.block_order) + ">";
    info.block = dim3(kThreads);
    info.grid = dim3(unsigned(tiles.width * tiles.height));
    if (enqueue)
      sgemm_tiled<Mapper><<<info.grid, info.block, 0, ctx.stream>>>(
          static_cast<const float *>(ctx.a), static_cast<const float *>(ctx.b),
          static_cast<float *>(ctx.out), int(c.height), int(c.width), int(c.effective_depth()),
          mapper);
    return info;
  });
}

} // namespace

LaunchInfo launch_matmul(const BenchConfig &c, const LaunchContext &ctx, bool enqueue) {
  if (c.kernel == KernelKind::sgemm_tiled)
    return launch_sgemm_tiled(c, ctx, enqueue);
  return visit_type(c.type, [&](auto t) { return launch_remapped<decltype(t)>(c, ctx, enqueue); });
}

} // namespace cbi::kernels::detail
