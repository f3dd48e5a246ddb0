// Lines missing together in one request (2026-11-29, docs/results/tight/miss-lines.md): what an
// SM pays for a warp load whose N lines (on N distinct banks, a word each, broadcast to 32 / N
// lanes) miss in L1 and hit in L2 together, against the same N lines missing one request apart.
//
// Why: kernels/probes/l1_matmul (tight/l1-issue.md §8) ran the naive matmul's k loop with A's rows
// in L2 at 24-77% more cycles for column:8 and column:4 (4 and 8 rows of A a warp, their sectors
// missing on the same k step) than column:32 (one row), where with every load a hit the same
// shapes cost 0-16%. The model counts those misses right but charges a request of many missing
// lines no more than one of one line. Is it the lines missing together, their count, or the
// misses' rate?
//
// A warp reads N rows of its own (row pitch `L` words + 4, so that word k of row g lies on bank
// (4g + k) mod 32: distinct for N = 1, 2, 4, 8). Request r of
// a warp reads word k_r of each of its N rows; `step` 1: k advances a word a request (a sector's
// 8 words, so its N sectors miss together once in 8 requests, as the matmul's A under
// column:32/N); `step` 8: a sector a request (every request misses all N). `stagger` (step 1):
// row g's k is ahead by g x 8 / N words, so that the N rows reach a new sector on different
// requests (the same misses, one line at a time). Every SM's warp w reads the
// same rows (rows offset by SM so that no two SMs of a GPC read a line at once), 64 warps an SM
// (8 CTAs of 256 threads) and 16 (2 CTAs), the rows long enough (L = 8192 words) that an SM's
// rows (16 or 64 warps x N x 32 KiB) never stay in L1 and all SMs' (16 MiB at most) stay in L2.
// Four loads in flight a warp (independent addresses, summed). Time: the median of 15 event-timed
// launches after 2; cycles a request = ms x the SM clock / (requests a warp x warps an SM).
//
// usage: l1_miss_lines > l1_miss_lines.csv   (columns: warps_per_sm, lines, step, stagger,
//                                             cycles_per_request, sector_misses_per_request, ms)
//        l1_miss_lines WARPS LINES STEP STAGGER   (one configuration, one launch: for ncu)
#include "check.cuh"
#include "timing.cuh"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr int kThreads = 256, kWarpsPerCta = kThreads / 32, kRowWords = 8192,
              kPitchWords = kRowWords + 4, kRequests = 2048, kInFlight = 4, kMaxWarpsPerSm = 64;

// Row g of warp w: its first word in the buffer.
__host__ __device__ inline long row_start(int warp_in_sm, int lines, int g) {
  return long(warp_in_sm * lines + g) * kPitchWords;
}

__global__ void __launch_bounds__(kThreads)
    miss_kernel(const float *buf, int lines, int step, int stagger, int ctas_per_sm, float *sink) {
  const int lane = threadIdx.x % 32, sm = blockIdx.x / ctas_per_sm;
  const int warp_in_sm = (blockIdx.x % ctas_per_sm) * kWarpsPerCta + threadIdx.x / 32;
  const int g = lane / (32 / lines);
  const float *row = buf + row_start(warp_in_sm, lines, g);
  // CTA group s starts s x 104 words into the rows (13 sectors): no two SMs read a sector at once.
  int k = (sm * 104 + (stagger ? g * 8 / lines : 0)) % kRowWords;
  float sum = 0.f;
  for (int r = 0; r < kRequests; r += kInFlight) {
    float v[kInFlight];
#pragma unroll
    for (int u = 0; u < kInFlight; ++u)
      v[u] = row[(k + u * step) & (kRowWords - 1)];
#pragma unroll
    for (int u = 0; u < kInFlight; ++u)
      sum += v[u];
    k = (k + kInFlight * step) & (kRowWords - 1);
  }
  if (sum != 0.f) // never (the buffer holds zeros): keeps the loads
    *sink = sum;
}

void run(int warps_per_sm, int lines, int step, int stagger, int sms, const float *buf, float *sink,
         int warm = 2, int timed = 15) {
  const int ctas_per_sm = warps_per_sm / kWarpsPerCta;
  const auto go = [&] {
    miss_kernel<<<sms * ctas_per_sm, kThreads>>>(buf, lines, step, stagger, ctas_per_sm, sink);
    CHECK(cudaGetLastError());
  };
  const std::vector<float> ms = event_times_ms(go, warm, timed);
  const double med = ms[ms.size() / 2];
  const double requests_per_sm = double(warps_per_sm) * kRequests;
  // Sectors a request misses: N every 8 / step requests.
  const double misses = double(lines) * step / 8.0;
  std::printf("%d,%d,%d,%d,%.3f,%.3f,%.5f\n", warps_per_sm, lines, step, stagger,
              med * sm_clock_khz() / requests_per_sm, misses, med);
}

} // namespace

int main(int argc, char **argv) {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  // CTAs are placed one an SM in turn (blockIdx.x / ctas_per_sm is a label: which SM a CTA lands
  // on is the dispatcher's; the offsets only need to differ between CTAs that share a row).
  const std::size_t words = std::size_t(kMaxWarpsPerSm) * 8 * kPitchWords;
  float *buf, *sink;
  CHECK(cudaMalloc(&buf, words * sizeof(float)));
  CHECK(cudaMemset(buf, 0, words * sizeof(float)));
  CHECK(cudaMalloc(&sink, sizeof(float)));
  std::fprintf(stderr, "l1_miss_lines: %s, %d SMs, %.1f MiB of rows at most\n", prop.name, sms,
               double(words) * 4 / (1 << 20));
  if (argc == 5) { // one configuration, for ncu
    run(std::atoi(argv[1]), std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4]), sms, buf,
        sink, 0, 1);
    return 0;
  }
  std::printf("warps_per_sm,lines,step,stagger,cycles_per_request,sector_misses_per_request,ms\n");
  for (int warps : {64, 16})
    for (int step : {1, 8})
      for (int lines : {1, 2, 4, 8})
        for (int stagger : {0, 1}) {
          if (stagger && (lines == 1 || step == 8))
            continue; // one line, or every request missing all: nothing to stagger
          run(warps, lines, step, stagger, sms, buf, sink);
        }
  return 0;
}
