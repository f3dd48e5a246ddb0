// L1 wavefronts against instruction issue (2026-11-29, docs/results/tight/l1-issue.md): does a
// warp load's L1 time (a cycle per bank wavefront, engine.hpp busy_cycles) overlap with the other
// instructions the SM issues, as the GPU model's replay lets it, or add to them?
//
// Why: in the naive matmul the narrow column orders (column:16, tile:16: a warp spans two rows of
// A, whose elements share a bank where the row pitch is a multiple of 128 bytes: two wavefronts
// where column:32 has one) run 25% slower than column:32 in half precision on the H200 (groups T2,
// T5 of docs/results/tight/dram-rw.md) and the model predicts them alike (+2%): the half kernel's
// instructions already take about as long as its L1 (issue bound 0.43 ms, L1 0.28 → 0.39 ms), and
// the replay overlaps the two. Where the pitch puts the two rows on different banks (X2: one
// wavefront, two lines) the GPU runs column:16 only 4% slower.
//
// Every SM runs 64 warps (8 CTAs of 256 threads, one wave). Each warp runs `kChains` pointer chains
// over a 16 KiB buffer that stays in L1 (zeros: each chain's offset moves by its own loaded value,
// so no load is hoisted), and after each load `alu` FFMAs on the loaded value into the chain's own
// accumulator (mul 1 and add 0 at run time). Shapes of one warp load (32 lanes, 4-byte words):
//   line  : 32 consecutive words, one line, one wavefront;
//   2free : two groups of 16 words in two lines, on different banks: one wavefront, two lines;
//   2bank : two groups of 16 words in two lines on the same banks: two wavefronts;
//   4free : four groups of 8 words in four lines, on different banks: one wavefront, four lines;
//   4bank : four groups of 8 words in four lines on the same banks: four wavefronts;
//   8bank : eight groups of 4 words, eight lines, the same banks: eight wavefronts.
// Thread 0 of each CTA reads clock64 around the timed loop (after a __syncthreads); per SM, cycles
// a request = the SM's longest CTA span / the requests of its CTAs. Mode `chase` (above) and mode
// `stream`: each load's address from the round (r x 1 KiB, wrapped in the buffer), as a loop over
// an array computes it, so that a warp's loads need not wait for each other (as the naive
// matmul's and stencil's); its value added into the chain's accumulator before the FFMAs. The
// kernel of each row is then launched 15 times more, event-timed (for ncu:
// `smsp__inst_executed.sum` over the requests gives the warp instructions a request; `--ncu`
// launches only that).
//
// usage: l1_issue [--ncu] > l1_issue.csv   (columns: mode, shape, lines, wavefronts, alu,
// warps_per_sm,
//                                           cycles_median, cycles_min, cycles_max, requests,
//                                           ms_median: of 15 event-timed launches after 2)
#include "check.cuh"
#include "clock.cuh"
#include "spans.cuh"
#include "timing.cuh"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

namespace {

constexpr int kThreads = 256, kCtasPerSm = 8, kBufferBytes = 16 << 10, kRounds = 2048, kChains = 4;
constexpr unsigned kMask = kBufferBytes - 1;
struct ShapeRow {
  const char *name;
  int groups;    // lanes in `groups` groups of 32 / groups consecutive words, a line each
  bool conflict; // groups on the same banks (else shifted to distinct banks)
};
const ShapeRow kShapes[] = {{"line", 1, false},  {"2free", 2, false}, {"2bank", 2, true},
                            {"4free", 4, false}, {"4bank", 4, true},  {"8bank", 8, true}};

// Lane `lane`'s byte offset in a chain's 1 KiB block: group g starts at line 2g (256 g bytes);
// without conflict it is shifted by g groups' bytes, so the groups cover distinct banks.
__host__ __device__ inline int lane_offset(int groups, bool conflict, int lane) {
  const int per = 32 / groups, g = lane / per, in = lane % per;
  return g * 256 + (conflict ? 0 : g * per * 4) + in * 4;
}

template <int kAlu, bool kStream>
__global__ void __launch_bounds__(kThreads, kCtasPerSm)
    issue_kernel(const char *buf, int groups, int conflict, float mul, float add, long long *span,
                 unsigned *sm_of, float *sink) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32 + blockIdx.x * (kThreads / 32);
  unsigned at[kChains]; // byte offsets: 32-bit, so that 32 registers hold the chains (no spills)
  float acc[kChains];
#pragma unroll
  for (int u = 0; u < kChains; ++u) { // a 1 KiB block per chain, a warp its own start
    at[u] = ((u * 5 + warp * 3) % (kBufferBytes / 1024)) * 1024 +
            lane_offset(groups, conflict != 0, lane);
    acc[u] = 0;
  }
  float sum = 0;
  for (int b = threadIdx.x * 16; b < kBufferBytes; b += kThreads * 16) // warm the buffer
    sum += *reinterpret_cast<const float *>(buf + b);
  __syncthreads();
  long long start = 0;
  if (threadIdx.x == 0)
    start = clock64();
  for (int r = 0; r < kRounds; ++r) {
#pragma unroll
    for (int u = 0; u < kChains; ++u) {
      if (kStream) { // the address from the round: loads need not wait for loads
        const float v = *reinterpret_cast<const float *>(buf + ((at[u] + r * 1024) & kMask));
        acc[u] += v;
#pragma unroll
        for (int k = 0; k < kAlu; ++k)
          acc[u] = fmaf(acc[u], mul, v + add);
      } else { // the address from the last load: a chain's loads one at a time
        const float v = *reinterpret_cast<const float *>(buf + at[u]);
        at[u] += __float_as_uint(v);
#pragma unroll
        for (int k = 0; k < kAlu; ++k)
          acc[u] = fmaf(acc[u], mul, v + add);
      }
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    span[blockIdx.x] = clock64() - start;
    sm_of[blockIdx.x] = smid();
  }
#pragma unroll
  for (int u = 0; u < kChains; ++u)
    sum += *reinterpret_cast<const float *>(buf + at[u]) + acc[u];
  if (sum == -1.0f) // never (the buffer holds zeros): keeps the loads and the FFMAs
    *sink = sum;
}

struct Buffers {
  char *buf;
  long long *span;
  unsigned *sm;
  float *sink;
};

template <int kAlu, bool kStream = false>
void run(const ShapeRow &s, int sms, const Buffers &b, bool ncu) {
  int fit = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, issue_kernel<kAlu, kStream>, kThreads,
                                                      0));
  if (kCtasPerSm > fit) {
    std::fprintf(stderr, "l1_issue: alu %d: %d CTAs an SM fit, %d needed; no row\n", kAlu, fit,
                 kCtasPerSm);
    return;
  }
  const int ctas = sms * kCtasPerSm;
  const auto go = [&] {
    issue_kernel<kAlu, kStream>
        <<<ctas, kThreads>>>(b.buf, s.groups, s.conflict, 1.0f, 0.0f, b.span, b.sm, b.sink);
    CHECK(cudaGetLastError());
  };
  go();
  CHECK(cudaDeviceSynchronize());
  if (ncu)
    return;
  const std::vector<float> ms = event_times_ms(go, 2, 15);
  const double requests_per_cta = (kThreads / 32) * double(kRounds) * kChains;
  const std::vector<double> per =
      cycles_per_request_by_sm(b.span, b.sm, ctas, sms, requests_per_cta);
  std::printf("%s,%s,%d,%d,%d,%d,%.3f,%.3f,%.3f,%.0f,%.5f\n", kStream ? "stream" : "chase", s.name,
              s.groups, s.conflict ? s.groups : 1, kAlu, kCtasPerSm * kThreads / 32,
              per[per.size() / 2], per.front(), per.back(), requests_per_cta * ctas,
              ms[ms.size() / 2]);
}

} // namespace

int main(int argc, char **argv) {
  const bool ncu = argc > 1 && std::strcmp(argv[1], "--ncu") == 0;
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  Buffers b{};
  CHECK(cudaMalloc(&b.buf, kBufferBytes + 4096));
  CHECK(cudaMemset(b.buf, 0, kBufferBytes + 4096));
  CHECK(cudaMalloc(&b.span, sms * kCtasPerSm * sizeof(long long)));
  CHECK(cudaMalloc(&b.sm, sms * kCtasPerSm * sizeof(unsigned)));
  CHECK(cudaMalloc(&b.sink, sizeof(float)));
  std::fprintf(stderr, "l1_issue: %s, %d SMs\n", prop.name, sms);
  if (!ncu)
    std::printf("mode,shape,lines,wavefronts,alu,warps_per_sm,cycles_median,cycles_min,cycles_max,"
                "requests,ms_median\n");
  for (const ShapeRow &s : kShapes) {
    run<0>(s, sms, b, ncu);
    run<1>(s, sms, b, ncu);
    run<2>(s, sms, b, ncu);
    run<3>(s, sms, b, ncu);
    run<4>(s, sms, b, ncu);
    run<6>(s, sms, b, ncu);
    run<8>(s, sms, b, ncu);
    run<12>(s, sms, b, ncu);
    run<16>(s, sms, b, ncu);
    run<24>(s, sms, b, ncu);
  }
  for (const ShapeRow &s : kShapes) {
    run<0, true>(s, sms, b, ncu);
    run<1, true>(s, sms, b, ncu);
    run<2, true>(s, sms, b, ncu);
    run<3, true>(s, sms, b, ncu);
    run<4, true>(s, sms, b, ncu);
    run<6, true>(s, sms, b, ncu);
    run<8, true>(s, sms, b, ncu);
    run<12, true>(s, sms, b, ncu);
    run<16, true>(s, sms, b, ncu);
    run<24, true>(s, sms, b, ncu);
  }
  return 0;
}
