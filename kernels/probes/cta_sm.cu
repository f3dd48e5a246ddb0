// CTA placement probe (issue 10 §2, "What decides sharing"): runs the listing-4 matmul and the
// listing-3 stencil (linear order, as `cbi bench` launches them) and records, per CTA, the SM it
// ran on (%smid) and when it started and finished (%globaltimer, ns, comparable across SMs;
// clock64, cycles of its SM). The output shows the real CTA-to-SM order, how many CTAs an SM holds
// at once, and how far apart in time the CTAs on one SM run.
//
// Usage: cta_sm OUTDIR [KERNEL:N:BLOCK ...]   writes OUTDIR/cta-<kernel>-<size>-b<block>.csv
// (without configurations: matmul 1024 at blocks 256, 128, 1024 and the stencil 4096 at 256)
#include "check.cuh"
#include "clock.cuh"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

struct CtaRecord {
  unsigned smid;
  unsigned long long t_start_ns, t_end_ns;
  long long clock_start, clock_end;
};

__device__ void record_start(CtaRecord *rec, unsigned long long &t, long long &c) {
  if (threadIdx.x == 0) {
    t = globaltimer();
    c = clock64();
  }
  (void)rec;
}
__device__ void record_end(CtaRecord *rec, unsigned long long t, long long c) {
  __syncthreads();
  if (threadIdx.x == 0) {
    CtaRecord r{smid(), t, globaltimer(), c, clock64()};
    rec[blockIdx.x] = r;
  }
}

// Listing 4, linear order: thread i computes out[y][x] with x = i mod I_w, y = i div I_w.
__global__ void matmul(const float *a, const float *b, float *out, int n, CtaRecord *rec) {
  unsigned long long t = 0;
  long long c = 0;
  record_start(rec, t, c);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n * n) {
    const int x = i % n, y = i / n;
    float s = 0;
    for (int k = 0; k < n; ++k)
      s += a[y * n + k] * b[x + k * n];
    out[i] = s;
  }
  record_end(rec, t, c);
}

// Listing 3, linear order, clamped 9x9 window.
__global__ void stencil(const float *in, float *out, int n, CtaRecord *rec) {
  unsigned long long t = 0;
  long long c = 0;
  record_start(rec, t, c);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n * n) {
    const int x = i % n, y = i / n;
    float s = 0;
    for (int dy = -4; dy <= 4; ++dy)
      for (int dx = -4; dx <= 4; ++dx)
        s += in[min(n - 1, max(0, y + dy)) * n + min(n - 1, max(0, x + dx))];
    out[i] = s / 81;
  }
  record_end(rec, t, c);
}

static void run(const std::string &dir, const char *kernel, int n, int block) {
  const long long elems = (long long)n * n;
  float *a, *b, *out;
  CHECK(cudaMalloc(&a, elems * 4));
  CHECK(cudaMalloc(&b, elems * 4));
  CHECK(cudaMalloc(&out, elems * 4));
  CHECK(cudaMemset(a, 0x3f, elems * 4));
  CHECK(cudaMemset(b, 0x3f, elems * 4));
  const int grid = static_cast<int>((elems + block - 1) / block);
  CtaRecord *rec;
  CHECK(cudaMalloc(&rec, sizeof(CtaRecord) * grid));
  for (int rep = 0; rep < 3; ++rep) { // the last launch is recorded (warm caches and clocks)
    if (kernel[0] == 'm')
      matmul<<<grid, block>>>(a, b, out, n, rec);
    else
      stencil<<<grid, block>>>(a, out, n, rec);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
  }
  std::vector<CtaRecord> host(grid);
  CHECK(cudaMemcpy(host.data(), rec, sizeof(CtaRecord) * grid, cudaMemcpyDeviceToHost));
  const std::string path =
      dir + "/cta-" + kernel + "-" + std::to_string(n) + "-b" + std::to_string(block) + ".csv";
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f) {
    std::perror(path.c_str());
    std::exit(1);
  }
  unsigned long long t0 = ~0ull;
  for (const CtaRecord &r : host)
    t0 = r.t_start_ns < t0 ? r.t_start_ns : t0;
  std::fprintf(f, "cta,smid,start_ns,end_ns,clock_start,clock_end\n");
  for (int k = 0; k < grid; ++k)
    std::fprintf(f, "%d,%u,%llu,%llu,%lld,%lld\n", k, host[k].smid, host[k].t_start_ns - t0,
                 host[k].t_end_ns - t0, host[k].clock_start, host[k].clock_end);
  std::fclose(f);
  std::printf("%s n=%d block=%d grid=%d -> %s\n", kernel, n, block, grid, path.c_str());
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(out));
  CHECK(cudaFree(rec));
}

int main(int argc, char **argv) {
  const std::string dir = argc > 1 ? argv[1] : ".";
  if (argc > 2) { // KERNEL:N:BLOCK ... (issue 20: the dispatch order at blocks 512, 768, 1024)
    for (int a = 2; a < argc; ++a) {
      char kernel[16] = {0};
      int n = 0, block = 0;
      if (std::sscanf(argv[a], "%15[a-z]:%d:%d", kernel, &n, &block) != 3 || n < 1 || block < 1 ||
          block > 1024) {
        std::fprintf(stderr, "cta_sm: '%s' is not KERNEL:N:BLOCK (matmul|stencil:N:1..1024)\n",
                     argv[a]);
        return 2;
      }
      run(dir, kernel, n, block);
    }
    return 0;
  }
  run(dir, "matmul", 1024, 256);
  run(dir, "matmul", 1024, 128);
  run(dir, "matmul", 1024, 1024);
  run(dir, "stencil", 4096, 256);
  return 0;
}
