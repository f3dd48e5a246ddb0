// MSHR probe (issue 20 §1): when several warps of one SM load the same sectors while the first
// warp's miss is still on its way from L2, does the L1 send one request to L2 (the misses merge)
// or one per warp, and does Nsight count the later warps' sectors as hits or as misses?
//
// One CTA (one SM) of W warps. Every warp loads the same `kLines` 128-byte lines (lane l reads
// float l of each line: 4 sectors a line, one request a line), all loads in flight before the
// first use. Warp w first spins w * DELAY cycles, so with DELAY 0 the warps' loads meet in flight
// and with a DELAY beyond the L2 latency each later warp finds the data there. Each launch is one
// configuration; profile the launches with ncu (cache control all: cold L1 and L2 for each):
//   expected if pending sectors count as hits and merge: lookup_miss = 4 kLines,
//     lookup_hit = 4 kLines (W - 1), lts__t_sectors_srcunit_tex_op_read = 4 kLines;
//   if each warp's miss goes to L2: lts read sectors = 4 kLines W.
// The program prints per launch the configuration and the warps' mean cycles per load, from
// clock64 (the waiting of later warps for the fill shows there).
//
// Usage: mshr_merge > mshr.txt   (under ncu: ncu --cache-control all -k regex:probe ...)
#include "check.cuh"

#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

constexpr int kLines = 16;

__global__ void probe_mshr(const float *__restrict__ in, long long delay, long long *cycles,
                           float *sink) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const long long until = clock64() + delay * warp;
  while (clock64() < until) {
  }
  const long long start = clock64();
  float v[kLines];
#pragma unroll
  for (int k = 0; k < kLines; ++k)
    v[k] = in[k * 32 + lane];
  float s = 0;
#pragma unroll
  for (int k = 0; k < kLines; ++k)
    s += v[k];
  const long long stop = clock64();
  if (lane == 0)
    cycles[warp] = stop - start;
  if (s == 12345.f)
    *sink = s; // never true for the zero-initialised buffer; keeps the loads
}

int main() {
  float *in, *sink;
  long long *cycles;
  CHECK(cudaMalloc(&in, kLines * 128));
  CHECK(cudaMemset(in, 0, kLines * 128));
  CHECK(cudaMalloc(&sink, sizeof(float)));
  CHECK(cudaMalloc(&cycles, 32 * sizeof(long long)));
  std::printf("launch,warps,delay_cycles,lines,mean_cycles_warp0,mean_cycles_later_warps\n");
  int launch = 0;
  for (int warps : {1, 2, 8, 32})
    for (long long delay : {0LL, 100LL, 400LL, 3000LL}) {
      if (warps == 1 && delay > 0)
        continue;
      probe_mshr<<<1, warps * 32>>>(in, delay, cycles, sink);
      CHECK(cudaGetLastError());
      CHECK(cudaDeviceSynchronize());
      std::vector<long long> c(static_cast<std::size_t>(warps));
      CHECK(cudaMemcpy(c.data(), cycles, sizeof(long long) * warps, cudaMemcpyDeviceToHost));
      double later = 0;
      for (int w = 1; w < warps; ++w)
        later += double(c[static_cast<std::size_t>(w)]) / (warps - 1);
      std::printf("%d,%d,%lld,%d,%.1f,%.1f\n", launch++, warps, delay, kLines,
                  double(c[0]) / kLines, warps > 1 ? later / kLines : 0.0);
    }
  return 0;
}
