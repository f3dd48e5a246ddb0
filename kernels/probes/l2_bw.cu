// L2 -> L1 bandwidth probe (2026-11-28, docs/results/tight/l2-bw.md): how many bytes a cycle an SM
// receives from the L2 when every load misses its L1 and hits the L2, by the request's shape, the
// number of SMs that load at once and the warps an SM keeps busy. The GPU model bounds a kernel's
// time by l2_to_l1_bytes_per_cycle (per SM; sim/src/device.cpp), which was fitted on times
// (25.5 bytes a cycle an SM on the H100) when the model's L1 misses were too few; with the misses
// now right, the linear float and half matmuls are predicted 10-40% slow (h100-fresh.md §6).
//
// Each warp loads from a buffer far larger than an L1 and smaller than the L2 (all L2 hits after
// a warm pass): load i of warp w reads chunk hash(w, i) of the buffer, so an SM's loads seldom meet
// a line it already holds. A chunk is one request's span: `lines` lines per request, each lane
// reading `elem` bytes, lanes_per_line = 32 / lines consecutive lanes to a line. kUnroll loads a
// warp are in flight (independent addresses, the loaded values summed). CTAs whose SM is not among
// the first `active` SM ids return at once; thread 0 of every working CTA reads clock64 around the
// timed loop (after a __syncthreads), and an SM's rate is its bytes over its longest CTA span. The
// event-timed kernel gives the device-wide rate beside it.
//
// usage: l2_bw [--ncu] > l2bw.csv   (--ncu: only the full-device shapes, once each, for ncu)
//   columns: op, elem_bytes, lines, sectors, buffer_mib, active_sms, warps_per_sm, requests,
//            bytes_per_cycle_per_sm median/min/max over the active SMs (sector bytes: 32 a
//            sector the request touches), device_gbs (events, sector bytes)
#include "check.cuh"
#include "clock.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

constexpr int kUnroll = 8;

template <bool kCg> __device__ inline float load4(const float *p) {
  if constexpr (kCg) {
    float v;
    asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
  } else {
    return *p;
  }
}

__device__ inline unsigned mix(unsigned w, unsigned i) {
  unsigned x = w * 0x9E3779B1u ^ (i * 0x85EBCA77u + 0x165667B1u);
  x ^= x >> 15;
  x *= 0x2C1B3C6Du;
  x ^= x >> 12;
  return x;
}

// elem 4, 8 or 16 bytes a lane: the lane loads elem/4 floats (one vector load where elem > 4).
template <bool kCg, int kElem>
__global__ void bw_kernel(const float *buf, unsigned chunk_mask, int lines, int active, int rounds,
                          long long *span, unsigned *sm_of, float *sink) {
  const unsigned sm = smid();
  if (threadIdx.x == 0)
    sm_of[blockIdx.x] = sm;
  if (int(sm) >= active)
    return;
  const int lane = threadIdx.x % 32;
  const int lanes_per_line = 32 / lines;
  // The lane's byte offset in its chunk: line lane / lanes_per_line, consecutive elements in it.
  const unsigned chunk_bytes = unsigned(lines) * 128u;
  const unsigned lane_bytes =
      unsigned(lane / lanes_per_line) * 128u + unsigned(lane % lanes_per_line) * kElem;
  const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  float sum = 0;
  __syncthreads();
  long long start = 0;
  if (threadIdx.x == 0)
    start = clock64();
  for (int r = 0; r < rounds; ++r) {
    float v[kUnroll][kElem / 4];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const unsigned c = mix(warp, unsigned(r * kUnroll + u)) & chunk_mask;
      const float *p = buf + (size_t(c) * chunk_bytes + lane_bytes) / 4;
      if constexpr (kElem == 4) {
        v[u][0] = load4<kCg>(p);
      } else if constexpr (kElem == 8) {
        float2 t;
        if constexpr (kCg)
          asm volatile("ld.global.cg.v2.f32 {%0,%1}, [%2];" : "=f"(t.x), "=f"(t.y) : "l"(p));
        else
          t = *reinterpret_cast<const float2 *>(p);
        v[u][0] = t.x;
        v[u][1] = t.y;
      } else {
        float4 t;
        if constexpr (kCg)
          asm volatile("ld.global.cg.v4.f32 {%0,%1,%2,%3}, [%4];"
                       : "=f"(t.x), "=f"(t.y), "=f"(t.z), "=f"(t.w)
                       : "l"(p));
        else
          t = *reinterpret_cast<const float4 *>(p);
        v[u][0] = t.x;
        v[u][1] = t.y;
        v[u][2] = t.z;
        v[u][3] = t.w;
      }
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
#pragma unroll
      for (int e = 0; e < kElem / 4; ++e)
        sum += v[u][e];
  }
  __syncthreads();
  if (threadIdx.x == 0)
    span[blockIdx.x] = clock64() - start;
  if (sum == -1.0f) // never (the buffer holds zeros): keeps the loads
    *sink = sum;
}

struct Config {
  bool cg;
  int elem, lines, buffer_mib, active, warps_per_sm;
};

template <bool kCg, int kElem>
void launch(const Config &c, const float *buf, int ctas, int threads, int rounds, long long *d_span,
            unsigned *d_sm, float *d_sink) {
  const unsigned chunks = unsigned((size_t(c.buffer_mib) << 20) / (size_t(c.lines) * 128));
  bw_kernel<kCg, kElem>
      <<<ctas, threads>>>(buf, chunks - 1, c.lines, c.active, rounds, d_span, d_sm, d_sink);
}

// The kernel for the configuration's element size (4, 8 or 16 bytes a lane).
template <bool kCg>
void launch_elem(const Config &c, const float *buf, int ctas, int threads, int rounds,
                 long long *d_span, unsigned *d_sm, float *d_sink) {
  if (c.elem == 4)
    launch<kCg, 4>(c, buf, ctas, threads, rounds, d_span, d_sm, d_sink);
  else if (c.elem == 8)
    launch<kCg, 8>(c, buf, ctas, threads, rounds, d_span, d_sm, d_sink);
  else
    launch<kCg, 16>(c, buf, ctas, threads, rounds, d_span, d_sm, d_sink);
}

void run(const Config &c, int sms, const float *buf, long long *d_span, unsigned *d_sm,
         float *d_sink) {
  // One wave: warps_per_sm warps an SM in CTAs of at most 512 threads.
  const int threads = std::min(512, c.warps_per_sm * 32);
  const int ctas_per_sm = c.warps_per_sm * 32 / threads;
  const int ctas = sms * ctas_per_sm;
  // A request moves its sectors from the L2 (32 bytes each, used or not, as the model counts
  // them); about 512 MiB by the active SMs (at least 8 rounds a warp).
  const int sectors = c.lines * std::max(1, (32 / c.lines) * c.elem / 32);
  const double request_bytes = 32.0 * sectors;
  const int rounds = std::max(
      8, int((512.0 * (1 << 20)) / (double(c.active) * c.warps_per_sm * kUnroll * request_bytes)));
  auto go = [&] {
    if (c.cg)
      launch_elem<true>(c, buf, ctas, threads, rounds, d_span, d_sm, d_sink);
    else
      launch_elem<false>(c, buf, ctas, threads, rounds, d_span, d_sm, d_sink);
    CHECK(cudaGetLastError());
  };
  go(); // warm: the L2 holds what the timed launch reads (the same chunks)
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  CHECK(cudaEventRecord(e0));
  go();
  CHECK(cudaEventRecord(e1));
  CHECK(cudaEventSynchronize(e1));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, e0, e1));
  CHECK(cudaEventDestroy(e0));
  CHECK(cudaEventDestroy(e1));
  std::vector<long long> span(ctas, 0);
  std::vector<unsigned> sm(ctas);
  CHECK(cudaMemcpy(span.data(), d_span, ctas * sizeof(long long), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sm.data(), d_sm, ctas * sizeof(unsigned), cudaMemcpyDeviceToHost));
  std::vector<long long> longest(sms, 0);
  std::vector<int> count(sms, 0);
  for (int k = 0; k < ctas; ++k)
    if (int(sm[k]) < c.active) {
      longest[sm[k]] = std::max(longest[sm[k]], span[k]);
      ++count[sm[k]];
    }
  std::vector<double> rate;
  long long requests = 0;
  for (int s = 0; s < c.active; ++s)
    if (count[s] > 0) {
      const double reqs = double(count[s]) * (threads / 32) * double(rounds) * kUnroll;
      requests += static_cast<long long>(reqs);
      rate.push_back(reqs * request_bytes / double(longest[s]));
    }
  std::sort(rate.begin(), rate.end());
  std::printf("%s,%d,%d,%d,%d,%d,%d,%lld,%.2f,%.2f,%.2f,%.0f\n", c.cg ? "cg" : "ca", c.elem,
              c.lines, sectors, c.buffer_mib, c.active, c.warps_per_sm, requests,
              rate.empty() ? 0.0 : rate[rate.size() / 2], rate.empty() ? 0.0 : rate.front(),
              rate.empty() ? 0.0 : rate.back(), double(requests) * request_bytes / (ms * 1e6));
  // The events include the CTAs that returned at once and the launch: the device-wide rate is
  // a lower bound where few SMs are active.
}

} // namespace

int main(int argc, char **argv) {
  const bool ncu = argc > 1 && std::strcmp(argv[1], "--ncu") == 0;
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  const int max_buffer_mib = 32;
  float *buf;
  long long *d_span;
  unsigned *d_sm;
  float *d_sink;
  CHECK(cudaMalloc(&buf, size_t(max_buffer_mib) << 20));
  CHECK(cudaMemset(buf, 0, size_t(max_buffer_mib) << 20));
  CHECK(cudaMalloc(&d_span, sms * 64 * sizeof(long long)));
  CHECK(cudaMalloc(&d_sm, sms * 64 * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_sink, sizeof(float)));
  std::fprintf(stderr, "l2_bw: %s, %d SMs, L2 %d MiB\n", prop.name, sms, prop.l2CacheSize >> 20);
  std::printf("op,elem_bytes,lines,sectors,buffer_mib,active_sms,warps_per_sm,requests,"
              "bytes_per_cycle_per_sm_median,min,max,device_gbs\n");
  // The request shapes: a float warp over one line (4 sectors: a naive matmul's B row), float2
  // and float4 over 2 and 4 lines (8, 16 sectors), and one sector in each of 32 lines (a column).
  const int shapes[][2] = {{4, 1}, {8, 2}, {16, 4}, {4, 32}, {4, 4}};
  if (ncu) {
    for (auto s : shapes)
      run({false, s[0], s[1], 16, sms, 64}, sms, buf, d_span, d_sm, d_sink);
    return 0;
  }
  for (bool cg : {false, true})
    for (auto s : shapes)
      for (int warps : {8, 16, 32, 64})
        run({cg, s[0], s[1], 16, sms, warps}, sms, buf, d_span, d_sm, d_sink);
  for (auto s : shapes) // fewer SMs at once: a per-SM limit or a shared one
    for (int active : {1, 2, 4, 8, 16, 33, 66, 99})
      run({false, s[0], s[1], 16, active, 64}, sms, buf, d_span, d_sm, d_sink);
  for (int mib : {4, 8, 32}) // buffer size: the L2's near and far halves
    run({false, 4, 1, mib, sms, 64}, sms, buf, d_span, d_sm, d_sink);
  // Shapes that the fit of 2026-11-28 (4 sectors and 1 sector a line) did not see: 2 sectors of
  // each of 4 and 8 lines, 1 sector of each of 16.
  const int more[][2] = {{8, 4}, {16, 8}, {16, 16}};
  for (auto s : more)
    run({false, s[0], s[1], 16, sms, 64}, sms, buf, d_span, d_sm, d_sink);
  return 0;
}
