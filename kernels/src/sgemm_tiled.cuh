// The block-tiled SGEMM of seed 000 (algorithm 3) as a kernel template: cbi bench's
// sgemm-tiled (kernels/src/matmul.cu, with NoStamp) and the probe kernels/probes/sgemm_steps.cu
// (with a Stamp that records when each CTA reaches its steps) run the same code.
#pragma once

#include "cbi/remap/dispatch.hpp"

namespace cbi::kernels::detail {

// A Stamp is told, by thread 0 of each CTA, that the CTA begins step `step` (of `steps`, K / 8
// rounded up) and, with step == steps, that its arithmetic is done. NoStamp does nothing.
struct NoStamp {
  __device__ void operator()(int /*step*/, int /*steps*/) const {}
};

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
//
// One kernel for every block order: the order is a runtime remap::Order, mapped once per CTA with
// the exact arithmetic (eq. 4.2's divisions, a few dozen instructions a CTA). A kernel template per
// order let ptxas schedule the main loop differently per order, and on the H200 linear and tile
// ran 4-20% slower than column:64 with the very same tiles (docs/results/tight/y-set.md §4).
template <class Stamp = NoStamp>
__global__ void __launch_bounds__(kThreads, 2)
    sgemm_tiled(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                int M, int N, int K, remap::Order block_order, remap::Shape<int> tiles,
                Stamp stamp = {}) {
  __shared__ __align__(16) float As[2][kBK][kBM + kPadA];
  __shared__ __align__(16) float Bs[2][kBK][kBN];
  const int tid = threadIdx.x;
  const remap::Task<int> block = block_order.map(int(blockIdx.x), tiles);
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
  const int steps = (K + kBK - 1) / kBK;
  for (int k0 = 0; k0 < K; k0 += kBK) {
    if (tid == 0)
      stamp(k0 / kBK, steps);
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
  if (tid == 0)
    stamp(steps, steps);

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

} // namespace cbi::kernels::detail
