// L1 allocation probe (issue 20 §1): does an SM's L1 keep a footprint below its capacity (216 KiB,
// kernels/probes/l1_chase) when many co-resident warps fill it at once, or does the hit rate fall
// with the number of warps before the footprint reaches the capacity?
//
// 132 x K CTAs of T threads (K CTAs per SM, all resident at once); every warp reads its own slice
// of the SM's footprint F, PASSES times in address order, lane l reading float l of each line (one
// request of 4 sectors a line). An LRU L1 that holds F gives a load-sector hit rate of
// (PASSES - 1) / PASSES = 75% whatever the warps; one that loses lines to many warps gives less.
// Each launch is one configuration (printed in launch order); profile them with ncu (cache control
// all) for l1tex__t_sector_hit_rate.pct.
//
// Usage: l1_warps > l1_warps.txt
#include "check.cuh"

#include <cuda_runtime.h>

#include <cstdio>

constexpr int kPasses = 4;

__global__ void probe_l1_warps(const float *__restrict__ in, long long words_per_warp,
                               float *sink) {
  const int warps = blockDim.x / 32, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const float *slice = in + (static_cast<long long>(blockIdx.x) * warps + warp) * words_per_warp;
  float s = 0;
  for (int p = 0; p < kPasses; ++p)
    for (long long off = lane; off < words_per_warp; off += 32)
      s += slice[off];
  if (s == 12345.f)
    *sink = s;
}

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  const long long max_bytes = static_cast<long long>(sms) * 2 * 320 * 1024;
  float *in, *sink;
  CHECK(cudaMalloc(&in, max_bytes));
  CHECK(cudaMemset(in, 0, max_bytes));
  CHECK(cudaMalloc(&sink, sizeof(float)));
  std::printf("launch,ctas_per_sm,threads_per_cta,warps_per_sm,footprint_kib_per_sm,passes\n");
  struct Shape {
    int ctas_per_sm, threads;
  };
  int launch = 0;
  for (Shape sh : {Shape{1, 128}, Shape{1, 512}, Shape{1, 1024}, Shape{2, 1024}})
    for (int kib : {32, 96, 160, 200, 256, 320}) {
      const int warps_per_sm = sh.ctas_per_sm * sh.threads / 32;
      const long long words_per_warp = static_cast<long long>(kib) * 1024 / 4 / warps_per_sm;
      probe_l1_warps<<<sms * sh.ctas_per_sm, sh.threads>>>(in, words_per_warp, sink);
      CHECK(cudaGetLastError());
      CHECK(cudaDeviceSynchronize());
      std::printf("%d,%d,%d,%d,%d,%d\n", launch++, sh.ctas_per_sm, sh.threads, warps_per_sm, kib,
                  kPasses);
    }
  return 0;
}
