// SGEMM steps probe (issue 20 §3, the tiled SGEMM's DRAM bytes at 7168-8192): cbi bench's
// sgemm-tiled kernel itself (kernels/src/sgemm_tiled.cuh) with a Stamp that has thread 0 of every
// CTA record %globaltimer at its first step, at steps S/8, 2S/8, ..., and when its arithmetic is
// done (S = K / 8 steps), with the SM it ran on. What it answers: do the CTAs of a wave, and the
// two CTAs that share an SM, step through K together (as the GPU model's replay has them, paced
// by the arithmetic), or drift apart, so that a K slice that one CTA read must stay in L2 until
// another reaches it?
//
// Usage: sgemm_steps OUTDIR M N K ORDER [M N K ORDER ...]
//   ORDER: a block order as cbi bench's --block-order spells it (linear, column:16, tile:8x8...).
//   Writes OUTDIR/sgemm-steps-MxNxK-ORDER.csv: cta, tile_x, tile_y, smid, ns0..ns8 (from the
//   launch's first stamp). The kernel runs three times after an L2 flush each; the third launch
//   is recorded.
#include "../src/sgemm_tiled.cuh"
#include "check.cuh"
#include "clock.cuh"

#include "cbi/order_text.hpp"
#include "cbi/remap/dispatch.hpp"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr int kMarks = 10; // steps 0, S/8, ..., 7S/8, and the end of the arithmetic; then smid

struct Stamp {
  unsigned long long *ns; // kMarks a CTA
  unsigned *sm;
  __device__ void operator()(int step, int steps) const {
    const int eighth = steps / 8 > 0 ? steps / 8 : 1;
    int mark = -1;
    if (step == steps)
      mark = kMarks - 1;
    else if (step % eighth == 0 && step / eighth < kMarks - 1)
      mark = step / eighth;
    if (mark < 0)
      return;
    ns[blockIdx.x * kMarks + mark] = globaltimer();
    if (step == 0)
      sm[blockIdx.x] = smid();
  }
};

void run(const std::string &dir, int m, int n, int k, const std::string &order_text) {
  using cbi::kernels::detail::kBM;
  using cbi::kernels::detail::kBN;
  const cbi::remap::Order order = cbi::remap::parse_order(order_text, "ORDER");
  const cbi::remap::Shape<int> tiles{(n + kBN - 1) / kBN, (m + kBM - 1) / kBM};
  const int ctas = tiles.width * tiles.height;
  float *a, *b, *c;
  CHECK(cudaMalloc(&a, sizeof(float) * m * (size_t)k));
  CHECK(cudaMalloc(&b, sizeof(float) * k * (size_t)n));
  CHECK(cudaMalloc(&c, sizeof(float) * m * (size_t)n));
  CHECK(cudaMemset(a, 0, sizeof(float) * m * (size_t)k));
  CHECK(cudaMemset(b, 0, sizeof(float) * k * (size_t)n));
  Stamp stamp{};
  CHECK(cudaMalloc(&stamp.ns, sizeof(unsigned long long) * kMarks * ctas));
  CHECK(cudaMemset(stamp.ns, 0, sizeof(unsigned long long) * kMarks * ctas));
  CHECK(cudaMalloc(&stamp.sm, sizeof(unsigned) * ctas));
  const std::size_t flush_bytes = 256u << 20;
  char *flush;
  CHECK(cudaMalloc(&flush, flush_bytes));
  {
    for (int rep = 0; rep < 3; ++rep) {
      CHECK(cudaMemset(flush, rep, flush_bytes));
      cudaEvent_t e0, e1;
      CHECK(cudaEventCreate(&e0));
      CHECK(cudaEventCreate(&e1));
      CHECK(cudaEventRecord(e0));
      cbi::kernels::detail::sgemm_tiled<Stamp>
          <<<ctas, cbi::kernels::detail::kThreads>>>(a, b, c, m, n, k, order, tiles, stamp);
      CHECK(cudaEventRecord(e1));
      CHECK(cudaGetLastError());
      CHECK(cudaDeviceSynchronize());
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, e0, e1));
      std::printf("sgemm %dx%dx%d %s launch %d: %.4f ms\n", m, n, k, order_text.c_str(), rep, ms);
    }
  }
  std::vector<unsigned long long> ns(static_cast<std::size_t>(kMarks) * ctas);
  std::vector<unsigned> sm(static_cast<std::size_t>(ctas));
  CHECK(cudaMemcpy(ns.data(), stamp.ns, sizeof(unsigned long long) * ns.size(),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sm.data(), stamp.sm, sizeof(unsigned) * sm.size(), cudaMemcpyDeviceToHost));
  unsigned long long t0 = ~0ull;
  for (int q = 0; q < ctas; ++q)
    t0 = ns[static_cast<std::size_t>(q) * kMarks] < t0 ? ns[static_cast<std::size_t>(q) * kMarks]
                                                       : t0;
  std::string name = order_text;
  for (char &ch : name)
    if (ch == ':')
      ch = '-';
  const std::string path = dir + "/sgemm-steps-" + std::to_string(m) + "x" + std::to_string(n) +
                           "x" + std::to_string(k) + "-" + name + ".csv";
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f) {
    std::perror(path.c_str());
    std::exit(1);
  }
  std::fprintf(f, "cta,tile_x,tile_y,smid");
  for (int q = 0; q < kMarks; ++q)
    std::fprintf(f, ",ns%d", q);
  std::fprintf(f, "\n");
  cbi::remap::visit_params(order, tiles, [&](auto mapper) {
    for (int q = 0; q < ctas; ++q) {
      const cbi::remap::Task<int> t = mapper.map(q);
      std::fprintf(f, "%d,%d,%d,%u", q, t.x, t.y, sm[static_cast<std::size_t>(q)]);
      for (int j = 0; j < kMarks; ++j)
        std::fprintf(f, ",%llu", ns[static_cast<std::size_t>(q) * kMarks + j] - t0);
      std::fprintf(f, "\n");
    }
  });
  std::fclose(f);
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  CHECK(cudaFree(stamp.ns));
  CHECK(cudaFree(stamp.sm));
  CHECK(cudaFree(flush));
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 6 || (argc - 2) % 4 != 0) {
    std::fprintf(stderr, "usage: sgemm_steps OUTDIR M N K ORDER [M N K ORDER ...]\n");
    return 2;
  }
  for (int q = 2; q + 3 < argc; q += 4) {
    const int m = std::atoi(argv[q]), n = std::atoi(argv[q + 1]), k = std::atoi(argv[q + 2]);
    if (m <= 0 || n <= 0 || k < 64) {
      std::fprintf(stderr, "sgemm_steps: M, N > 0 and K >= 64\n");
      return 2;
    }
    run(argv[1], m, n, k, argv[q + 3]);
  }
  return 0;
}
