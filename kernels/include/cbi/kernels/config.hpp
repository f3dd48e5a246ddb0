// What `cbi bench` measures: which kernel, which thread order, which sizes and element type, and
// how to time it. Host only and free of CUDA types, so CPU-only code (the CLI, sweeps) includes it.
#pragma once

#include "cbi/remap/order.hpp"

#include <cstdint>
#include <string>

namespace cbi::kernels {

// stencil: listing 3 on a 1D grid, the linear thread id remapped by --order.
// stencil_2d: listing 3 on a 2D grid (the thesis's stencil_tile), no remap.
// stencil_smem: the shared-memory tiled baseline (separable running sums in a 64x32 tile);
//   --block-order applies.
// matmul: listing 4 on a 1D grid, remapped by --order.
// sgemm_tiled: block-tiled, register-blocked, double-buffered SGEMM after seed 000 (float only);
//   --block-order applies.
// cublas: cuBLAS Sgemm / Dgemm / GemmEx(fp16 in and out, fp32 accumulate), the ceiling.
// The threads of one block, for every command's --block: CUDA's largest block is 1024, and the
// one-thread-per-task kernels guard their tail, so any count from 1 runs (the GPU model's tiny
// device has one thread an SM); under 32, one warp runs with idle lanes, which is what it times.
constexpr int kMaxBlockThreads = 1024;
constexpr const char *kBlockThreadsWhy =
    "CUDA's largest block is 1024; under 32, one warp runs with idle lanes";

enum class KernelKind { stencil, stencil_2d, stencil_smem, matmul, sgemm_tiled, cublas };
enum class ElemType { half, float32, float64 };

const char *to_string(KernelKind k); // "stencil", "stencil-2d", "stencil-smem", "matmul", ...
const char *to_string(ElemType t);   // "half", "float", "double"
const char *kernel_syntax();         // the allowed --kernel values, for help and errors
KernelKind parse_kernel(const std::string &text, const std::string &option = "--kernel");
ElemType parse_type(const std::string &text, const std::string &option = "--type");
int elem_bytes(ElemType t);
bool is_stencil(KernelKind k);
bool is_remapped(KernelKind k);      // launched the thesis's way: 1D grid, --order applies
bool is_block_ordered(KernelKind k); // tiled kernels whose thread blocks --block-order orders

struct BenchConfig {
  KernelKind kernel = KernelKind::stencil;
  remap::Order order;                                   // only for is_remapped kernels
  remap::RemapMath remap_math = remap::RemapMath::fast; // how --order's map divides
  remap::Order block_order; // only for is_block_ordered kernels: CTA k computes tile map(k)
  int block_threads = 256;  // 1D kernels: 1..1024 threads per block (kMaxBlockThreads)
  int block_x = 32;         // stencil_2d: block width; block_threads / block_x rows
  int64_t width = 4096;     // I_w: output columns
  int64_t height = 4096;    // I_h: output rows
  int stencil_w = 9;        // S_w (odd)
  int stencil_h = 9;        // S_h (odd)
  int64_t depth = 0;        // D for matmul (A is I_h x D, B is D x I_w); 0 means I_w
  ElemType type = ElemType::float32;

  bool check = true;    // compare with the CPU reference (in double) before timing
  bool time = true;     // take timed samples (tests may switch this off and only check)
  bool metrics = false; // read hardware counters with the CUPTI range profiler
  bool cold = false;    // flush L2 before every sample
  int min_samples = 20; // timed samples at least
  int max_samples = 1000;
  double max_noise = 0.005; // stop once stdev/mean of the samples is at most this
  double max_seconds = 1.0; // ... or once this much GPU time has been sampled
  uint64_t seed = 1;        // random inputs; every check draws fresh data from it

  int64_t effective_depth() const { return depth > 0 ? depth : width; }
  std::string describe() const; // "stencil 9x9 on 4096x4096 float, column:32, block 256"
};

// Throws UsageError naming the field (kernel.block, kernel.type, ...; the CLI maps it to its
// option) for anything the kernels cannot run: even or oversized
// stencils, blocks outside 1..1024, a type the kernel lacks, sizes beyond 32-bit indexing.
void validate(const BenchConfig &c);

// Work counted for GB/s, GFLOP/s and the roofline: each input read once and the output written
// once (the fewest bytes device memory must move); stencil S_w*S_h flops per output (the adds and
// the scale), matmul 2*D per output.
double min_bytes(const BenchConfig &c);
double flops(const BenchConfig &c);

} // namespace cbi::kernels
