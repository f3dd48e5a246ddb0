#include "point.hpp"

#include "axis.hpp"
#include "cbi/cli/options.hpp"
#include "cbi/error.hpp"

#include <iomanip>
#include <sstream>

namespace cbi::sweep {

namespace {

uint64_t fnv1a(const std::string &s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

} // namespace

std::string Point::key() const {
  std::string k;
  for (const AxisDef &d : axis_defs()) {
    const std::string text = axis_text(d, *this);
    if (d.implied && (text == d.implied || text == "-"))
      continue;
    k += (k.empty() ? "" : " ") + std::string(d.name) + "=" + text;
  }
  return k;
}

std::string Point::id() const {
  std::ostringstream os;
  os << std::hex << std::setw(16) << std::setfill('0') << fnv1a(key());
  return os.str();
}

bool simulated(kernels::KernelKind k) {
  return k == kernels::KernelKind::stencil || k == kernels::KernelKind::matmul;
}

std::optional<sim::SimConfig> sim_config(const Point &p) {
  if (!simulated(p.kernel))
    return std::nullopt;
  sim::SimConfig c;
  sim::Workload &w = c.workload;
  w.kind = p.kernel == kernels::KernelKind::matmul ? sim::WorkloadKind::matmul
                                                   : sim::WorkloadKind::stencil;
  w.width = p.size.w;
  w.height = p.size.h;
  if (p.stencil) {
    w.stencil_w = p.stencil->w;
    w.stencil_h = p.stencil->h;
  }
  if (p.depth)
    w.depth = *p.depth == 0 ? w.width : *p.depth;
  w.elem_bytes = kernels::elem_bytes(p.type);
  sim::validate(w);
  c.order = p.order.value_or(remap::Order{});
  std::string spec = p.cache;
  if (spec ==
      "table3") // Table 3.1 (stencil, 24 lines) / Table 3.2 (matmul, 32 lines), L = 4 elements
    spec = w.kind == sim::WorkloadKind::matmul ? "lines=32" : "lines=24";
  for (const auto &[name, levels] : cache_presets())
    if (spec == name && name != "table3")
      spec = levels;
  c.levels.clear();
  try {
    for (const std::string &level : split_list(spec, '/'))
      c.levels.push_back(cli::parse_level(level, w));
    sim::validate(c);
  } catch (const UsageError &e) {
    throw UsageError("--cache", std::string(e.what()) + " (in cache '" + p.cache + "')");
  }
  return c;
}

kernels::BenchConfig bench_config(const Point &p) {
  kernels::BenchConfig c;
  c.kernel = p.kernel;
  if (p.order)
    c.order = *p.order;
  c.block_threads = p.block_threads;
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

} // namespace cbi::sweep
