// DRAM latency probe (2026-11-28, docs/results/tight/dram-rw.md): the h100 and h200 device rows'
// dram_cycles (600) was assumed, never measured ("L2 hit + about 320 cycles"), and the GPU model
// predicts the naive stencils that read each input sector from DRAM once (double 3x3, float 3x3)
// 20-40% fast while their DRAM runs at 37-62% of its peak: Little's law says such a kernel moves
// (bytes in flight) / (latency), so the latency sets its time.
//
// Part 1, unloaded latency: one thread chases pointers through a buffer far larger than the L2,
// one 4-byte word a 128-byte line, each line visited once in the timed part (so every load misses
// the L1 and the L2), timed with clock64 (SM cycles). Two chains: `page` visits the lines of one
// 2 MiB page in a random order before the next page (few TLB misses, as a streaming kernel), and
// `random` over the whole buffer (a TLB miss most loads).
//
// Part 2, loaded latency: every SM streams reads, `ctas` CTAs of 256 threads an SM, each thread
// keeping `inflight` independent float4 loads (16 bytes) in flight a step; the bytes in flight per
// SM are ctas x 256 x 16 x inflight. The event-timed bandwidth and Little's law give the latency
// at that load: latency = bytes in flight on the device / bandwidth.
//
// usage: dram_lat > dram_lat.csv
//   part 1 rows: chase,CHAIN,buffer_mib,loads,cycles_per_load,ns_per_load (globaltimer),
//                sm_mhz (SM cycles over globaltimer ns: the clock the chase ran at)
//   part 2 rows: stream,ctas_per_sm,inflight,bytes_in_flight_per_sm,ms_median,gbs,latency_ns,
//                latency_cycles (at prop.clockRate)
#include "check.cuh"
#include "timing.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

namespace {

__global__ void chase(const unsigned *__restrict__ next, unsigned start_word, int skip, int loads,
                      long long *cycles, unsigned *sink) {
  unsigned p = start_word;
  for (int k = 0; k < skip; ++k) // the first loads: the TLB and the clocks settle
    p = next[p];
  unsigned long long t0, t1;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  const long long start = clock64();
  for (int k = 0; k < loads; ++k)
    p = next[p];
  const long long stop = clock64();
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
  cycles[0] = stop - start;
  cycles[1] = static_cast<long long>(t1 - t0); // ns
  *sink = p;
}

// Reads `inflight` float4 a step, from `inflight` regions of the buffer (independent addresses).
template <int kInflight>
__global__ void stream(const float4 *__restrict__ buf, size_t per_region, float *sink) {
  float sum = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < per_region;
       i += size_t(gridDim.x) * blockDim.x) {
    float4 v[kInflight];
#pragma unroll
    for (int r = 0; r < kInflight; ++r)
      v[r] = __ldg(buf + r * per_region + i);
#pragma unroll
    for (int r = 0; r < kInflight; ++r)
      sum += v[r].x + v[r].w;
  }
  if (sum == -1.0f) // never (the buffer holds zeros)
    *sink = sum;
}

template <int kInflight> float stream_ms(const float4 *buf, size_t elems, int ctas, float *sink) {
  const size_t per_region = elems / kInflight;
  auto go = [&] {
    stream<kInflight><<<ctas, 256>>>(buf, per_region, sink);
    CHECK(cudaGetLastError());
  };
  const std::vector<float> ms = event_times_ms(go, 2, 15);
  return ms[ms.size() / 2];
}

// About 100 ms of work on every SM, so that the SM clock has left its idle speed.
__global__ void spin(float *sink, int rounds) {
  float x = threadIdx.x;
  for (int k = 0; k < rounds; ++k)
    x = x * 0.999f + 1.0f;
  if (x == -1.0f)
    *sink = x;
}

void busy() {
  float *sink;
  CHECK(cudaMalloc(&sink, sizeof(float)));
  spin<<<1024, 256>>>(sink, 1 << 20);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(sink));
}

} // namespace

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int clock_khz = sm_clock_khz();
  const int sms = prop.multiProcessorCount;
  std::fprintf(stderr, "dram_lat: %s, %d SMs, L2 %d MiB, SM clock %d MHz\n", prop.name, sms,
               prop.l2CacheSize >> 20, clock_khz / 1000);
  const double ghz = clock_khz / 1e6;

  // Part 1: the chains.
  const size_t buffer_mib = 1024;
  const size_t words = (buffer_mib << 20) / 4, lines = (buffer_mib << 20) / 128;
  unsigned *d_next;
  long long *d_cycles;
  unsigned *d_sink;
  CHECK(cudaMalloc(&d_next, words * 4));
  CHECK(cudaMalloc(&d_cycles, 2 * sizeof(long long)));
  CHECK(cudaMalloc(&d_sink, sizeof(unsigned)));
  std::mt19937_64 rng(20261128);
  std::vector<unsigned> order(lines);
  std::iota(order.begin(), order.end(), 0u);
  const size_t lines_per_page = (size_t(2) << 20) / 128;
  for (int chain = 0; chain < 2; ++chain) {
    if (chain == 0) // page: shuffle within each 2 MiB page, pages in address order
      for (size_t p = 0; p < lines; p += lines_per_page)
        std::shuffle(order.begin() + p, order.begin() + p + lines_per_page, rng);
    else
      std::shuffle(order.begin(), order.end(), rng);
    std::vector<unsigned> next(words, 0);
    for (size_t k = 0; k < lines; ++k) // word index of line order[k] -> that of order[k + 1]
      next[size_t(order[k]) * 32] = unsigned(order[(k + 1) % lines] * 32);
    CHECK(cudaMemcpy(d_next, next.data(), words * 4, cudaMemcpyHostToDevice));
    // One cycle through every line (8 M of them); each repetition enters it 10^6 lines after the
    // last, so no line is loaded twice (102,000 loads a repetition, 13 MB).
    const int skip = 2000, loads = 100000;
    busy(); // the SM clock up from idle before the first repetition
    for (int rep = 0; rep < 4; ++rep) {
      chase<<<1, 1>>>(d_next, order[size_t(rep) * 1000000] * 32, skip, loads, d_cycles, d_sink);
      CHECK(cudaGetLastError());
      long long t[2] = {0, 0};
      CHECK(cudaMemcpy(t, d_cycles, sizeof t, cudaMemcpyDeviceToHost));
      const double per = double(t[0]) / loads;
      std::printf("chase,%s,%zu,%d,%.1f,%.1f,%.0f\n", chain == 0 ? "page" : "random", buffer_mib,
                  loads, per, double(t[1]) / loads, double(t[0]) / double(t[1]) * 1e3);
      std::fflush(stdout);
    }
  }
  CHECK(cudaFree(d_next));

  // Part 2: streams.
  const size_t stream_bytes = size_t(1024) << 20;
  float4 *buf;
  float *sink;
  CHECK(cudaMalloc(&buf, stream_bytes));
  CHECK(cudaMemset(buf, 0, stream_bytes));
  CHECK(cudaMalloc(&sink, sizeof(float)));
  const size_t elems = stream_bytes / sizeof(float4);
  for (int ctas : {1, 2, 4, 8})
    for (int inflight : {1, 2, 4, 8}) {
      float ms = 0;
      switch (inflight) {
      case 1:
        ms = stream_ms<1>(buf, elems, ctas * sms, sink);
        break;
      case 2:
        ms = stream_ms<2>(buf, elems, ctas * sms, sink);
        break;
      case 4:
        ms = stream_ms<4>(buf, elems, ctas * sms, sink);
        break;
      default:
        ms = stream_ms<8>(buf, elems, ctas * sms, sink);
        break;
      }
      const double per_sm = double(ctas) * 256 * 16 * inflight;
      const double gbs = double(stream_bytes) / (ms * 1e6);
      const double lat_ns = per_sm * sms / gbs; // bytes / (bytes per ns)
      std::printf("stream,%d,%d,%.0f,%.5f,%.1f,%.1f,%.1f\n", ctas, inflight, per_sm, ms, gbs,
                  lat_ns, lat_ns * ghz);
      std::fflush(stdout);
    }
  CHECK(cudaFree(buf));
  return 0;
}
