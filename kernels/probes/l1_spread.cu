// L1 lines a request on distinct banks (2026-11-29, docs/results/tight/l1-issue.md §7): what an
// SM's L1 takes for a warp load whose lanes read N lines that fall on N distinct banks (one
// wavefront by the model's rule, l1_bank_wavefronts), as the naive matmul's A loads do under
// column:W orders (32/W rows a warp, one element each, broadcast to the W lanes of a row).
//
// Why: on the fresh H200 set F the half matmul F3 (row pitch 1200 bytes: a warp's rows on distinct
// banks) runs column:8 49% and column:4 106% slower than column:32 and the model predicts them
// alike (one wavefront); kernels/probes/l1_lines tested N lines on one bank only (N wavefronts,
// N cycles) and l1_issue two and four lines of 8-16 words on distinct banks (one cycle).
//
// 64 warps an SM (8 CTAs of 256 threads), four pointer chains a warp over a buffer that stays in
// L1 (zeros: each chain moves by its loaded value, so no load is hoisted). Per load the 32 lanes
// form N groups (N = 1..32), group g at byte g x 256 + g x 4 of the chain's block (line 2g, bank
// g): mode `bcast` has every lane of a group read its group's one element, mode `run` has them read
// consecutive elements; mode `bank` (the control) puts every group at bank 0 (g x 256). Elements
// of 4 bytes (float) and 2 (half, loaded as unsigned short). Time: the median of 15 event-timed
// launches after 2; cycles a request = ms x the SM clock / the requests an SM makes.
//
// Addressing `chase` (each chain's next address from its load) and, for bcast and bank, `stream`
// (the address from the round, so a warp's loads need not wait for each other).
//
// usage: l1_spread > l1_spread.csv   (columns: addressing, elem_bytes, mode, lines,
//                                     cycles_per_request, ms)
#include "check.cuh"
#include "timing.cuh"

#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

namespace {

constexpr int kThreads = 256, kCtasPerSm = 8, kBufferBytes = 32 << 10, kSlackBytes = 12 << 10,
              kRounds = 2048, kChains = 4;
enum Mode { kBcast = 0, kRun = 1, kBank = 2 };
const char *const kModeNames[] = {"bcast", "run", "bank"};

// Lane `lane`'s byte offset in a chain's block for `groups` groups of `elem` byte elements.
__host__ __device__ inline int lane_offset(int mode, int groups, int elem, int lane) {
  const int per = 32 / groups, g = lane / per, in = lane % per;
  const int start = g * 256 + (mode == kBank ? 0 : g * 4);
  return start + (mode == kRun ? in * elem : 0);
}

template <class T, bool kStream>
__global__ void __launch_bounds__(kThreads, kCtasPerSm)
    spread_kernel(const char *buf, int mode, int groups, unsigned *sink) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32 + blockIdx.x * (kThreads / 32);
  unsigned at[kChains];
#pragma unroll
  for (int u = 0; u < kChains; ++u) // a 1 KiB block per chain, a warp its own start
    at[u] = ((u * 5 + warp * 3) % (kBufferBytes / 1024)) * 1024 +
            lane_offset(mode, groups, int(sizeof(T)), lane);
  unsigned sum = 0;
  for (int b = threadIdx.x * 16; b < kBufferBytes + kSlackBytes; b += kThreads * 16) // warm
    sum += *reinterpret_cast<const unsigned *>(buf + b);
  for (int r = 0; r < kRounds; ++r) {
#pragma unroll
    for (int u = 0; u < kChains; ++u) {
      if (kStream) // the address from the round, as a loop over an array computes it
        sum += *reinterpret_cast<const T *>(buf + ((at[u] + r * 1024) & (kBufferBytes - 1)));
      else // the address from the chain's last load
        at[u] += *reinterpret_cast<const T *>(buf + at[u]);
    }
  }
#pragma unroll
  for (int u = 0; u < kChains; ++u)
    sum += at[u];
  if (sum == 0xffffffffu) // never (the buffer holds zeros): keeps the loads
    *sink = sum;
}

template <class T, bool kStream>
void run(int mode, int groups, int sms, const char *buf, unsigned *sink) {
  const int ctas = sms * kCtasPerSm;
  const auto go = [&] {
    spread_kernel<T, kStream><<<ctas, kThreads>>>(buf, mode, groups, sink);
    CHECK(cudaGetLastError());
  };
  const std::vector<float> ms = event_times_ms(go, 2, 15);
  const double per_sm = double(kCtasPerSm) * (kThreads / 32) * double(kRounds) * kChains;
  const double med = ms[ms.size() / 2];
  std::printf("%s,%d,%s,%d,%.3f,%.5f\n", kStream ? "stream" : "chase", int(sizeof(T)),
              kModeNames[mode], groups, med * sm_clock_khz() / per_sm, med);
}

} // namespace

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  char *buf;
  unsigned *sink;
  CHECK(cudaMalloc(&buf, kBufferBytes + kSlackBytes));
  CHECK(cudaMemset(buf, 0, kBufferBytes + kSlackBytes));
  CHECK(cudaMalloc(&sink, sizeof(unsigned)));
  int fit = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, spread_kernel<float, false>, kThreads,
                                                      0));
  std::fprintf(stderr, "l1_spread: %s, %d SMs, %d CTAs an SM fit (%d used)\n", prop.name, sms, fit,
               kCtasPerSm);
  std::printf("addressing,elem_bytes,mode,lines,cycles_per_request,ms\n");
  for (int mode : {kBcast, kRun, kBank})
    for (int groups : {1, 2, 4, 8, 16, 32}) {
      if (mode == kBank && groups > 8)
        continue;
      run<unsigned, false>(mode, groups, sms, buf, sink);
      run<unsigned short, false>(mode, groups, sms, buf, sink);
    }
  for (int mode : {kBcast, kBank}) // stream: loads need not wait for loads (the matmul's A)
    for (int groups : {1, 2, 4, 8}) {
      run<unsigned, true>(mode, groups, sms, buf, sink);
      run<unsigned short, true>(mode, groups, sms, buf, sink);
    }
  return 0;
}
