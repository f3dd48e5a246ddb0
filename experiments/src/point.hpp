// The one experiment point: what `cbi sweep` and `cbi reproduce` run at one position of a grid,
// with typed fields (no "-" placeholders: an axis that does not apply to the kernel is absent).
// The simulator and the kernels take their parts from it (sim_config, bench_config). The axes that
// span a grid are typed too (axis.hpp).
#pragma once

#include "cbi/kernels/config.hpp"
#include "cbi/remap/order.hpp"
#include "cbi/sim/simulate.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace cbi::sweep {

// A 2-D extent: task grid I_w x I_h or stencil window S_w x S_h.
struct Extent {
  int64_t w = 0, h = 0;
  bool operator==(const Extent &o) const { return w == o.w && h == o.h; }
};

struct Point {
  int64_t index = 0; // position in the expanded (unsharded) grid
  kernels::KernelKind kernel = kernels::KernelKind::stencil;
  Extent size{1024, 1024};       // I_w x I_h
  std::optional<Extent> stencil; // S_w x S_h, stencil kernels only
  std::optional<int64_t> depth;  // matmul's D, matmul kernels only; 0 = I_w
  kernels::ElemType type = kernels::ElemType::float32;
  int block_threads = 256;           // threads per block (gpu; the simulator replays one stream)
  std::optional<remap::Order> order; // remapped kernels only (stencil, matmul)
  std::string cache = "l1-64k";      // simulator cache: a preset or level specs joined by '/'
  std::optional<remap::RemapMath> remap_math; // remapped kernels (gpu): how the order divides
  std::optional<remap::Order> block_order;    // block-ordered kernels (gpu): CTA k's tile

  // "kernel=stencil size=4096 stencil=9x9 depth=- ..." in axis order; an absent axis is spelled
  // "-" here and in the CSV, so that equal configurations have equal keys. An axis added later
  // (AxisDef::implied) is left out of the key at its implied value or where it does not apply,
  // so points that earlier sweeps measured keep their ids.
  std::string key() const;
  std::string id() const; // 16 hex digits: FNV-1a 64 of key()
};

// Kernels the simulator models: stencil and matmul.
bool simulated(kernels::KernelKind k);

// The simulator's configuration of `p` (the cache preset resolved into levels), or nothing for a
// kernel it does not model. Throws UsageError naming --cache for a bad cache.
std::optional<sim::SimConfig> sim_config(const Point &p);

// The kernels' configuration of `p`; the measurement settings keep BenchConfig's defaults.
kernels::BenchConfig bench_config(const Point &p);

// Simulator cache presets ("l1-64k", ...) and their level specs, for help and reports.
std::vector<std::pair<std::string, std::string>> cache_presets();

} // namespace cbi::sweep
