#include "cbi/config/point.hpp"

#include "cbi/config/axis.hpp"
#include "cbi/config/options.hpp"
#include "cbi/error.hpp"
#include "cbi/sim/workloads.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace cbi::config {

namespace {
// The simulator's model of a CUDA kernel: the workload whose WorkloadTraits::kernel names it
// (listing 3's stencil, listing 4's matmul, the tiled sgemm-tiled and stencil-smem); none for a
// kernel the simulator does not model.
std::optional<sim::WorkloadKind> kernel_workload(kernels::KernelKind k) {
  return sim::workload_of_kernel(kernels::to_string(k));
}
} // namespace

std::string hash_hex(const std::string &s) {
  uint64_t h = 1469598103934665603ull; // FNV-1a 64
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  std::ostringstream os;
  os << std::hex << std::setw(16) << std::setfill('0') << h;
  return os.str();
}

std::string Point::key() const {
  std::string k;
  for (const AxisDef &d : axis_defs()) {
    const std::optional<std::string> value = axis_text(d, *this);
    if (d.implied && (!value || *value == d.implied))
      continue;
    // An absent axis keeps the spelling "-" in the key: ids recorded by earlier sweeps stay valid.
    std::string text = value.value_or("-");
    if (std::string(d.name) == "cache")
      text = cache_levels(*this); // the levels, not the preset's name
    k += (k.empty() ? "" : " ") + std::string(d.name) + "=" + text;
  }
  // The fields no axis spans, where they differ from their defaults (grid points never do).
  if (workload && workload != kernel_workload(kernel))
    k += std::string(" workload=") + sim::to_string(*workload);
  if (boundary != sim::Boundary::clamp)
    k += " boundary=none";
  if (writes)
    k += " writes=true";
  if (granularity != sim::Granularity::exact)
    k += " granularity=thread";
  if (classify_misses)
    k += " classify_misses=true";
  if (block_x)
    k += " block_x=" + std::to_string(*block_x);
  if (device)
    k += " device=" + *device;
  if (sample_sms)
    k += " sample_sms=" + std::to_string(*sample_sms);
  if (trace)
    k += " trace=" + *trace;
  else if (user)
    k += " user=" + user->describe();
  return k;
}

std::string cache_levels(const Point &p) {
  // Table 3.1 (stencil, 24 lines) / Table 3.2 (matmul, 32 lines), L = 4 elements; 24 for a
  // kernel the simulator does not model, as its points' ids recorded.
  Cache levels{"", p.cache.levels};
  for (LevelSpec &l : levels.levels)
    if (!l.capacity_bytes && !l.capacity_lines) {
      const std::optional<sim::WorkloadKind> kind = sim_workload(p);
      l.capacity_lines = kind ? sim::workload_traits(*kind).table_lines : 24;
    }
  return spell(levels);
}

std::string Point::id() const { return hash_hex(key()); }

bool simulated(kernels::KernelKind k) { return kernel_workload(k).has_value(); }

std::optional<sim::WorkloadKind> sim_workload(const Point &p) {
  if (p.user)
    return sim::kUserWorkloadKind;
  return p.workload ? p.workload : kernel_workload(p.kernel);
}

sim::Workload workload_of(const Point &p) {
  if (p.user) {
    sim::Workload w = sim::make_workload(p.user, kernels::elem_bytes(p.type));
    sim::validate(w);
    return w;
  }
  const std::optional<sim::WorkloadKind> kind = sim_workload(p);
  if (!kind)
    throw UsageError("--kernel", std::string(kernels::to_string(p.kernel)) +
                                     " is not simulated; allowed: " + sim::kernel_workload_names());
  sim::Workload w;
  w.kind = *kind;
  w.width = p.size.w;
  w.height = p.size.h;
  if (p.stencil) {
    w.stencil_w = p.stencil->w;
    w.stencil_h = p.stencil->h;
  }
  w.depth = p.depth && *p.depth > 0 ? *p.depth : w.width; // matmul's D = I_w by default
  w.elem_bytes = kernels::elem_bytes(p.type);
  w.boundary = p.boundary;
  w.writes = p.writes;
  if (p.block_order)
    w.block_order = *p.block_order;
  sim::validate(w);
  return w;
}

std::optional<sim::SimConfig> sim_config(const Point &p) {
  if (!sim_workload(p))
    return std::nullopt;
  sim::SimConfig c;
  c.workload = workload_of(p);
  const sim::Workload &w = c.workload;
  c.order = p.order.value_or(remap::Order{});
  c.granularity = p.granularity;
  c.classify_misses = p.classify_misses;
  c.levels.clear();
  try {
    for (const LevelSpec &level : p.cache.levels)
      c.levels.push_back(resolve(level, w, "--cache"));
    sim::validate(c);
  } catch (const UsageError &e) {
    throw UsageError("--cache", std::string(e.what()) + " (in cache '" + spell(p.cache) + "')");
  }
  return c;
}

sim::GpuConfig gpu_config(const Point &p) {
  sim::GpuConfig g;
  g.workload = workload_of(p);
  g.order = p.order.value_or(remap::Order{});
  g.device = sim::find_device(p.device.value_or(kDefaultDevice));
  g.block_threads = p.block_threads;
  g.sample_sms = p.sample_sms.value_or(0); // 0: every SM
  g.jobs = p.jobs.value_or(1);
  return g;
}

kernels::BenchConfig bench_config(const Point &p) {
  if (p.workload && p.workload != kernel_workload(p.kernel))
    throw UsageError("--workload", std::string(sim::to_string(*p.workload)) +
                                       " has no CUDA kernel; allowed: stencil, matmul");
  kernels::BenchConfig c;
  c.kernel = p.kernel;
  if (p.order)
    c.order = *p.order;
  c.block_threads = p.block_threads;
  // stencil-2d's width: as given, else a warp's 32 (the whole block where it is smaller).
  c.block_x = p.block_x ? *p.block_x : std::min(c.block_x, c.block_threads);
  c.width = p.size.w;
  c.height = p.size.h;
  if (p.stencil) {
    c.stencil_w = static_cast<int>(p.stencil->w);
    c.stencil_h = static_cast<int>(p.stencil->h);
  }
  if (p.depth)
    c.depth = *p.depth;
  c.type = p.type;
  if (p.remap_math)
    c.remap_math = *p.remap_math;
  if (p.block_order)
    c.block_order = *p.block_order;
  return c;
}

std::vector<std::pair<std::string, std::string>> cache_presets() {
  // L1s fully associative LRU, the thesis's model: GPUs hash addresses onto sets, while a
  // modulo-indexed 4-way model maps the 9 rows of a 4096-wide stencil window (16 KiB apart) onto
  // one set and thrashes for every order alike.
  return {{"table3", "Table 3.1/3.2: 24 (stencil) or 32 (matmul) lines of 4 elements, fully "
                     "associative LRU"},
          {"l1-64k", "size=64KiB,line=128,sector=32"},
          {"l1-256k", "size=256KiB,line=128,sector=32"},
          // L2s 16-way: a fully associative 4 MiB LRU costs 3x the simulation time.
          {"turing", "size=64KiB,line=128,sector=32/size=4MiB,line=128,ways=16,sector=32"},
          {"h100", "size=256KiB,line=128,sector=32/size=50MiB,line=128,ways=16,sector=32"}};
}

} // namespace cbi::config
