// L1 throughput probe (2026-11-27, docs/results/tight/h100-fresh.md §3): how many cycles an SM's L1
// is busy with one warp load that hits, by the number of cache lines and sectors the load touches.
// The GPU model charges max(lines, lanes x element bytes / 128) cycles a request (engine.hpp
// busy_cycles: a cycle per line at the tag stage, 128 bytes a cycle at the data stage); the naive
// stencils' narrow columns (column:8/16, tile:16: 4 lines a request where linear has 3) are
// predicted 14-50% slower than the H100 runs them (h100-fresh.md §1).
//
// Every SM runs 64 warps (4 CTAs of 512 threads, one wave). Each warp loads, in an unrolled loop,
// from a 64 KiB buffer that stays in every SM's L1 after a first pass (all hits): per load, the
// warp's 32 lanes form `groups` groups of 32/groups consecutive elements; group g starts at byte
// g x 256 + `shift` of the load's 1 KiB-aligned block, so a group covers its own line or straddles
// two when shift + its bytes cross 128. Each of the 16 pointers moves by its own loaded value (the
// buffer holds zeros), so no load can be hoisted out of the timed loop (a first version with
// asm volatile loads and fixed addresses made 24 requests a warp in ncu: the compiler hoisted
// them) and 16 chains a warp keep the L1 busy. Thread 0 of each CTA reads clock64 before and after
// the timed loop (after a __syncthreads); per SM, cycles a request = the SM's longest CTA span /
// the requests of its 4 CTAs.
//
// usage: l1_lines > lines.csv   (columns: elem_bytes, groups, shift, lines, sectors,
//                                model_cycles, cycles_per_request median/min/max over SMs)
#include "check.cuh"
#include "clock.cuh"
#include "spans.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <vector>

namespace {

constexpr int kThreads = 512, kCtasPerSm = 4, kUnroll = 16, kBufferBytes = 64 << 10;

// The loaded value's bits as an element offset (0: the buffer holds zeros).
__device__ inline long long bits(float v) { return __float_as_int(v); }
__device__ inline long long bits(double v) { return __double_as_longlong(v); }

template <typename T>
__global__ void __launch_bounds__(kThreads)
    lines_kernel(const char *buf, int groups, int shift, int rounds, long long *span,
                 unsigned *sm_of, T *sink) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int per_group = 32 / groups;
  const int lane_bytes = (lane / per_group) * 256 + shift + (lane % per_group) * int(sizeof(T));
  const T *p[kUnroll];
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) // 1 KiB blocks, spread over the buffer, a warp its own start
    p[u] = reinterpret_cast<const T *>(buf + (((u * 5 + warp * 3) % 64) * 1024 + lane_bytes) %
                                                 kBufferBytes);
  T sum = 0;
  for (int b = threadIdx.x * 16; b < kBufferBytes; b += kThreads * 16) // warm: the whole buffer
    sum += *reinterpret_cast<const T *>(buf + b);
  __syncthreads();
  long long start = 0;
  if (threadIdx.x == 0)
    start = clock64();
  for (int r = 0; r < rounds; ++r) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      p[u] += bits(*p[u]);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    span[blockIdx.x] = clock64() - start;
    sm_of[blockIdx.x] = smid();
  }
#pragma unroll
  for (int u = 0; u < kUnroll; ++u)
    sum += *p[u];
  if (sum == T(-1)) // never (the buffer holds zeros): keeps the loads
    *sink = sum;
}

struct Shape {
  int lines, sectors;
};

// The lines and sectors one load touches (as the model's coalescer counts them).
Shape shape_of(int elem, int groups, int shift) {
  std::set<long> lines, sectors;
  const int per_group = 32 / groups;
  for (int lane = 0; lane < 32; ++lane) {
    const long b = (lane / per_group) * 256 + shift + (lane % per_group) * elem;
    for (long x = b; x < b + elem; x += 4) {
      lines.insert(x / 128);
      sectors.insert(x / 32);
    }
  }
  return {int(lines.size()), int(sectors.size())};
}

template <typename T>
void run(int groups, int shift, int sms, char *buf, long long *d_span, unsigned *d_sm, T *d_sink) {
  const int ctas = sms * kCtasPerSm, rounds = 256;
  lines_kernel<T><<<ctas, kThreads>>>(buf, groups, shift, rounds, d_span, d_sm, d_sink);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const std::vector<double> per =
      cycles_per_request_by_sm(d_span, d_sm, ctas, sms, (kThreads / 32) * double(rounds) * kUnroll);
  const Shape sh = shape_of(int(sizeof(T)), groups, shift);
  const double model = std::max(double(sh.lines), 32.0 * sizeof(T) / 128.0);
  std::printf("%d,%d,%d,%d,%d,%.2f,%.3f,%.3f,%.3f\n", int(sizeof(T)), groups, shift, sh.lines,
              sh.sectors, model, per[per.size() / 2], per.front(), per.back());
}

} // namespace

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  char *buf;
  long long *d_span;
  unsigned *d_sm;
  double *d_sink;
  CHECK(cudaMalloc(&buf, kBufferBytes + 4096));
  CHECK(cudaMemset(buf, 0, kBufferBytes + 4096));
  CHECK(cudaMalloc(&d_span, sms * kCtasPerSm * sizeof(long long)));
  CHECK(cudaMalloc(&d_sm, sms * kCtasPerSm * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_sink, sizeof(double)));
  std::fprintf(stderr, "l1_lines: %s, %d SMs, %d warps an SM\n", prop.name, sms,
               kCtasPerSm * kThreads / 32);
  std::printf("elem_bytes,groups,shift,lines,sectors,model_cycles,cycles_median,cycles_min,"
              "cycles_max\n");
  for (int groups : {1, 2, 4, 8, 16, 32})
    for (int shift : {0, 4, 64, 100})
      run<float>(groups, shift, sms, buf, d_span, d_sm, reinterpret_cast<float *>(d_sink));
  for (int groups : {1, 2, 4, 8, 16, 32})
    for (int shift : {0, 8, 64, 96})
      run<double>(groups, shift, sms, buf, d_span, d_sm, d_sink);
  return 0;
}
