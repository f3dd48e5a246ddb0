// The naive matmul's loads in L1 (2026-11-29, docs/results/tight/l1-issue.md §8): listing 4's k
// loop on matrices that stay in L1, a warp laid out as under column:W (32/W rows of A, W columns
// of B: A's element broadcast to the W lanes of a row, B's W elements to the 32/W rows), so that
// the time is the L1's and the instructions', not the misses'.
//
// Why: on the H200 the half matmul F3 (A's rows on distinct banks) runs column:8 49% and column:4
// 106% slower than column:32 with the same L1 hit rates, its warps waiting on the LSU's input queue
// (ncu), while the A loads' shapes alone cost nothing extra (kernels/probes/l1_spread). Does the
// whole loop (A and B loads, the conversions, the FMA chain) show it without misses?
//
// 64 warps an SM (8 CTAs of 256 threads). A is 32 rows of `depth` elements (row pitch `depth` x
// element bytes), B is `depth` rows of 64 elements; thread t of a warp takes row t / W and column
// t % W (the warp's rows and columns offset by warp so that warps differ); k runs over 4096 steps,
// wrapping within `depth` (so both matrices stay in L1). Element types float and half (converted
// to float, as cbi's kernel does). Pitches: 1024 (rows on one bank at 4 bytes, and at 2) and 1200
// bytes (rows on distinct banks). Time: the median of 15 event-timed launches after 2; cycles a k
// step = ms x the SM clock / (k steps x warps an SM).
//
// Then `a-in-l2`: A's rows 4172 elements long (beyond L1, in L2; a warp's rows on distinct banks),
// B's 64 rows in L1, so that A misses as the real kernel's does.
//
// usage: l1_matmul > l1_matmul.csv   (columns: a, elem_bytes, pitch_bytes, width, cycles_per_step,
//                                     ms)
#include "check.cuh"
#include "timing.cuh"

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

namespace {

constexpr int kThreads = 256, kCtasPerSm = 8, kSteps = 4096, kBColumns = 64;

__device__ inline float to_float(float v) { return v; }
__device__ inline float to_float(__half v) { return __half2float(v); }

template <class T, int kW, bool kStreamA>
__global__ void __launch_bounds__(kThreads, kCtasPerSm)
    mm_kernel(const T *__restrict__ a, const T *__restrict__ b, int depth, float *sink) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32 + blockIdx.x * (kThreads / 32);
  const int row = (lane / kW + warp) % 32, col = (lane % kW + warp * kW) % kBColumns;
  const T *arow = a + row * depth;
  float acc = 0;
  int k = kStreamA ? 0 : warp % depth;
  for (int s = 0; s < kSteps; ++s) {
    if (kStreamA) // A's rows kSteps long (beyond L1: a sector of a row missed every 16 or 8 steps)
      acc += to_float(arow[s]) * to_float(b[(s & 63) * kBColumns + col]);
    else
      acc += to_float(arow[k]) * to_float(b[k * kBColumns + col]);
    k = k + 1 == depth ? 0 : k + 1;
  }
  if (acc == -1.0f) // never (the matrices hold zeros): keeps the loop
    *sink = acc;
}

template <class T, int kW, bool kStreamA = false>
void run(int pitch_bytes, int sms, const char *buf, float *sink) {
  const int depth = kStreamA ? kSteps + 76 : pitch_bytes / int(sizeof(T));
  const T *a = reinterpret_cast<const T *>(buf);
  const T *b = reinterpret_cast<const T *>(buf + 32 * depth * int(sizeof(T)));
  const int ctas = sms * kCtasPerSm;
  const auto go = [&] {
    mm_kernel<T, kW, kStreamA><<<ctas, kThreads>>>(a, b, depth, sink);
    CHECK(cudaGetLastError());
  };
  const std::vector<float> ms = event_times_ms(go, 2, 15);
  const double steps_per_sm = double(kCtasPerSm) * (kThreads / 32) * kSteps;
  const double med = ms[ms.size() / 2];
  std::printf("%s,%d,%d,%d,%.3f,%.5f\n", kStreamA ? "a-in-l2" : "in-l1", int(sizeof(T)),
              depth * int(sizeof(T)), kW, med * sm_clock_khz() / steps_per_sm, med);
}

template <class T, bool kStreamA = false>
void widths(int pitch_bytes, int sms, const char *buf, float *sink) {
  run<T, 32, kStreamA>(pitch_bytes, sms, buf, sink);
  run<T, 16, kStreamA>(pitch_bytes, sms, buf, sink);
  run<T, 8, kStreamA>(pitch_bytes, sms, buf, sink);
  run<T, 4, kStreamA>(pitch_bytes, sms, buf, sink);
}

} // namespace

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  const std::size_t bytes = 32 * std::size_t{kSteps + 76} * 4 + 600 * kBColumns * 4 + 4096;
  char *buf;
  float *sink;
  CHECK(cudaMalloc(&buf, bytes));
  CHECK(cudaMemset(buf, 0, bytes));
  CHECK(cudaMalloc(&sink, sizeof(float)));
  std::fprintf(stderr, "l1_matmul: %s, %d SMs\n", prop.name, sms);
  std::printf("a,elem_bytes,pitch_bytes,width,cycles_per_step,ms\n");
  for (int pitch : {1024, 1200}) {
    widths<float>(pitch, sms, buf, sink);
    widths<__half>(pitch, sms, buf, sink);
  }
  // A's rows kSteps + 76 elements long (pitch 16688 bytes float, 8344 half: a warp's rows on
  // distinct banks), 32 of them (534 KB, 267 KB: beyond L1, within L2), B's 64 rows in L1.
  widths<float, true>(0, sms, buf, sink);
  widths<__half, true>(0, sms, buf, sink);
  return 0;
}
