// The preset table (cbi/sim/presets.hpp). Thesis: Prasetya (2022), Tables 3.1 and 3.2, §3.2.
#include "cbi/sim/presets.hpp"

#include "cbi/error.hpp"
#include "cbi/text.hpp"

namespace cbi::sim {

namespace {

remap::Order linear() { return {remap::OrderKind::linear, 0, 0}; }
remap::Order column(long long w) { return {remap::OrderKind::column, w, 0}; }
remap::Order tile(long long t) { return {remap::OrderKind::tile, t, t}; }

// A 16x16 float task grid, one fully associative LRU level of `lines` lines of 4 floats (16 B).
SimConfig small(WorkloadKind kind, int64_t lines, Boundary boundary, Granularity granularity) {
  SimConfig c;
  c.workload.kind = kind;
  c.workload.width = c.workload.height = 16;
  c.workload.stencil_w = c.workload.stencil_h = 7;
  c.workload.depth = 16;
  c.workload.elem_bytes = 4;
  c.workload.boundary = boundary;
  c.granularity = granularity;
  CacheConfig l1;
  l1.line_bytes = 16;
  l1.capacity_lines = lines;
  l1.ways = 0;
  l1.policy = Policy::lru;
  c.levels = {l1};
  return c;
}

// Table 3.1 as the thesis uses it. §3.2: the diagrams drop "the granularity of the individual
// memory accesses within a thread" (thread granularity); eq. 3.2, 3.5 and 4.8 count a row's
// footprint as I_w + S_w and the rows as I_h + S_h, the input with its halo, not clamped (no
// boundary). 24 lines, line width 4 (16 B of float), LRU, 7x7 stencil on 16x16; §3.1: no
// associativity. Column size 8 (the table's last row); figure 4.4 draws a column of 4.
SimConfig table31(int64_t lines = 24) {
  return small(kind_of<StencilWorkload>(), lines, Boundary::none, Granularity::thread);
}

// Table 3.2: 32 lines of 4 floats, LRU, 16x16 matrices (D = 16), thread granularity (§3.2).
SimConfig table32() {
  return small(kind_of<MatmulWorkload>(), 32, Boundary::clamp, Granularity::thread);
}

Preset row(std::string name, std::string caption, std::string source, SimConfig c,
           std::vector<remap::Order> orders) {
  c.order = orders.front();
  return {std::move(name), std::move(caption), std::move(source), std::move(c), std::move(orders)};
}

} // namespace

const std::vector<Preset> &presets() {
  static const std::vector<Preset> all = {
      row("table3.1", "Table 3.1: 7x7 stencil on 16x16, 24 lines of 16 B, LRU",
          "Table 3.1; thread granularity from §3.2, no boundary from eq. 3.2/4.8 (I_w + S_w)",
          table31(), {linear(), column(4), column(8)}),
      // Not the thesis's diagrams: Table 3.1's sizes and cache run as listing 3's kernel runs
      // (clamped edges) and counted as a GPU counts (every access).
      row("table3.1-clamp-exact",
          "Table 3.1's sizes and cache, clamped edges (listing 3), every access counted",
          "Table 3.1 sizes and cache; clamp from listing 3; exact granularity (per access, as "
          "ncu)",
          small(kind_of<StencilWorkload>(), 24, Boundary::clamp, Granularity::exact),
          {linear(), column(4), column(8)}),
      row("table3.2", "Table 3.2: matrix multiplication 16x16, 32 lines of 16 B, LRU",
          "Table 3.2; thread granularity from §3.2", table32(), {linear(), column(4), column(8)}),
      row("fig3.1", "Figure 3.1: 7x7 stencil, linear order (preset table3.1)",
          "Figure 3.1 with Table 3.1", table31(), {linear()}),
      // eq. 3.2: M_l >= ceil((I_w + S_w) / L) * S_h = ceil(23 / 4) * 7 = 42 lines: no chasing.
      row("fig3.2a", "Figure 3.2a: ideal cache size, 42 lines from eq. 3.2 (only minimal loading)",
          "Figure 3.2a: Table 3.1 with the 42 lines of eq. 3.2", table31(42), {linear()}),
      // Half of Table 3.1's cache: rows are evicted before the next task row can reuse them.
      row("fig3.2b", "Figure 3.2b: cache too small, 12 lines (evicted before any reuse)",
          "Figure 3.2b: Table 3.1 with half its cache", table31(12), {linear()}),
      row("fig3.3", "Figure 3.3: matrix multiplication, linear order (preset table3.2)",
          "Figure 3.3 with Table 3.2", table32(), {linear()}),
      row("fig4.4", "Figure 4.4: 7x7 stencil, column of 4 (preset table3.1)",
          "Figure 4.4 with Table 3.1", table31(), {column(4)}),
      row("fig4.6", "Figure 4.6: matrix multiplication, column of 4 (preset table3.2)",
          "Figure 4.6 with Table 3.2", table32(), {column(4)}),
      row("tiling4", "Tiling (§3.3.2): 7x7 stencil, 4x4 tiles (preset table3.1)",
          "§3.3.2 with Table 3.1", table31(), {tile(4)}),
  };
  return all;
}

std::string preset_names() {
  return join(presets(), ", ", [](const Preset &p) { return p.name; });
}

const Preset &find_preset(const std::string &name, const std::string &option) {
  for (const Preset &p : presets())
    if (p.name == name)
      return p;
  throw UsageError(option, "unknown preset '" + name + "'; allowed: " + preset_names());
}

} // namespace cbi::sim
