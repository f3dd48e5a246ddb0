// L1 data-stage wavefronts under misses (2026-11-28, docs/results/tight/miss-cost.md): what a warp
// load costs the L1's data stage when some of its sectors miss or are still on their way.
//
// Why: ncu finds the double stencils' data stage 86-94% busy with more wavefronts than their
// requests' banks need (P10 column:32 428.8 k an SM against the model's 382.1 k; linear 464.0 k),
// the excess growing with the misses, while the half matmul's equal the model's to 0.2%.
//
// Each launch runs one pattern, one warp shape; ncu reads l1tex__data_pipe_lsu_wavefronts.sum and
// the request and sector counts of every launch (kernel names carry nothing: the launches run in
// the order printed on stderr). Patterns (every warp its own 64 KiB region; a "block" is 512
// bytes, never read before unless said):
//   0 hit:    the same block again and again (every load after the first hits);
//   1 miss:   a new block every load, nothing waits;
//   2 shift:  per new block, 9 loads shifted by one element each, back to back (the stencil's
//             window row: the later 8 find the first one's sectors on their way);
//   3 waited: as shift, but the 8 shifted loads wait for the first one's data (all hits);
//   4 half:   per new block, the first half of the load's bytes alone, waited for, then the
//             whole load (its first lines hit, the rest miss).
// Shapes: elem 4 or 8 bytes (128 or 256 bytes a warp), aligned or shifted by one element.
//
// usage: l1_fill   (run under ncu; stdout: launch index, pattern, elem, shift, loads per warp)
#include "check.cuh"

#include <cuda_runtime.h>

#include <cstdio>

namespace {

constexpr int kThreads = 256, kRegionBytes = 64 << 10, kBlockBytes = 512;
const char *const kPatterns[] = {"hit", "miss", "shift", "waited", "half"};

template <class T>
__global__ void __launch_bounds__(kThreads)
    fill_kernel(const char *buf, int pattern, int shift, int blocks, T *sink) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32 + blockIdx.x * (kThreads / 32);
  const char *region = buf + static_cast<long long>(warp) * kRegionBytes;
  const int lane_bytes = lane * static_cast<int>(sizeof(T)) + shift * static_cast<int>(sizeof(T));
  T sum = 0;
  long long wait = 0; // a dependency on loaded data (zeros): the next load waits for it
  for (int b = 0; b < blocks; ++b) {
    const char *block = region + (pattern == 0 ? 0 : b * kBlockBytes);
    if (pattern == 0 || pattern == 1) {
      sum += *reinterpret_cast<const T *>(block + lane_bytes);
    } else if (pattern == 2 || pattern == 3) {
      T first = *reinterpret_cast<const T *>(block + lane_bytes);
      if (pattern == 3)
        wait = static_cast<long long>(first); // zero, known only when it arrives
      sum += first;
#pragma unroll
      for (int k = 1; k < 9; ++k)
        sum += *reinterpret_cast<const T *>(block + wait + lane_bytes + k * sizeof(T));
    } else {
      if (lane < 16) // the first half of the warp's bytes alone
        wait = static_cast<long long>(*reinterpret_cast<const T *>(block + lane_bytes));
      wait = __shfl_sync(0xffffffffu, wait, 0);
      sum += *reinterpret_cast<const T *>(block + wait + lane_bytes);
    }
  }
  if (sum == static_cast<T>(-1)) // never (the buffer holds zeros): keeps the loads
    *sink = sum;
}

template <class T> void launch(int index, const char *buf, int pattern, int shift, int sms) {
  T *sink;
  CHECK(cudaMalloc(&sink, sizeof(T)));
  const int blocks = pattern == 0 ? 64 : kRegionBytes / kBlockBytes - 1;
  fill_kernel<T><<<sms, kThreads>>>(buf, pattern, shift, blocks, sink);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(sink));
  const int loads = pattern == 0 || pattern == 1 ? blocks : pattern == 4 ? 2 * blocks : 9 * blocks;
  std::printf("%d,%s,%d,%d,%d\n", index, kPatterns[pattern], static_cast<int>(sizeof(T)), shift,
              loads);
}

} // namespace

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  const size_t bytes = static_cast<size_t>(sms) * (kThreads / 32) * kRegionBytes + 4096;
  char *buf;
  CHECK(cudaMalloc(&buf, bytes));
  CHECK(cudaMemset(buf, 0, bytes));
  std::fprintf(stderr, "l1_fill: %s, %d SMs, one CTA of %d threads an SM\n", prop.name, sms,
               kThreads);
  std::printf("launch,pattern,elem_bytes,shift_elems,loads_per_warp\n");
  int index = 0;
  for (int pattern = 0; pattern < 5; ++pattern)
    for (int shift : {0, 1}) {
      launch<float>(index++, buf, pattern, shift, sms);
      launch<double>(index++, buf, pattern, shift, sms);
    }
  CHECK(cudaFree(buf));
  return 0;
}
