// Warp drift probe (issue 20 §1, the L1 worst cases): in listing 4's matmul with double elements at
// block 512, do the warps of one CTA, and the CTAs sharing an SM, read B in step (so that a B line
// loaded by one warp is still in L1 when the others read it), or do they drift apart?
//
// The kernel is listing 4 under the column:W order (W = 0: linear), double, as cbi bench launches
// it, with lane 0 of every warp writing %globaltimer and clock64 at k = 0, D/8, ..., D (9
// checkpoints) and the SM it ran on. From these, per SM: how far apart in k the co-resident warps
// are at any moment (docs/results/ has the analysis).
//
// Usage: warp_drift OUTDIR [N BLOCK W ...]  writes OUTDIR/drift-<N>-b<BLOCK>-c<W>.csv
// (default: 1024 512 64 and 1024 512 0, the issue's two worst double cases).
#include "check.cuh"
#include "clock.cuh"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

constexpr int kMarks = 9;

struct Mark {
  unsigned long long ns[kMarks];
  long long clock[kMarks];
  unsigned smid;
};

__global__ void matmul_drift(const double *a, const double *b, double *out, int n, int col_w,
                             Mark *marks) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32, gw = i / 32;
  if (i >= n * n)
    return;
  int x, y;
  if (col_w <= 0) {
    x = i % n;
    y = i / n;
  } else { // column:W (W divides n): strips of W columns, row-major inside a strip
    const int strip = i / (col_w * n), r = i % (col_w * n);
    y = r / col_w;
    x = strip * col_w + r % col_w;
  }
  double s = 0;
  const int step = n / (kMarks - 1);
  for (int k = 0; k < n; ++k) {
    if (lane == 0 && k % step == 0) {
      marks[gw].ns[k / step] = globaltimer();
      marks[gw].clock[k / step] = clock64();
    }
    s += a[y * n + k] * b[x + k * n];
  }
  out[y * n + x] = s;
  if (lane == 0) {
    marks[gw].ns[kMarks - 1] = globaltimer();
    marks[gw].clock[kMarks - 1] = clock64();
    marks[gw].smid = smid();
  }
}

static void run(const std::string &dir, int n, int block, int col_w) {
  const long long elems = (long long)n * n;
  double *a, *b, *out;
  CHECK(cudaMalloc(&a, elems * 8));
  CHECK(cudaMalloc(&b, elems * 8));
  CHECK(cudaMalloc(&out, elems * 8));
  CHECK(cudaMemset(a, 0, elems * 8));
  CHECK(cudaMemset(b, 0, elems * 8));
  const int grid = static_cast<int>((elems + block - 1) / block);
  const int warps = static_cast<int>((elems + 31) / 32);
  Mark *marks;
  CHECK(cudaMalloc(&marks, sizeof(Mark) * warps));
  for (int rep = 0; rep < 2; ++rep) { // the second launch is recorded (warm clocks)
    matmul_drift<<<grid, block>>>(a, b, out, n, col_w, marks);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
  }
  std::vector<Mark> host(static_cast<std::size_t>(warps));
  CHECK(cudaMemcpy(host.data(), marks, sizeof(Mark) * warps, cudaMemcpyDeviceToHost));
  unsigned long long t0 = ~0ull;
  for (const Mark &m : host)
    t0 = m.ns[0] < t0 ? m.ns[0] : t0;
  const std::string path = dir + "/drift-" + std::to_string(n) + "-b" + std::to_string(block) +
                           "-c" + std::to_string(col_w) + ".csv";
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f) {
    std::perror(path.c_str());
    std::exit(1);
  }
  std::fprintf(f, "warp,cta,smid");
  for (int k = 0; k < kMarks; ++k)
    std::fprintf(f, ",ns%d", k);
  for (int k = 0; k < kMarks; ++k)
    std::fprintf(f, ",clk%d", k);
  std::fprintf(f, "\n");
  for (int w = 0; w < warps; ++w) {
    const Mark &m = host[static_cast<std::size_t>(w)];
    std::fprintf(f, "%d,%d,%u", w, w * 32 / block, m.smid);
    for (int k = 0; k < kMarks; ++k)
      std::fprintf(f, ",%llu", m.ns[k] - t0);
    for (int k = 0; k < kMarks; ++k)
      std::fprintf(f, ",%lld", m.clock[k]);
    std::fprintf(f, "\n");
  }
  std::fclose(f);
  std::printf("matmul double n=%d block=%d column:%d -> %s\n", n, block, col_w, path.c_str());
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(out));
  CHECK(cudaFree(marks));
}

int main(int argc, char **argv) {
  const std::string dir = argc > 1 ? argv[1] : ".";
  if (argc > 2) {
    if ((argc - 2) % 3 != 0) {
      std::fprintf(stderr, "warp_drift: configurations are triples N BLOCK W\n");
      return 2;
    }
    for (int a = 2; a + 2 < argc; a += 3)
      run(dir, std::atoi(argv[a]), std::atoi(argv[a + 1]), std::atoi(argv[a + 2]));
    return 0;
  }
  run(dir, 1024, 512, 64);
  run(dir, 1024, 512, 0);
  return 0;
}
