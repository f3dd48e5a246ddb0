// CTA launcher probe (2026-11-28, docs/results/tight/dram-rw.md §5): how fast the GPU starts CTAs
// after the first wave. The h100/h200 rows' cta_refill_round_cycles (832, from kernels/probes/
// cta_steps on float matmuls: the refills of one SM's slots started 0.42 us apart) lets the model
// start at most one CTA an SM every 832 cycles, which puts a floor under any kernel of many short
// CTAs: the fresh H200 set T predicts the half 5x5 stencil at block 224 (353 CTAs an SM) at
// 0.147 ms for every order, 353 x 832 cycles, where the H200 takes 0.090-0.100 ms.
//
// Each CTA spins for `spin` cycles (thread 0 on clock64; the others wait at a barrier), then
// records its SM, start and end (globaltimer, ns). A launch holds `waves` times the CTAs that fit
// on the device at once (`slots` an SM, set by the block size and a shared-memory request). Per
// launch, printed: the device-wide CTA start rate after the first wave (CTAs per us), the median
// over CTAs of the first wave's successors of (start - the end that freed their slot: the SM's
// k-th end before it), and the median spacing of starts on one SM after the first wave.
//
// usage: cta_launch [BLOCK:SLOTS:SPIN ...] > cta_launch.csv   (no arguments: the configurations of
//   dram-rw.md §5; with them, those only: l-set.md §3 asks the rate of one-warp to 4-warp CTAs)
//   columns: block, slots_per_sm, spin_cycles, ctas, total_us, ctas_per_us_after_first_wave,
//            refill_latency_ns_median, start_spacing_ns_median, cta_us_median
#include "check.cuh"
#include "clock.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

struct Rec {
  unsigned sm;
  unsigned long long start, end;
};

__global__ void spin_cta(long long spin, Rec *rec) {
  extern __shared__ char pad[]; // only to cap the CTAs an SM holds
  __shared__ unsigned long long t0;
  if (threadIdx.x == 0) {
    t0 = globaltimer();
    const long long c0 = clock64();
    while (clock64() - c0 < spin) {
    }
    pad[0] = 1;
  }
  __syncthreads();
  if (threadIdx.x == 0)
    rec[blockIdx.x] = Rec{smid(), t0, globaltimer()};
}

double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void run(int sms, int block, int slots, long long spin, int waves, Rec *d_rec, size_t smem_per_sm) {
  const int ctas = sms * slots * waves;
  // Shared memory per CTA so that at most `slots` fit an SM (threads permitting).
  const size_t smem = smem_per_sm / size_t(slots) - 1024;
  CHECK(cudaFuncSetAttribute(spin_cta, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  int fit = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, spin_cta, block, smem));
  for (int rep = 0; rep < 2; ++rep) { // the second launch is recorded (clocks up)
    spin_cta<<<ctas, block, smem>>>(spin, d_rec);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
  }
  std::vector<Rec> r(ctas);
  CHECK(cudaMemcpy(r.data(), d_rec, sizeof(Rec) * ctas, cudaMemcpyDeviceToHost));
  unsigned long long t0 = ~0ull, t1 = 0;
  for (const Rec &x : r) {
    t0 = std::min(t0, x.start);
    t1 = std::max(t1, x.end);
  }
  std::vector<std::vector<Rec>> per_sm(sms);
  for (const Rec &x : r)
    if (int(x.sm) < sms)
      per_sm[x.sm].push_back(x);
  std::vector<double> latency, spacing, dur;
  long long after = 0;
  unsigned long long first_after = ~0ull, last_after = 0;
  for (auto &v : per_sm) {
    std::sort(v.begin(), v.end(), [](const Rec &a, const Rec &b) { return a.start < b.start; });
    std::vector<unsigned long long> ends;
    for (const Rec &x : v)
      ends.push_back(x.end);
    std::sort(ends.begin(), ends.end());
    for (size_t k = 0; k < v.size(); ++k) {
      dur.push_back(double(v[k].end - v[k].start));
      if (k < size_t(fit))
        continue; // the first wave
      ++after;
      first_after = std::min(first_after, v[k].start);
      last_after = std::max(last_after, v[k].start);
      // The end that freed this CTA's slot: the (k - fit + 1)-th end on this SM.
      latency.push_back(double(v[k].start) - double(ends[k - size_t(fit)]));
      spacing.push_back(double(v[k].start - v[k - 1].start));
    }
  }
  const double span_us = double(last_after - first_after) / 1e3;
  std::printf("%d,%d,%lld,%d,%.2f,%.2f,%.0f,%.0f,%.3f\n", block, fit, spin, ctas,
              double(t1 - t0) / 1e3, span_us > 0 ? double(after) / span_us : 0.0, median(latency),
              median(spacing), median(dur) / 1e3);
  std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv) {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  std::fprintf(stderr, "cta_launch: %s, %d SMs, %zu bytes shared an SM\n", prop.name, sms,
               size_t(prop.sharedMemPerMultiprocessor));
  Rec *d_rec;
  const int max_ctas = sms * 32 * 40;
  CHECK(cudaMalloc(&d_rec, sizeof(Rec) * max_ctas));
  std::printf("block,slots_per_sm,spin_cycles,ctas,total_us,ctas_per_us_after_first_wave,"
              "refill_latency_ns_median,start_spacing_ns_median,cta_us_median\n");
  const size_t smem = prop.sharedMemPerMultiprocessor;
  for (int a = 1; a < argc; ++a) {
    int block = 0, slots = 0;
    long long spin = -1;
    if (std::sscanf(argv[a], "%d:%d:%lld", &block, &slots, &spin) != 3 || block < 1 ||
        block > 1024 || slots < 1 || slots > 32 || spin < 0) {
      std::fprintf(stderr, "cta_launch: '%s' is not BLOCK:SLOTS:SPIN (1-1024, 1-32, >= 0)\n",
                   argv[a]);
      return 2;
    }
    run(sms, block, slots, spin, 20, d_rec, smem);
  }
  if (argc > 1)
    return 0;
  const int configs[][2] = {{128, 16}, {224, 9}, {256, 8}, {512, 4}, {1024, 2}, {256, 2}};
  for (auto c : configs)
    for (long long spin : {0LL, 1000LL, 4000LL, 16000LL})
      run(sms, c[0], c[1], spin, 20, d_rec, smem);
  return 0;
}
