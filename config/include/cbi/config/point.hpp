// The one experiment point: what `cbi simulate`, `cbi bench`, `cbi sweep` and `cbi reproduce` run,
// with typed fields (no placeholders: a field that does not apply to the kernel is absent). The
// commands build it from their options (point_options.hpp) or a grid (grid.hpp); the simulator and
// the kernels take their parts from it through sim_config, gpu_config and bench_config alone. The
// axes that span a grid are typed too (axis.hpp).
#pragma once

#include "cbi/config/cache.hpp"
#include "cbi/config/defaults.hpp"
#include "cbi/kernels/config.hpp"
#include "cbi/remap/order.hpp"
#include "cbi/sim/gpu_model.hpp"
#include "cbi/sim/simulate.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace cbi::config {

// A 2-D extent: task grid I_w x I_h or stencil window S_w x S_h.
struct Extent {
  int64_t w = 0, h = 0;
  bool operator==(const Extent &o) const { return w == o.w && h == o.h; }
};

struct Point {
  int64_t index = 0; // position in the expanded (unsharded) grid
  kernels::KernelKind kernel = kernels::KernelKind::stencil;
  // The simulated workload where the kernel does not name it (stencil3d, which has no CUDA kernel);
  // absent: the kernel's own (sim_workload).
  std::optional<sim::WorkloadKind> workload;
  Extent size{1024, 1024};       // I_w x I_h (N-d sizes folded, §4.1.2; stencil3d: one plane)
  std::optional<Extent> stencil; // S_w x S_h, stencils only
  std::optional<int64_t> depth;  // matmul's D (0 = I_w); stencil3d's planes P
  kernels::ElemType type = kernels::ElemType::float32;
  sim::Boundary boundary = sim::Boundary::clamp;          // simulated stencils' edges
  bool writes = false;                                    // simulator: replay each output store too
  sim::Granularity granularity = sim::Granularity::exact; // simulator: program order or §3.2
  bool classify_misses = false; // simulator: also sort misses into compulsory/capacity/conflict
  int block_threads =
      kDefaultBlockThreads;          // threads per block (gpu; the sequential replay ignores it)
  std::optional<int> block_x;        // stencil-2d: block width (block_threads / block_x rows)
  std::optional<remap::Order> order; // remapped kernels only (stencil, matmul)
  // Simulator cache: typed levels (cache.hpp), resolved against the point's workload and element
  // size (a level's line defaults to 4 elements; table3 is 24 or 32 lines).
  Cache cache = parse_cache("l1-64k", "--cache");
  std::optional<std::string> device; // the simulator's GPU model on this device row (--model gpu)
  std::optional<int64_t> sample_sms; // GPU model: simulate this many of the device's SMs
  // GPU model: host threads of one replay (--jobs; absent: one). Not in the key: it changes no
  // prediction (tests/sim/test_gpu_parallel.cpp).
  std::optional<int> jobs;
  std::optional<remap::RemapMath> remap_math; // remapped kernels (gpu): how the order divides
  std::optional<remap::Order> block_order;    // block-ordered kernels (gpu): CTA k's tile
  // A workload of your own (cbi/sim/user_workload.hpp) in place of the kernel's: a trace (--trace)
  // or one built in code (Python's workloads). It fixes the tasks, their order and, where it names
  // them, the blocks; `size` and `type` mirror it.
  std::shared_ptr<const sim::UserWorkload> user;
  std::optional<std::string> trace; // the trace file `user` was read from (--trace)

  // "kernel=stencil size=4096 stencil=9x9 depth=- ..." in axis order; an absent axis is spelled
  // "-" here (the CSV leaves its cell empty), so that equal configurations have equal keys. The
  // cache is spelled by its levels (cache_levels), so a preset and its spelled-out levels are one
  // point. An axis added later (AxisDef::implied) is left out of the key at its implied value or
  // where it does not apply. Fields that no axis spans (workload, boundary, writes, granularity,
  // classify_misses, block_x, device, sample_sms) follow as "name=value" where they differ from
  // their defaults, so every grid point keeps the id that earlier sweeps recorded.
  std::string key() const;
  std::string id() const; // 16 hex digits: FNV-1a 64 of key()
};

// 16 hex digits: FNV-1a 64 of `s` (point ids, grid fingerprints).
std::string hash_hex(const std::string &s);

// The cache of `p` as level specs joined by '/' (spell), a preset's levels spelled out and table3's
// capacity as the workload's lines ("lines=24"): what the point's key says.
std::string cache_levels(const Point &p);

// Kernels the simulator models: stencil, matmul, sgemm-tiled, stencil-smem.
bool simulated(kernels::KernelKind k);

// The workload the simulator replays for `p`: p.workload, else the kernel's (stencil, matmul,
// sgemm-tiled, stencil-smem), else nothing (the simulator does not model the kernel).
std::optional<sim::WorkloadKind> sim_workload(const Point &p);

// The simulator's workload of `p` (sizes, element size, edges); UsageError naming the wrong field
// (workload.size, ...) for a bad one, naming --kernel for a kernel the simulator does not model.
sim::Workload workload_of(const Point &p);

// The simulator's configuration of `p` (the cache preset resolved into levels), or nothing for a
// kernel it does not model. Throws UsageError naming --cache for a bad cache.
std::optional<sim::SimConfig> sim_config(const Point &p);

// The GPU model's configuration of `p` (simulate --model gpu): its workload and order on the device
// row p.device (kDefaultDevice when absent) with p.block_threads per block.
sim::GpuConfig gpu_config(const Point &p);

// The kernels' configuration of `p`; the measurement settings keep BenchConfig's defaults. A
// workload without a CUDA kernel (stencil3d) is a UsageError naming --workload.
kernels::BenchConfig bench_config(const Point &p);

// Simulator cache presets ("l1-64k", ...) and their level specs, for help and reports.
std::vector<std::pair<std::string, std::string>> cache_presets();

} // namespace cbi::config
