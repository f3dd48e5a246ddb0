// cbi diagram --model gpu: one SM's spatial-temporal grid, from the GPU model's observer
// (grid.hpp). The model runs the whole device (the L2 is shared); the observer records the watched
// SM's load sectors compactly (12 bytes each), and the grid is binned once their number is known.
#include "cbi/viz/grid.hpp"

#include "cbi/error.hpp"

#include <algorithm>
#include <set>

namespace cbi::viz {

sim::SimConfig gpu_grid_sim_config(const sim::GpuConfig &c) {
  const sim::Device &d = c.device;
  sim::SimConfig s;
  s.workload = c.workload;
  s.order = c.order;
  s.granularity = sim::Granularity::exact;
  sim::CacheConfig l1;
  l1.line_bytes = d.l1_line_bytes;
  l1.sector_bytes = d.l1_sector_bytes;
  l1.capacity_lines = (c.l1_bytes > 0 ? c.l1_bytes : d.l1_bytes) / d.l1_line_bytes;
  l1.ways = c.l1_ways >= 0 ? c.l1_ways : d.l1_ways;
  sim::CacheConfig l2;
  l2.line_bytes = d.l2_line_bytes;
  l2.sector_bytes = d.l2_sector_bytes;
  l2.capacity_lines = d.l2_bytes / d.l2_line_bytes;
  l2.ways = d.l2_ways;
  s.levels = {l1, l2};
  return s;
}

GpuTrace trace_gpu(const sim::GpuConfig &c, int sm, const sim::Progress &progress) {
  sim::validate(c);
  GpuTrace t;
  t.view = std::make_shared<GpuView>();
  GpuView &view = *t.view;
  view.config = c;
  view.sm = sm;
  view.warps_per_cta = (c.block_threads + c.device.warp_size - 1) / c.device.warp_size;
  t.sim = gpu_grid_sim_config(c);
  const uint64_t sector_bytes = static_cast<uint64_t>(t.sim.levels.front().unit_bytes());
  std::set<int64_t> ctas;
  sim::GpuObserver observer;
  observer.sm = sm;
  observer.on_sector = [&](const sim::GpuSectorEvent &e) {
    if (e.issue >= static_cast<int64_t>(UINT32_MAX))
      throw UsageError("--size", "SM " + std::to_string(sm) +
                                     " issued more than 2^32 warp instructions; allowed: a "
                                     "smaller --size");
    if (e.issue == static_cast<int64_t>(t.request_cta.size())) {
      t.request_cta.push_back(e.cta);
      t.request_warp.push_back(e.warp);
      t.request_first.push_back(e.instruction == 0);
      ctas.insert(e.cta);
    }
    const uint8_t state = e.l1 != sim::L1Outcome::miss
                              ? cell::served
                              : static_cast<uint8_t>(cell::served + (e.l2_hit ? 1 : 2));
    view.pending_hits += e.l1 == sim::L1Outcome::pending_hit;
    t.events.push_back({static_cast<uint32_t>(e.issue),
                        static_cast<uint32_t>(e.sector_byte_addr / sector_bytes), state});
  };
  view.result = sim::simulate_gpu(c, progress, &observer); // gpu.observe_sm: --sm
  view.requests = static_cast<int64_t>(t.request_cta.size());
  view.ctas = static_cast<int64_t>(ctas.size());
  if (view.requests == 0)
    throw UsageError("--sm", "SM " + std::to_string(sm) + " ran no CTA of this launch (" +
                                 std::to_string(view.result.ctas) + " CTAs on " +
                                 std::to_string(c.device.sms) +
                                 " SMs); allowed: an SM below the number of CTAs");
  return t;
}

Grid gpu_grid(const GpuTrace &t, Binning bins, int64_t cols) {
  if (bins.time_bin < 1 || bins.line_bin < 1 || (bins.line_bin & (bins.line_bin - 1)))
    throw UsageError("--bin", "bins must be positive and the line bin a power of two");
  auto view = std::make_shared<GpuView>(*t.view);
  Grid g;
  g.sim = t.sim;
  g.steps = view->requests;
  g.lines = line_count(t.sim);
  g.bins = bins;
  g.cols = std::max(cols, (g.steps + bins.time_bin - 1) / bins.time_bin);
  g.rows = (g.lines + bins.line_bin - 1) / bins.line_bin;
  g.cells.assign(static_cast<std::size_t>(g.cols * g.rows), cell::not_cached);
  g.marks.assign(static_cast<std::size_t>(g.cols), 0);
  g.lower_residency = false;
  const bool binned = g.binned();
  if (binned) {
    g.accesses.assign(g.cells.size(), 0);
    g.missed.assign(2, std::vector<uint32_t>(g.cells.size(), 0));
  }
  int line_shift = 0;
  while ((int64_t{1} << line_shift) < bins.line_bin)
    ++line_shift;
  // The SM's counts, as sim::SimResult counts them: L1 in sectors of its loads, L2 in the sectors
  // it asked L2 for.
  sim::CacheStats l1, l2;
  for (const GpuTrace::Event &e : t.events) {
    const int served = e.state - cell::served;
    ++l1.accesses;
    if (served == 0) {
      ++l1.hits;
    } else {
      ++l1.misses;
      ++l1.fetches;
      ++l2.accesses;
      ++(served == 1 ? l2.hits : l2.misses);
      l2.fetches += served == 2;
    }
    const int64_t col = e.request / bins.time_bin;
    const int64_t row = static_cast<int64_t>(e.sector >> line_shift);
    if (row >= g.rows)
      continue;
    const auto i = static_cast<std::size_t>(col * g.rows + row);
    g.cells[i] = std::max(g.cells[i], e.state);
    if (binned && g.accesses[i] < UINT32_MAX) {
      ++g.accesses[i];
      for (int k = 0; k < served; ++k)
        ++g.missed[static_cast<std::size_t>(k)][i];
    }
  }
  g.result.levels = {l1, l2};
  g.result.threads = t.sim.workload.tasks();
  g.result.accesses = l1.accesses;
  g.result.seconds = view->result.seconds;
  // Marks: a CTA's first instruction on this SM (block), a warp's first (warp). Unbinned grids
  // also keep each column's CTA and warp, for the bands above the cells.
  std::set<int64_t> started;
  for (std::size_t r = 0; r < t.request_cta.size(); ++r) {
    uint8_t &m = g.marks[r / static_cast<std::size_t>(bins.time_bin)];
    if (started.insert(t.request_cta[r]).second)
      m |= mark::block;
    if (t.request_first[r])
      m |= mark::warp;
  }
  if (!binned) {
    view->column_cta = t.request_cta;
    view->column_warp = t.request_warp;
  }
  g.gpu = std::move(view);
  return g;
}

Grid build_gpu_grid(const sim::GpuConfig &c, int sm, int64_t max_cols, int64_t max_rows) {
  const GpuTrace t = trace_gpu(c, sm);
  return gpu_grid(t, fit_bins(t.view->requests, line_count(t.sim), max_cols, max_rows));
}

} // namespace cbi::viz
