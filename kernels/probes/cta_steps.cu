// CTA steps probe (issue 20 §1, the double matmul L1 tail and the L2 request coalescer): listing
// 4's matmul as cbi bench launches it (float or double, W x H outputs, depth D, the linear or a
// column:C order), with lane 0 of every warp stamping %globaltimer at k = 0, D/8, ..., D and the SM
// it ran on. Unlike warp_drift (whose per-k test kept the compiler from unrolling the k loop, and
// ran the kernel three times slower than listing 4), the loop between two stamps is listing 4's
// own, unrolled by 4 as nvcc unrolls listing 4, so the probe runs as the kernel does. What it
// answers: do the CTAs that share an SM reach each k together (so that one's B lines are still in
// L1, or on their way, when the other reads them), for double and for float? And how far apart in
// time do CTAs on different SMs read the same B rows (what the L2 request coalescer can merge)?
//
// Usage: cta_steps OUTDIR TYPE W H D BLOCK C [TYPE W H D BLOCK C ...]
//   TYPE float|double; C = 0: linear, else column:C (C divides W). Writes
//   OUTDIR/steps-TYPE-WxH-dD-bBLOCK-cC.csv: warp, cta, smid, ns0..ns8 (from the launch's first
//   stamp). The kernel runs twice; the second launch is recorded (warm clocks), after an L2 flush.
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
  unsigned smid;
};

template <class T>
__global__ void matmul_steps(const T *__restrict__ a, const T *__restrict__ b, T *__restrict__ out,
                             int depth, int width, int height, int col_w, Mark *marks) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= width * height)
    return;
  const int lane = threadIdx.x % 32, gw = i / 32;
  int x, y;
  if (col_w <= 0) {
    x = i % width;
    y = i / width;
  } else { // column:C (C divides W): strips of C columns, row-major inside a strip
    const int strip = i / (col_w * height), r = i % (col_w * height);
    y = r / col_w;
    x = strip * col_w + r % col_w;
  }
  T s = 0;
  for (int m = 0; m < kMarks - 1; ++m) {
    if (lane == 0)
      marks[gw].ns[m] = globaltimer();
    const int k0 = m * depth / (kMarks - 1), k1 = (m + 1) * depth / (kMarks - 1);
#pragma unroll 4
    for (int k = k0; k < k1; ++k)
      s += a[y * depth + k] * b[x + k * width];
  }
  out[y * width + x] = s;
  if (lane == 0) {
    marks[gw].ns[kMarks - 1] = globaltimer();
    marks[gw].smid = smid();
  }
}

template <class T>
static void run(const std::string &dir, const char *type, int w, int h, int d, int block,
                int col_w) {
  const long long outs = (long long)w * h;
  T *a, *b, *out;
  CHECK(cudaMalloc(&a, (long long)h * d * sizeof(T)));
  CHECK(cudaMalloc(&b, (long long)d * w * sizeof(T)));
  CHECK(cudaMalloc(&out, outs * sizeof(T)));
  CHECK(cudaMemset(a, 0, (long long)h * d * sizeof(T)));
  CHECK(cudaMemset(b, 0, (long long)d * w * sizeof(T)));
  const int grid = static_cast<int>((outs + block - 1) / block);
  const int warps = static_cast<int>((outs + 31) / 32);
  Mark *marks;
  CHECK(cudaMalloc(&marks, sizeof(Mark) * warps));
  // An L2 flush before the recorded launch, as cbi bench flushes before each timed launch.
  const std::size_t flush_bytes = 256u << 20;
  char *flush;
  CHECK(cudaMalloc(&flush, flush_bytes));
  for (int rep = 0; rep < 2; ++rep) {
    CHECK(cudaMemset(flush, rep, flush_bytes));
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    CHECK(cudaEventRecord(e0));
    matmul_steps<T><<<grid, block>>>(a, b, out, d, w, h, col_w, marks);
    CHECK(cudaEventRecord(e1));
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    std::printf("%s %dx%d d%d b%d column:%d launch %d: %.4f ms\n", type, w, h, d, block, col_w, rep,
                ms);
  }
  std::vector<Mark> host(static_cast<std::size_t>(warps));
  CHECK(cudaMemcpy(host.data(), marks, sizeof(Mark) * warps, cudaMemcpyDeviceToHost));
  unsigned long long t0 = ~0ull;
  for (const Mark &m : host)
    t0 = m.ns[0] < t0 ? m.ns[0] : t0;
  const std::string path = dir + "/steps-" + type + "-" + std::to_string(w) + "x" +
                           std::to_string(h) + "-d" + std::to_string(d) + "-b" +
                           std::to_string(block) + "-c" + std::to_string(col_w) + ".csv";
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f) {
    std::perror(path.c_str());
    std::exit(1);
  }
  std::fprintf(f, "warp,cta,smid");
  for (int k = 0; k < kMarks; ++k)
    std::fprintf(f, ",ns%d", k);
  std::fprintf(f, "\n");
  for (int g = 0; g < warps; ++g) {
    const Mark &m = host[static_cast<std::size_t>(g)];
    std::fprintf(f, "%d,%d,%u", g, g * 32 / block, m.smid);
    for (int k = 0; k < kMarks; ++k)
      std::fprintf(f, ",%llu", m.ns[k] - t0);
    std::fprintf(f, "\n");
  }
  std::fclose(f);
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(out));
  CHECK(cudaFree(marks));
  CHECK(cudaFree(flush));
}

int main(int argc, char **argv) {
  if (argc < 8 || (argc - 2) % 6 != 0) {
    std::fprintf(stderr, "usage: cta_steps OUTDIR TYPE W H D BLOCK C [TYPE W H D BLOCK C ...]\n");
    return 2;
  }
  const std::string dir = argv[1];
  for (int k = 2; k + 5 < argc; k += 6) {
    const std::string type = argv[k];
    const int w = std::atoi(argv[k + 1]), h = std::atoi(argv[k + 2]), d = std::atoi(argv[k + 3]);
    const int block = std::atoi(argv[k + 4]), col_w = std::atoi(argv[k + 5]);
    if (w <= 0 || h <= 0 || d < 8 || block <= 0 || block > 1024 || col_w < 0 ||
        (col_w > 0 && w % col_w != 0) || (type != "float" && type != "double")) {
      std::fprintf(stderr, "cta_steps: TYPE float|double, W H >= 1, D >= 8, BLOCK 1..1024, C = 0 "
                           "or a divisor of W\n");
      return 2;
    }
    if (type == "float")
      run<float>(dir, "float", w, h, d, block, col_w);
    else
      run<double>(dir, "double", w, h, d, block, col_w);
  }
  return 0;
}
