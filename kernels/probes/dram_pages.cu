// DRAM order and issue probe (2026-11-29, docs/results/tight/dram-pages.md). The naive stencils
// that move DRAM at 1.5-3 TB/s run 5-17% slower in column orders and 8-28% slower in tile:16 than
// in linear with the same DRAM bytes (docs/results/tight/y-set.md §5), which the GPU model predicts
// alike. Two causes are separated here:
// - the order's pattern in DRAM: threads that run together read (and write) a 2D array in tiles
//   of a given shape rather than row after row, with the same instructions for every shape;
// - the order's instructions: `alu` dependent integer operations on the index before the load
//   (as a remap's divisions are), with the same pattern.
//
// The array is 2^rows_log2 rows of 2^pitch_log2 elements (4 or 8 bytes), 256 MiB, four times the
// L2. Thread i of the launch (one thread an element, 256 a CTA, CTAs dispatched in order) takes
// element map(i) of tiles 2^tw x 2^th laid row-major over the array, its threads row-major inside
// (shifts and masks only, so every shape costs the same): the thesis's column:W order is the tile
// W x rows, tile:T the tile T x T, linear the tile pitch x 1. Mode `read` loads the element (kept
// by a never-true compare), `copy` also stores it to a second array at the same place, as a 1x1
// stencil does. `resident`: the element index is masked to the first 16 KiB of the array, so the
// loads hit L1 and the time is the instructions' (the issue time without DRAM). Each
// configuration is warmed by 3 launches and timed by 30 event pairs (median, min, max).
//
// usage: dram_pages [--ncu | --pads] > dram_pages.csv   (--ncu: each configuration launched once,
//   for ncu's instruction and byte counters, in the order of the rows; --pads: the copies of every
//   tile shape at alu 0 with each row padded by 0, 32 and 96 elements, a first column `pad`: is the
//   pattern's cost that of a power-of-two row pitch?)
//   columns: elem_bytes, pitch, rows, tile_w, tile_h, mode, alu, resident, bytes (read + written a
//            launch, 0 when resident), ms_median, ms_min, ms_max, gbs_median
#include "check.cuh"
#include "timing.cuh"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

namespace {

struct Map {
  unsigned pitch_log2, tw, th, mask; // mask: all ones, or the resident elements' index mask
  unsigned alu, mul, add;            // `alu` dependent e = e * mul + add (mul 1, add 0)
  unsigned row_elems;                // --pads: a row's elements in memory, 2^pitch_log2 + pad
};

__device__ __forceinline__ unsigned element_of(unsigned i, const Map &m) {
  const unsigned in = i & ((1u << (m.tw + m.th)) - 1), tile = i >> (m.tw + m.th);
  const unsigned across_log2 = m.pitch_log2 - m.tw;
  const unsigned tx = tile & ((1u << across_log2) - 1), ty = tile >> across_log2;
  const unsigned x = (tx << m.tw) | (in & ((1u << m.tw) - 1)), y = (ty << m.th) | (in >> m.tw);
  unsigned e = m.row_elems ? y * m.row_elems + x : (y << m.pitch_log2) | x;
  for (unsigned k = 0; k < m.alu; ++k)
    e = e * m.mul + m.add;
  return e & m.mask;
}

template <class T, bool kCopy> __global__ void pages_kernel(const T *src, T *dst, Map m, T *sink) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned e = element_of(i, m);
  const T v = src[e];
  if (kCopy)
    dst[e] = v;
  else if (v == T(-1)) // never (the array holds zeros): keeps the read
    *sink = v;
}

struct Shape {
  int elem_bytes;
  unsigned pitch_log2, rows_log2;
};

struct Config {
  unsigned tw, th; // log2 of the tile's width and height
  bool copy;
  unsigned alu;
  bool resident;
};

template <class T>
void run(const Shape &s, const Config &c, bool once, void *a, void *b, void *sink, int pad = -1) {
  const unsigned n = 1u << (s.pitch_log2 + s.rows_log2);
  const unsigned resident_mask = (16384u / sizeof(T)) - 1;
  const unsigned row_elems = pad < 0 ? 0u : (1u << s.pitch_log2) + unsigned(pad);
  const Map m{s.pitch_log2, c.tw, c.th, c.resident ? resident_mask : ~0u, c.alu, 1, 0, row_elems};
  const int threads = 256;
  const unsigned ctas = n / threads;
  auto go = [&] {
    const T *src = static_cast<const T *>(a);
    T *dst = static_cast<T *>(b), *k = static_cast<T *>(sink);
    if (c.copy)
      pages_kernel<T, true><<<ctas, threads>>>(src, dst, m, k);
    else
      pages_kernel<T, false><<<ctas, threads>>>(src, dst, m, k);
    CHECK(cudaGetLastError());
  };
  const std::vector<float> ms = event_times_ms(go, once ? 0 : 3, once ? 1 : 30);
  const double bytes = c.resident ? 0 : double(n) * sizeof(T) * (c.copy ? 2 : 1);
  const double med = ms[ms.size() / 2];
  if (pad >= 0)
    std::printf("%d,", pad);
  std::printf("%d,%u,%u,%u,%u,%s,%u,%d,%.0f,%.5f,%.5f,%.5f,%.1f\n", s.elem_bytes,
              1u << s.pitch_log2, 1u << s.rows_log2, 1u << c.tw, 1u << c.th,
              c.copy ? "copy" : "read", c.alu, c.resident ? 1 : 0, bytes, med, ms.front(),
              ms.back(), bytes / (med * 1e6));
  std::fflush(stdout);
}

// The configurations of one shape: every tile shape at alu 0 (read and copy), then linear and
// column:32 with alu 0-96, each in DRAM and resident.
std::vector<Config> configs_of(const Shape &s) {
  const unsigned rows = s.rows_log2, pitch = s.pitch_log2;
  std::vector<std::pair<unsigned, unsigned>> tiles = {{pitch, 0}, {pitch, 3}};
  for (unsigned w = 5; w <= 10; ++w)
    tiles.push_back({w, rows}); // column:32 .. column:1024
  for (unsigned t : {3u, 4u, 5u})
    tiles.push_back({t, t}); // tile:8, tile:16, tile:32
  tiles.push_back({5, 3});   // tile:32x8
  std::vector<Config> out;
  for (bool copy : {false, true})
    for (const auto &[w, h] : tiles)
      out.push_back({w, h, copy, 0, false});
  for (const auto &[w, h] : {std::pair<unsigned, unsigned>{pitch, 0}, {5u, rows}})
    for (unsigned alu : {0u, 8u, 16u, 32u, 48u, 64u, 96u})
      for (bool resident : {false, true})
        out.push_back({w, h, true, alu, resident});
  return out;
}

} // namespace

int main(int argc, char **argv) {
  const bool once = argc > 1 && std::strcmp(argv[1], "--ncu") == 0;
  const bool pads = argc > 1 && std::strcmp(argv[1], "--pads") == 0;
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::fprintf(stderr, "dram_pages: %s, %d SMs, L2 %d MiB\n", prop.name, prop.multiProcessorCount,
               prop.l2CacheSize >> 20);
  const size_t bytes = size_t(288) << 20; // 256 MiB and the padding of --pads
  void *a, *b, *sink;
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&b, bytes));
  CHECK(cudaMalloc(&sink, 16));
  CHECK(cudaMemset(a, 0, bytes));
  CHECK(cudaMemset(b, 0, bytes));
  const Shape shapes[] = {{4, 13, 13}, {8, 12, 13}}; // float 8192 x 8192, double 4096 x 8192
  std::printf("%selem_bytes,pitch,rows,tile_w,tile_h,mode,alu,resident,bytes,ms_median,ms_min,"
              "ms_max,gbs_median\n",
              pads ? "pad," : "");
  if (pads) { // the copies of every tile shape at alu 0, rows padded by 0, 32 and 96 elements
    for (int pad : {0, 32, 96})
      for (const Shape &s : shapes)
        for (const Config &c : configs_of(s)) {
          if (!c.copy || c.alu != 0 || c.resident)
            continue;
          if (s.elem_bytes == 4)
            run<float>(s, c, false, a, b, sink, pad);
          else
            run<double>(s, c, false, a, b, sink, pad);
        }
  } else {
    for (const Shape &s : shapes)
      for (const Config &c : configs_of(s)) {
        if (s.elem_bytes == 4)
          run<float>(s, c, once, a, b, sink);
        else
          run<double>(s, c, once, a, b, sink);
      }
  }
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(sink));
  return 0;
}
