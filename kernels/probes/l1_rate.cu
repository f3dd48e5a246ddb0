// L1 request-rate probe (2026-11-29, docs/results/tight/l1-rate.md): how many warp loads a cycle an
// SM's L1 accepts when every load hits, by the load's shape and by the warps on the SM.
//
// Why: l1_lines (h100-fresh.md §3) found that a one-wavefront float load costs 1.32 SM cycles, not
// the one cycle a wavefront that the model charges, and ncu puts the float naive matmul at 75-78%
// of one request a cycle in every order (dram-rw.md §3), where the model's replay reaches 85-95%.
// Is the 1.32 a floor for every request of one wavefront (the matmul's broadcast A loads too), and
// does it depend on how many warps keep the L1 busy?
//
// Shapes (one warp load, 32 lanes): "line" (32 consecutive 4-byte words, one 128-byte line, one
// wavefront), "broadcast" (every lane the same word: one sector, as the naive matmul's A load when
// a warp lies in one row), "mix" (chains alternate broadcast and line, as the matmul's A and B),
// "two" (two lines 256 bytes apart: two wavefronts, the control). Every warp runs `chains` pointer
// chains in an unrolled loop over a 16 KiB buffer that stays in L1 (zeros: each pointer moves by
// its own loaded value, so nothing is hoisted). CTAs of 256 threads, `ctas` of them an SM, all
// resident at once (checked against the occupancy calculator); per SM, cycles a request = the
// longest CTA span (clock64, after a __syncthreads) / the requests of its CTAs.
//
// usage: l1_rate > rate.csv   (columns: shape, chains, warps_per_sm, sectors, cycles_median,
//                              cycles_min, cycles_max, requests_per_cycle)
#include "check.cuh"
#include "clock.cuh"
#include "spans.cuh"

#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

namespace {

constexpr int kThreads = 256, kBufferBytes = 16 << 10, kRounds = 512;
enum Shape { kLine = 0, kBroadcast = 1, kMix = 2, kTwo = 3 };
const char *const kShapeNames[] = {"line", "broadcast", "mix", "two"};

// The byte offset of lane `lane`'s element in chain u's 1 KiB block.
__host__ __device__ inline int lane_offset(int shape, int u, int lane) {
  const bool broadcast = shape == kBroadcast || (shape == kMix && u % 2 == 0);
  if (broadcast)
    return 0;
  if (shape == kTwo)
    return (lane / 16) * 256 + (lane % 16) * 4;
  return lane * 4;
}

template <int kChains>
__global__ void __launch_bounds__(kThreads)
    rate_kernel(const char *buf, int shape, long long *span, unsigned *sm_of, float *sink) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32 + blockIdx.x * (kThreads / 32);
  const float *p[kChains];
#pragma unroll
  for (int u = 0; u < kChains; ++u) // a 1 KiB block per chain, a warp its own start
    p[u] = reinterpret_cast<const float *>(
        buf + ((u * 5 + warp * 3) % (kBufferBytes / 1024)) * 1024 + lane_offset(shape, u, lane));
  float sum = 0;
  for (int b = threadIdx.x * 16; b < kBufferBytes; b += kThreads * 16) // warm the buffer
    sum += *reinterpret_cast<const float *>(buf + b);
  __syncthreads();
  long long start = 0;
  if (threadIdx.x == 0)
    start = clock64();
  for (int r = 0; r < kRounds; ++r) {
#pragma unroll
    for (int u = 0; u < kChains; ++u)
      p[u] += __float_as_int(*p[u]);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    span[blockIdx.x] = clock64() - start;
    sm_of[blockIdx.x] = smid();
  }
#pragma unroll
  for (int u = 0; u < kChains; ++u)
    sum += *p[u];
  if (sum == -1.0f) // never (the buffer holds zeros): keeps the loads
    *sink = sum;
}

template <int kChains>
void run(int shape, int ctas_per_sm, int sms, const char *buf, long long *d_span, unsigned *d_sm,
         float *d_sink) {
  int fit = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, rate_kernel<kChains>, kThreads, 0));
  if (ctas_per_sm > fit)
    return; // not all resident at once: no row
  const int ctas = sms * ctas_per_sm;
  rate_kernel<kChains><<<ctas, kThreads>>>(buf, shape, d_span, d_sm, d_sink);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const std::vector<double> per = cycles_per_request_by_sm(
      d_span, d_sm, ctas, sms, (kThreads / 32) * double(kRounds) * kChains);
  const int sectors = shape == kBroadcast ? 1 : shape == kMix ? 0 : shape == kTwo ? 8 : 4;
  const double median = per[per.size() / 2];
  std::printf("%s,%d,%d,%d,%.3f,%.3f,%.3f,%.3f\n", kShapeNames[shape], kChains,
              ctas_per_sm * kThreads / 32, sectors, median, per.front(), per.back(), 1.0 / median);
}

} // namespace

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  char *buf;
  long long *d_span;
  unsigned *d_sm;
  float *d_sink;
  CHECK(cudaMalloc(&buf, kBufferBytes + 4096));
  CHECK(cudaMemset(buf, 0, kBufferBytes + 4096));
  CHECK(cudaMalloc(&d_span, sms * 8 * sizeof(long long)));
  CHECK(cudaMalloc(&d_sm, sms * 8 * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_sink, sizeof(float)));
  std::fprintf(stderr, "l1_rate: %s, %d SMs\n", prop.name, sms);
  std::printf("shape,chains,warps_per_sm,sectors,cycles_median,cycles_min,cycles_max,"
              "requests_per_cycle\n");
  for (int shape : {kLine, kBroadcast, kMix, kTwo})
    for (int ctas_per_sm : {1, 2, 4, 6, 8}) {
      run<4>(shape, ctas_per_sm, sms, buf, d_span, d_sm, d_sink);
      run<8>(shape, ctas_per_sm, sms, buf, d_span, d_sm, d_sink);
      run<16>(shape, ctas_per_sm, sms, buf, d_span, d_sm, d_sink);
    }
  return 0;
}
