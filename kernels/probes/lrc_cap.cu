// L2 request coalescer capacity probe (issue 20 §1, the L1->L2 sectors of the naive matmuls'
// column orders). The H100's L2 request coalescer (LRC) merges reads of one sector sent by SMs of
// one GPC (l2_parts lrc, docs/results/tight/l2-partitions.md §1.3). What it did not answer: how
// many reads of one sector can the LRC merge into one L2 read when many SMs of a GPC send them
// together? With all 66 SMs of a side reading 1 MiB together 26.5% of the reads reached the L2,
// about 4.4 a GPC per sector, which either a limit of merges per read or the SMs' coming apart in
// time could give.
//
// A thread-block cluster's CTAs run on SMs of one GPC (the CUDA programming guide's guarantee), so
// a cluster of N CTAs, each alone on its SM (its dynamic shared memory leaves room for one), makes
// N SMs of one GPC. They meet at a cluster barrier, then each of their 32 warps reads the same
// N_LINES 128-byte lines (one ld.global.cg warp instruction a line: 4 sectors), rank r after
// r * STAGGER cycles. Under ncu, lts__t_sectors_srcunit_tex_op_read.sum / (N * N_LINES * 4) is the
// fraction of the reads that reach the L2: 1 / N if the LRC merges all of them, ceil(N / C) / N if
// one L2 read takes at most C reads.
//
// Usage: lrc_cap N_LINES STAGGER N [N ...]   one launch (kernel lrc_cap_kernel) per N, N = 1..16;
//   prints a line per launch: n, the SMs the cluster ran on, and whether they were distinct.
#include "check.cuh"

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kThreads = 1024;
constexpr int kOneCtaShared = 120 << 10; // dynamic shared memory that leaves room for one CTA an SM

__device__ inline unsigned smid() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

__device__ inline unsigned ldcg(const unsigned *p) {
  unsigned v;
  asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

__global__ void lrc_cap_kernel(const unsigned *buf, int n_lines, long long stagger, unsigned *sms,
                               unsigned *sink) {
  extern __shared__ unsigned shared[];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  if (threadIdx.x == 0)
    sms[rank] = smid();
  cluster.sync();
  const long long start = clock64();
  while (clock64() - start < stagger * rank) {
  }
  const int warps = blockDim.x / 32, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  unsigned acc = 0;
  for (int l = warp; l < n_lines; l += warps)
    acc += ldcg(buf + static_cast<long long>(l) * 32 + lane);
  if (acc == 0xdeadbeefu)
    sink[threadIdx.x] = acc;
  shared[0] = 0;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: lrc_cap N_LINES STAGGER N [N ...]   (N: cluster size 1-16)\n");
    return 2;
  }
  const int n_lines = std::atoi(argv[1]);
  const long long stagger = std::atoll(argv[2]);
  if (n_lines < 1 || stagger < 0) {
    std::fprintf(stderr, "lrc_cap: N_LINES must be >= 1 and STAGGER >= 0\n");
    return 2;
  }
  unsigned *buf, *sms, *sink;
  CHECK(cudaMalloc(&buf, static_cast<size_t>(n_lines) * 128));
  CHECK(cudaMemset(buf, 3, static_cast<size_t>(n_lines) * 128));
  CHECK(cudaMalloc(&sms, 16 * sizeof(unsigned)));
  CHECK(cudaMalloc(&sink, kThreads * sizeof(unsigned)));
  CHECK(cudaFuncSetAttribute(lrc_cap_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             kOneCtaShared));
  CHECK(cudaFuncSetAttribute(lrc_cap_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  int rc = 0;
  for (int a = 3; a < argc; ++a) {
    const int n = std::atoi(argv[a]);
    if (n < 1 || n > 16) {
      std::fprintf(stderr, "lrc_cap: N must be 1-16, got %s\n", argv[a]);
      return 2;
    }
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(n);
    cfg.blockDim = dim3(kThreads);
    cfg.dynamicSmemBytes = kOneCtaShared;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = n;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    int clusters = 0;
    CHECK(cudaOccupancyMaxActiveClusters(&clusters, lrc_cap_kernel, &cfg));
    if (clusters < 1) {
      std::printf("n %d: no GPC can hold a cluster of %d one-CTA SMs; skipped\n", n, n);
      continue;
    }
    CHECK(cudaMemset(sms, 0xff, 16 * sizeof(unsigned)));
    CHECK(cudaLaunchKernelEx(&cfg, lrc_cap_kernel, static_cast<const unsigned *>(buf), n_lines,
                             stagger, sms, sink));
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<unsigned> h(16);
    CHECK(cudaMemcpy(h.data(), sms, 16 * sizeof(unsigned), cudaMemcpyDeviceToHost));
    std::vector<unsigned> s(h.begin(), h.begin() + n);
    std::sort(s.begin(), s.end());
    const bool distinct = std::adjacent_find(s.begin(), s.end()) == s.end();
    std::printf("n %d lines %d stagger %lld clusters_max %d distinct %d sms", n, n_lines, stagger,
                clusters, distinct ? 1 : 0);
    for (int r = 0; r < n; ++r)
      std::printf(" %u", h[static_cast<size_t>(r)]);
    std::printf("\n");
    if (!distinct)
      rc = 1;
  }
  return rc;
}
