// DRAM read/write mix probe (2026-11-28, docs/results/tight/dram-rw.md): how many bytes a second
// the H100's DRAM moves when a kernel reads only, writes only, or does both in a given ratio. The
// GPU model bounds a kernel's time by DRAM bytes / dram_gbs, with the reads and the written-back
// sectors at one rate (sim/src/gpu_model.cpp), and predicts the DRAM-bound kernels that write as
// much as they read 20-41% fast: the shared-memory stencil (0.180 ms against 0.223 at 8192) and the
// double 3x3 naive stencil (Q10: 0.070 against 0.098; ncu: DRAM 50-62% of peak, not the L2).
//
// Each thread walks a grid-stride loop over float4 elements (16 bytes): it reads element i of each
// of `reads` arrays and writes element i of each of `writes` arrays (the sum of what it read).
// Every array is 512 MiB, ten times the L2, so each launch's reads come from DRAM, and launches
// back to back write back as much as they write (the previous launch's dirty lines are evicted by
// this one's). Whole 32-byte sectors are written, so the L2 reads nothing from DRAM for a write. A
// configuration is warmed by 3 launches and timed by 30 event pairs (median, min, max).
//
// usage: dram_rw [--ncu] > dram_rw.csv   (--ncu: one launch of each mix, for ncu's byte counters)
//   columns: reads, writes, array_mib, ctas_per_sm, launches, read_bytes, write_bytes,
//            ms_median, ms_min, ms_max, gbs_median (read + write bytes / median time), gbs_best
#include "check.cuh"
#include "timing.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

template <int kReads, int kWrites>
__global__ void rw_kernel(const float4 *const *src, float4 *const *dst, size_t n, float *sink) {
  float sum = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    float4 v = make_float4(float(i), 0.f, 0.f, 0.f);
#pragma unroll
    for (int r = 0; r < kReads; ++r) {
      const float4 a = __ldg(src[r] + i);
      v.x += a.x;
      v.y += a.y;
      v.z += a.z;
      v.w += a.w;
    }
#pragma unroll
    for (int w = 0; w < kWrites; ++w)
      dst[w][i] = v;
    sum += v.y;
  }
  if (sum == -1.0f) // never (the arrays hold zeros): keeps the reads of a read-only mix
    *sink = sum;
}

using Launch = void (*)(const float4 *const *, float4 *const *, size_t, float *, int, int);

template <int kReads, int kWrites>
void launch(const float4 *const *src, float4 *const *dst, size_t n, float *sink, int ctas,
            int threads) {
  rw_kernel<kReads, kWrites><<<ctas, threads>>>(src, dst, n, sink);
}

struct Mix {
  int reads, writes;
  Launch go;
};

} // namespace

int main(int argc, char **argv) {
  const bool ncu = argc > 1 && std::strcmp(argv[1], "--ncu") == 0;
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  std::fprintf(stderr, "dram_rw: %s, %d SMs, L2 %d MiB, memory %.0f GiB\n", prop.name, sms,
               prop.l2CacheSize >> 20, double(prop.totalGlobalMem) / (1 << 30));
  // The mixes: read-only (1, 2, 4 streams), write-only (1, 2), and reads:writes of 1:1 (a copy,
  // as the stencils), 2:1, 4:1 and 1:2.
  const Mix mixes[] = {{1, 0, launch<1, 0>}, {2, 0, launch<2, 0>}, {4, 0, launch<4, 0>},
                       {0, 1, launch<0, 1>}, {0, 2, launch<0, 2>}, {1, 1, launch<1, 1>},
                       {2, 1, launch<2, 1>}, {4, 1, launch<4, 1>}, {1, 2, launch<1, 2>},
                       {2, 2, launch<2, 2>}};
  const size_t array_mib = 512;
  const size_t array_bytes = array_mib << 20;
  const size_t n = array_bytes / sizeof(float4);
  const int kArrays = 6; // at most 4 read and 2 written, distinct
  std::vector<float4 *> arrays(kArrays);
  for (auto &a : arrays) {
    CHECK(cudaMalloc(&a, array_bytes));
    CHECK(cudaMemset(a, 0, array_bytes));
  }
  const float4 **d_src;
  float4 **d_dst;
  float *d_sink;
  CHECK(cudaMalloc(&d_src, 4 * sizeof(float4 *)));
  CHECK(cudaMalloc(&d_dst, 2 * sizeof(float4 *)));
  CHECK(cudaMalloc(&d_sink, sizeof(float)));
  CHECK(cudaMemcpy(d_src, arrays.data(), 4 * sizeof(float4 *), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_dst, arrays.data() + 4, 2 * sizeof(float4 *), cudaMemcpyHostToDevice));
  const int threads = 256;
  std::printf("reads,writes,array_mib,ctas_per_sm,launches,read_bytes,write_bytes,ms_median,"
              "ms_min,ms_max,gbs_median,gbs_best\n");
  for (int ctas_per_sm : {8, 2}) { // full occupancy (2048 threads an SM), then a quarter
    if (ncu && ctas_per_sm != 8)
      break;
    for (const Mix &m : mixes) {
      const int ctas = sms * ctas_per_sm;
      auto go = [&] {
        m.go(d_src, d_dst, n, d_sink, ctas, threads);
        CHECK(cudaGetLastError());
      };
      const int warm = ncu ? 1 : 3, timed = ncu ? 1 : 30;
      const std::vector<float> ms = event_times_ms(go, warm, timed);
      const double rb = double(m.reads) * array_bytes, wb = double(m.writes) * array_bytes;
      const double med = ms[ms.size() / 2];
      std::printf("%d,%d,%zu,%d,%d,%.0f,%.0f,%.5f,%.5f,%.5f,%.1f,%.1f\n", m.reads, m.writes,
                  array_mib, ctas_per_sm, timed, rb, wb, med, ms.front(), ms.back(),
                  (rb + wb) / (med * 1e6), (rb + wb) / (ms.front() * 1e6));
      std::fflush(stdout);
    }
  }
  for (auto a : arrays)
    CHECK(cudaFree(a));
  return 0;
}
