// L2 partitions probe (issue 20 §1, the L2's two partitions and its request coalescer). The H100
// and H200 split the L2 in two partitions joined by a fabric; ncu counts lookups that cross it
// (lts__t_sectors_srcunit_ltcfabric). What the GPU model needs to know, and what each mode asks:
//
//   map OUTDIR      Which partition an SM is near, which partition an address is homed in, and
//                   whether the near partition keeps a copy of a far-homed line. One CTA per SM.
//                   A reference SM reads a set of lines (so each is in L2); then every other SM
//                   chases its own 64 of them twice with ld.global.cg, timing each load with
//                   clock64. An SM near the reference's partition hits near on every line; an SM
//                   of the other side takes longer on the lines homed on the reference's side
//                   (looked up over the fabric), on its first pass, and on its second too unless
//                   the first left a copy near. Written twice (reference smid 0 and the last):
//                   OUTDIR/map-refR.csv: smid,k,vaddr,lat1,lat2 (cycles). Also the first-wave
//                   CTA-to-SM order at blocks 1024 (2 an SM), 256 (8) and 128 (16):
//                   OUTDIR/order-bB.csv: cta,smid.
//   foot SIDES F_MB PATTERN [PATTERN ...]
//                   A footprint of F_MB MiB read twice (pass 1, a grid barrier, pass 2), 512-byte
//                   chunks with ld.global.cg, one CTA per SM, for ncu's DRAM and L2 counts (run it
//                   under ncu --cache-control all: DRAM read minus F is pass 2's misses). SIDES:
//                   the file `sides` that `analyze` makes from map (smid side per line). PATTERN:
//                     one0 / one1  only the SMs of side 0 / 1 read, each chunk by the same SM twice
//                     both         every SM reads, each chunk by the same SM twice
//                     swap         every SM reads; pass 2's reader of a chunk is on the other side
//                     single       one SM (the first of side 0) reads everything
//   lrc SIDES N_LINES DELAY SMID [SMID ...]
//                   The listed SMs read the same N_LINES 128-byte lines (one warp instruction a
//                   line, 32 warps a CTA), the k-th listed starting DELAY*k cycles after a grid
//                   barrier: what the L2 request coalescer merges (lrc__* under ncu) between SMs of
//                   one TPC, one GPC, one side, or the two sides.
#include "check.cuh"
#include "clock.cuh"

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

constexpr int kChainLines = 64;          // lines each SM chases in map
constexpr int kThreads = 1024;           // threads of a probe CTA
constexpr int kOneCtaShared = 120 << 10; // dynamic shared memory that leaves room for one CTA an SM

__device__ inline unsigned ldcg(const unsigned *p) {
  unsigned v;
  asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

__device__ inline uint4 ldcg4(const uint4 *p) {
  uint4 v;
  asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
  return v;
}

// clock64 ordered after the memory operations before it (the compiler keeps asm with a memory
// clobber in place).
__device__ inline long long clock_after() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) : : "memory");
  return t;
}

// Every CTA of the grid (one an SM, all resident) waits here until `count` CTAs have arrived.
__device__ void grid_barrier(unsigned *counter, unsigned count) {
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(counter, 1u);
    while (atomicAdd(counter, 0u) < count) {
    }
  }
  __syncthreads();
}

// map: the reference SM reads every chain line, then the others chase theirs (two passes).
__global__ void map_kernel(const unsigned *buf, const unsigned *lines, int n_lines,
                           const unsigned *head, unsigned ref, unsigned *flag, long long *lat,
                           unsigned *sink) {
  extern __shared__ unsigned shared[];
  const unsigned sm = smid();
  if (sm == ref) {
    unsigned acc = 0;
    for (int i = threadIdx.x; i < n_lines; i += blockDim.x)
      acc += ldcg(buf + lines[i]);
    if (acc == 0xdeadbeefu)
      sink[0] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
      __threadfence();
      atomicExch(flag, 1u);
    }
    return;
  }
  if (threadIdx.x != 0)
    return;
  while (atomicAdd(flag, 0u) == 0) {
  }
  for (int pass = 0; pass < 2; ++pass) {
    unsigned j = head[sm];
    for (int k = 0; k < kChainLines; ++k) {
      const long long t0 = clock_after();
      j = ldcg(buf + j);
      shared[k] = j; // the store waits for the load: the clock below reads after it
      const long long t1 = clock_after();
      lat[(sm * 2 + pass) * kChainLines + k] = t1 - t0;
    }
  }
}

__global__ void order_kernel(unsigned *sm_of) {
  if (threadIdx.x == 0)
    sm_of[blockIdx.x] = smid();
}

// foot: pass 1 chunk c by reader c mod G (G = readers x warps), pass 2 by reader (r + shift) mod P
// of the chunk's pass-1 reader r.
__global__ void foot_kernel(const uint4 *buf, long long chunks, const int *rank_of_sm, int ranks,
                            int shift, unsigned *counter, unsigned *sink) {
  extern __shared__ unsigned shared[];
  const int rank = rank_of_sm[smid()];
  const int warps = blockDim.x / 32, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const long long readers = (long long)ranks * warps;
  uint4 acc = make_uint4(0, 0, 0, 0);
  for (int pass = 0; pass < 2; ++pass) {
    if (rank >= 0) {
      const int r = pass == 0 ? rank : (rank + ranks - shift) % ranks; // whose chunks it reads
      for (long long c = (long long)r * warps + warp; c < chunks; c += readers) {
        const uint4 v = ldcg4(buf + c * 32 + lane);
        acc.x ^= v.x;
        acc.y ^= v.y;
      }
    }
    if (pass == 0)
      grid_barrier(counter, gridDim.x);
  }
  if (acc.x == 0xdeadbeefu && acc.y == 0x1234u)
    sink[threadIdx.x] = acc.x;
  shared[0] = 0;
}

// lrc: reader k (rank_of_sm) waits k * delay cycles after the barrier, then its warps read lines
// w, w + warps, ... of the n_lines.
__global__ void lrc_kernel(const unsigned *buf, int n_lines, const int *rank_of_sm, long long delay,
                           unsigned *counter, unsigned *sink) {
  extern __shared__ unsigned shared[];
  const int rank = rank_of_sm[smid()];
  grid_barrier(counter, gridDim.x);
  if (rank < 0)
    return;
  const long long start = clock64();
  while (clock64() - start < delay * rank) {
  }
  const int warps = blockDim.x / 32, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  unsigned acc = 0;
  for (int l = warp; l < n_lines; l += warps)
    acc += ldcg(buf + (long long)l * 32 + lane);
  if (acc == 0xdeadbeefu)
    sink[threadIdx.x] = acc;
  shared[0] = 0;
}

static int sm_count() {
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  return p.multiProcessorCount;
}

template <class K> static void one_cta_per_sm(K kernel) {
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kOneCtaShared));
}

static void flush_l2() {
  static char *f = nullptr;
  const std::size_t bytes = 512u << 20;
  if (!f)
    CHECK(cudaMalloc(&f, bytes));
  CHECK(cudaMemset(f, 1, bytes));
  CHECK(cudaDeviceSynchronize());
}

__global__ void write_chain(unsigned *buf, const unsigned *from, const unsigned *to, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    buf[from[i]] = to[i];
}

static int map_mode(const std::string &dir) {
  const int sms = sm_count();
  const std::size_t buf_bytes = std::size_t(1) << 30;
  const unsigned words_per_line = 32, buf_lines = unsigned(buf_bytes / 128);
  unsigned *buf;
  CHECK(cudaMalloc(&buf, buf_bytes));
  CHECK(cudaMemset(buf, 0, buf_bytes));
  for (unsigned ref : {0u, unsigned(sms - 1)}) {
    // Each SM's chain: 64 distinct random lines of the 1 GiB buffer (distinct over all chains).
    std::mt19937_64 rng(42 + ref);
    std::vector<unsigned> all, from, to, head(sms, 0);
    std::vector<char> used(buf_lines, 0);
    for (int s = 0; s < sms; ++s) {
      std::vector<unsigned> chain;
      while (chain.size() < kChainLines) {
        const unsigned l = unsigned(rng() % buf_lines);
        if (!used[l]) {
          used[l] = 1;
          chain.push_back(l * words_per_line);
        }
      }
      head[s] = chain[0];
      for (int k = 0; k < kChainLines; ++k) {
        from.push_back(chain[k]);
        to.push_back(chain[(k + 1) % kChainLines]);
        if (s != int(ref))
          all.push_back(chain[k]);
      }
    }
    unsigned *d_from, *d_to, *d_lines, *d_head, *flag, *sink;
    long long *d_lat;
    const int n = int(from.size());
    CHECK(cudaMalloc(&d_from, n * 4));
    CHECK(cudaMalloc(&d_to, n * 4));
    CHECK(cudaMalloc(&d_lines, all.size() * 4));
    CHECK(cudaMalloc(&d_head, sms * 4));
    CHECK(cudaMalloc(&flag, 4));
    CHECK(cudaMalloc(&sink, 4));
    CHECK(cudaMalloc(&d_lat, sizeof(long long) * sms * 2 * kChainLines));
    CHECK(cudaMemcpy(d_from, from.data(), n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_to, to.data(), n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_lines, all.data(), all.size() * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_head, head.data(), sms * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(flag, 0, 4));
    CHECK(cudaMemset(d_lat, 0, sizeof(long long) * sms * 2 * kChainLines));
    write_chain<<<(n + 255) / 256, 256>>>(buf, d_from, d_to, n);
    CHECK(cudaGetLastError());
    flush_l2();
    one_cta_per_sm(map_kernel);
    map_kernel<<<sms, kThreads, kOneCtaShared>>>(buf, d_lines, int(all.size()), d_head, ref, flag,
                                                 d_lat, sink);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<long long> lat(std::size_t(sms) * 2 * kChainLines);
    CHECK(cudaMemcpy(lat.data(), d_lat, lat.size() * sizeof(long long), cudaMemcpyDeviceToHost));
    std::ofstream out(dir + "/map-ref" + std::to_string(ref) + ".csv");
    out << "smid,k,vaddr,lat1,lat2\n";
    for (int s = 0; s < sms; ++s) {
      if (s == int(ref))
        continue;
      // the chain's k-th load reads the line the (k-1)-th named: walk it as the kernel did
      unsigned j = head[s];
      for (int k = 0; k < kChainLines; ++k) {
        out << s << ',' << k << ',' << reinterpret_cast<uintptr_t>(buf + j) << ','
            << lat[(s * 2 + 0) * kChainLines + k] << ',' << lat[(s * 2 + 1) * kChainLines + k]
            << '\n';
        for (int q = 0; q < n; ++q) // the next of j (small: n is 8448)
          if (from[q] == j) {
            j = to[q];
            break;
          }
      }
    }
    std::printf("map ref %u: %zu lines\n", ref, all.size());
    cudaFree(d_from), cudaFree(d_to), cudaFree(d_lines), cudaFree(d_head), cudaFree(flag);
    cudaFree(sink), cudaFree(d_lat);
  }
  for (int per_sm : {2, 8, 16}) {
    const int block = per_sm == 2 ? 1024 : per_sm == 8 ? 256 : 128, grid = per_sm * sms;
    unsigned *d;
    CHECK(cudaMalloc(&d, grid * 4));
    order_kernel<<<grid, block>>>(d);
    CHECK(cudaGetLastError());
    std::vector<unsigned> h(grid);
    CHECK(cudaMemcpy(h.data(), d, grid * 4, cudaMemcpyDeviceToHost));
    std::ofstream out(dir + "/order-b" + std::to_string(block) + ".csv");
    out << "cta,smid\n";
    for (int c = 0; c < grid; ++c)
      out << c << ',' << h[c] << '\n';
    cudaFree(d);
  }
  return 0;
}

static std::vector<int> read_sides(const char *path, int sms) {
  std::vector<int> side(sms, -1);
  std::ifstream in(path);
  int s, v;
  while (in >> s >> v)
    if (s >= 0 && s < sms)
      side[s] = v;
  return side;
}

static int foot_mode(const char *sides_path, double mib, int argc, char **argv) {
  const int sms = sm_count();
  const std::vector<int> side = read_sides(sides_path, sms);
  const long long chunks = (long long)(mib * (1 << 20)) / 512;
  uint4 *buf;
  unsigned *counter, *sink;
  int *d_rank;
  CHECK(cudaMalloc(&buf, chunks * 512));
  CHECK(cudaMemset(buf, 2, chunks * 512));
  CHECK(cudaMalloc(&counter, 4));
  CHECK(cudaMalloc(&sink, 4 * kThreads));
  CHECK(cudaMalloc(&d_rank, 4 * sms));
  one_cta_per_sm(foot_kernel);
  std::vector<int> s0, s1;
  for (int s = 0; s < sms; ++s)
    (side[s] == 1 ? s1 : s0).push_back(s);
  for (int a = 0; a < argc; ++a) {
    const std::string p = argv[a];
    std::vector<int> rank(sms, -1);
    int ranks = 0, shift = 0;
    const auto add = [&](const std::vector<int> &v, std::size_t n) {
      for (std::size_t i = 0; i < n && i < v.size(); ++i)
        rank[v[i]] = ranks++;
    };
    if (p == "one0") {
      add(s0, s0.size());
    } else if (p == "one1") {
      add(s1, s1.size());
    } else if (p == "both") {
      add(s0, s0.size());
      add(s1, s1.size());
    } else if (p == "swap") {
      const std::size_t h = std::min(s0.size(), s1.size());
      add(s0, h);
      add(s1, h);
      shift = int(h);
    } else if (p == "single") {
      add(s0, 1);
    } else {
      std::fprintf(stderr, "foot: unknown pattern %s (one0, one1, both, swap, single)\n",
                   p.c_str());
      return 2;
    }
    CHECK(cudaMemcpy(d_rank, rank.data(), 4 * sms, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(counter, 0, 4));
    foot_kernel<<<sms, kThreads, kOneCtaShared>>>(buf, chunks, d_rank, ranks, shift, counter, sink);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::printf("foot %.0f MiB %s: %d readers, shift %d\n", mib, p.c_str(), ranks, shift);
  }
  return 0;
}

static int lrc_mode(const char *sides_path, int n_lines, long long delay, int argc, char **argv) {
  const int sms = sm_count();
  (void)sides_path;
  std::vector<int> rank(sms, -1);
  int ranks = 0;
  for (int a = 0; a < argc; ++a) {
    const int s = std::atoi(argv[a]);
    if (s >= 0 && s < sms && rank[s] < 0)
      rank[s] = ranks++;
  }
  unsigned *buf, *counter, *sink;
  int *d_rank;
  CHECK(cudaMalloc(&buf, (long long)n_lines * 128));
  CHECK(cudaMemset(buf, 3, (long long)n_lines * 128));
  CHECK(cudaMalloc(&counter, 4));
  CHECK(cudaMalloc(&sink, 4 * kThreads));
  CHECK(cudaMalloc(&d_rank, 4 * sms));
  CHECK(cudaMemcpy(d_rank, rank.data(), 4 * sms, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(counter, 0, 4));
  one_cta_per_sm(lrc_kernel);
  lrc_kernel<<<sms, kThreads, kOneCtaShared>>>(buf, n_lines, d_rank, delay, counter, sink);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::printf("lrc %d lines, delay %lld, %d readers\n", n_lines, delay, ranks);
  return 0;
}

int main(int argc, char **argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "map" && argc == 3)
    return map_mode(argv[2]);
  if (mode == "foot" && argc >= 5)
    return foot_mode(argv[2], std::atof(argv[3]), argc - 4, argv + 4);
  if (mode == "lrc" && argc >= 6)
    return lrc_mode(argv[2], std::atoi(argv[3]), std::atoll(argv[4]), argc - 5, argv + 5);
  std::fprintf(stderr, "usage: l2_parts map OUTDIR | foot SIDES F_MIB PATTERN... | lrc SIDES "
                       "N_LINES DELAY SMID...\n");
  return 2;
}
