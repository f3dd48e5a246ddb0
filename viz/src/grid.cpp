#include "cbi/viz/grid.hpp"

#include "cbi/error.hpp"

#include <algorithm>
#include <limits>

namespace cbi::viz {

int64_t time_steps(const sim::SimConfig &c) {
  return c.granularity == sim::Granularity::thread ? c.workload.tasks() : c.workload.accesses();
}

int64_t line_count(const sim::SimConfig &c) {
  const int64_t unit = c.levels.at(0).unit_bytes();
  return (c.workload.footprint_bytes() + unit - 1) / unit;
}

Binning fit_bins(int64_t steps, int64_t lines, int64_t max_cols, int64_t max_rows) {
  Binning b;
  b.time_bin = std::max<int64_t>(1, (steps + max_cols - 1) / std::max<int64_t>(1, max_cols));
  const int64_t need =
      std::max<int64_t>(1, (lines + max_rows - 1) / std::max<int64_t>(1, max_rows));
  while (b.line_bin < need)
    b.line_bin *= 2;
  return b;
}

GridExtent grid_extent(const sim::SimConfig &c, const Binning &bins) {
  return {(time_steps(c) + bins.time_bin - 1) / bins.time_bin,
          (line_count(c) + bins.line_bin - 1) / bins.line_bin};
}

int64_t Grid::count(uint8_t state) const { return std::count(cells.begin(), cells.end(), state); }

int64_t Grid::l1_miss_cells() const {
  return std::count_if(cells.begin(), cells.end(), [](uint8_t s) { return s > cell::served; });
}

int64_t Grid::accesses_at(int64_t col, int64_t row) const {
  const auto i = static_cast<std::size_t>(col * rows + row);
  return binned() ? accesses[i] : cells[i] >= cell::served;
}

int64_t Grid::missed_at(int64_t col, int64_t row, int level) const {
  const auto i = static_cast<std::size_t>(col * rows + row);
  return binned() ? missed[static_cast<std::size_t>(level)][i] : cells[i] > cell::served + level;
}

int64_t Grid::thread_at(int64_t step) const {
  if (sim.granularity == sim::Granularity::thread || thread_steps.empty())
    return step;
  const auto it = std::upper_bound(thread_steps.begin(), thread_steps.end(), step);
  return static_cast<int64_t>(it - thread_steps.begin()) - 1;
}

namespace {

// Watches the replay (the observer interface of sim::simulate_observed) and writes cells.
class Builder {
public:
  Builder(Grid &g, const sim::Hierarchy &h, const GridSpec &spec)
      : m_g(g), m_h(h), m_exact(spec.sim.granularity == sim::Granularity::exact),
        m_warp(spec.warp_threads), m_block(spec.block_threads),
        m_record(spec.record_thread_steps && m_exact), m_left(g.bins.time_bin),
        m_progress(spec.progress), m_threads(spec.sim.workload.tasks()) {
    while ((int64_t{1} << m_line_shift) < g.bins.line_bin)
      ++m_line_shift;
    m_order = spec.sim.order;
    m_shape = {spec.sim.workload.width, spec.sim.workload.height};
    // Sampling L2+ residency walks every resident unit once per column; skip it when that would
    // dominate the run (it is a shading hint, not a count).
    const int64_t l1_unit = h.level(0).config().unit_bytes();
    int64_t work = 0;
    for (int k = 1; k < h.levels(); ++k) {
      const sim::CacheConfig &lc = h.level(k).config();
      work += g.cols * lc.capacity_lines * (lc.line_bytes / lc.unit_bytes());
      m_lower.push_back(
          {k, static_cast<uint64_t>(lc.unit_bytes()), static_cast<uint64_t>(l1_unit)});
    }
    if (work > (int64_t{1} << 27)) {
      m_lower.clear();
      g.lower_residency = false;
    }
    m_column = g.cells.data();
    m_counts = g.binned();
  }

  void on_thread(int64_t i, remap::Task<int64_t> t) {
    if (m_progress && i > 0 && (i & ((int64_t{1} << 22) - 1)) == 0)
      m_progress(i, m_threads);
    if (!m_exact && i > 0 && m_left == 0)
      close_column();
    if (!m_exact)
      --m_left; // this thread is the column's next step
    const int64_t group = group_of(t);
    uint8_t flags = 0;
    if (i == 0 || group != m_last_group)
      flags |= mark::group;
    if (m_warp && i % m_warp == 0)
      flags |= mark::warp;
    if (m_block && i % m_block == 0)
      flags |= mark::block;
    m_last_group = group;
    if (m_col < m_g.cols)
      m_g.marks[static_cast<std::size_t>(m_col)] |= flags;
    if (m_record)
      m_g.thread_steps.push_back(m_step);
  }

  void on_access(uint64_t unit, int64_t count, bool, int served_level) {
    const uint8_t state = static_cast<uint8_t>(cell::served + served_level);
    if (!m_exact) {
      put(unit, state, count, served_level); // count is 1: one distinct line of the thread
      return;
    }
    // Exact granularity: the first access of the run is served as reported, the other count-1
    // are hits on the same unit; each is one step and may cross into the next column.
    steps(unit, state, 1, served_level);
    if (count > 1)
      steps(unit, cell::served, count - 1, 0);
  }

  void finish() {
    if (m_progress)
      m_progress(m_threads, m_threads);
    if (m_col < m_g.cols && m_left < m_g.bins.time_bin)
      close_column();
  }

private:
  // n accesses to `unit` in the current column, the first served by `served_level`, the rest hits.
  void put(uint64_t unit, uint8_t state, int64_t n, int served_level) {
    const uint64_t row = unit >> m_line_shift;
    if (row < static_cast<uint64_t>(m_g.rows)) {
      uint8_t &c = m_column[row];
      c = std::max(c, state);
      if (m_counts) {
        const auto i = static_cast<std::size_t>(m_col * m_g.rows) + row;
        m_g.accesses[i] += static_cast<uint32_t>(n);
        for (int k = 0; k < served_level; ++k)
          ++m_g.missed[static_cast<std::size_t>(k)][i];
      }
    }
  }

  void steps(uint64_t unit, uint8_t state, int64_t n, int served_level) {
    while (n > 0) {
      const int64_t take = std::min(n, m_left);
      put(unit, state, take, served_level);
      served_level = 0; // only the run's first access can miss
      state = cell::served;
      n -= take;
      m_left -= take;
      m_step += take;
      if (m_left == 0)
        close_column();
    }
  }

  // Samples residency into the current column and moves to the next one.
  void close_column() {
    if (m_col >= m_g.cols)
      return;
    const uint64_t rows = static_cast<uint64_t>(m_g.rows);
    m_h.level(0).for_each_resident([&](uint64_t unit) {
      const uint64_t row = unit >> m_line_shift;
      if (row < rows && m_column[row] < cell::in_l1)
        m_column[row] = cell::in_l1;
    });
    for (const Lower &lower : m_lower)
      m_h.level(lower.level).for_each_resident([&](uint64_t unit) {
        // The level's unit covers bytes [unit*b, (unit+1)*b): L1 units first..last.
        const uint64_t first = unit * lower.unit_bytes / lower.l1_unit_bytes;
        const uint64_t last = ((unit + 1) * lower.unit_bytes - 1) / lower.l1_unit_bytes;
        for (uint64_t row = first >> m_line_shift; row <= (last >> m_line_shift) && row < rows;
             ++row)
          if (m_column[row] < cell::in_lower)
            m_column[row] = cell::in_lower;
      });
    ++m_col;
    m_left = m_g.bins.time_bin;
    if (m_col < m_g.cols)
      m_column += m_g.rows;
  }

  // The order's group of a task (a task row, column or tile: order_traits.hpp).
  int64_t group_of(remap::Task<int64_t> t) const { return remap::group_of(m_order, t, m_shape); }

  struct Lower {
    int level;
    uint64_t unit_bytes, l1_unit_bytes;
  };

  Grid &m_g;
  const sim::Hierarchy &m_h;
  bool m_exact;
  int64_t m_warp, m_block;
  bool m_record;
  int m_line_shift = 0;
  remap::Order m_order;
  remap::Shape<int64_t> m_shape{1, 1};
  std::vector<Lower> m_lower;
  uint8_t *m_column;
  bool m_counts = false; // binned: count accesses and misses per cell
  int64_t m_col = 0;
  int64_t m_left;     // steps still to go in the current column
  int64_t m_step = 0; // exact granularity: steps done
  int64_t m_last_group = std::numeric_limits<int64_t>::min();
  const sim::Progress &m_progress;
  int64_t m_threads;
};

} // namespace

Grid build_grid(const GridSpec &spec) {
  sim::validate(spec.sim);
  if (spec.bins.time_bin < 1 || spec.bins.line_bin < 1 ||
      (spec.bins.line_bin & (spec.bins.line_bin - 1)) != 0)
    throw UsageError("--bin", "bins must be positive and the line bin a power of two");
  Grid g;
  g.sim = spec.sim;
  g.bins = spec.bins;
  g.steps = time_steps(spec.sim);
  g.lines = line_count(spec.sim);
  const GridExtent extent = grid_extent(spec.sim, spec.bins);
  g.cols = extent.cols;
  g.rows = extent.rows;
  g.cells.assign(static_cast<std::size_t>(g.cols * g.rows), cell::not_cached);
  g.marks.assign(static_cast<std::size_t>(g.cols), 0);
  if (g.binned()) {
    // A cell holds at most time_bin x line_bin accesses (one per thread and distinct line) in
    // thread granularity, time_bin (one per step) in exact granularity: 32-bit counts suffice.
    const bool thread = spec.sim.granularity == sim::Granularity::thread;
    const double most =
        static_cast<double>(g.bins.time_bin) * static_cast<double>(thread ? g.bins.line_bin : 1);
    if (most > 4294967295.0)
      throw UsageError("--bin", "bins of " + std::to_string(g.bins.time_bin) + "x" +
                                    std::to_string(g.bins.line_bin) +
                                    " may hold more than 2^32 accesses a cell; allowed: smaller "
                                    "bins");
    g.accesses.assign(g.cells.size(), 0);
    g.missed.assign(spec.sim.levels.size(), std::vector<uint32_t>(g.cells.size(), 0));
  }
  if (spec.record_thread_steps && spec.sim.granularity == sim::Granularity::exact)
    g.thread_steps.reserve(static_cast<std::size_t>(spec.sim.workload.tasks()));
  sim::Hierarchy h(spec.sim.levels);
  Builder builder(g, h, spec);
  g.result = sim::simulate_observed(spec.sim, h, builder);
  builder.finish();
  return g;
}

std::vector<ArrayRegion> array_regions(const sim::Workload &w) {
  std::vector<ArrayRegion> r;
  for (const sim::ArrayLabel &a : w.arrays())
    r.push_back(
        {a.name, a.first_byte / w.elem_bytes, a.row_elems, a.first_row, a.rows, a.first_col});
  return r;
}

ElementPlace locate(const std::vector<ArrayRegion> &regions, int64_t elem) {
  if (regions.empty()) // a workload of your own with no footprint: the flat address space
    return {"memory", 0, elem};
  const ArrayRegion *best = &regions.front();
  for (const ArrayRegion &r : regions)
    if (r.base_elem + r.first_col <= elem)
      best = &r;
  const int64_t off = elem - (best->base_elem + best->first_col);
  // Floor division: elements before the region's first window belong to its row -1.
  const int64_t q =
      off >= 0 ? off / best->row_elems : -((-off + best->row_elems - 1) / best->row_elems);
  return {best->name, best->first_row + q, off - q * best->row_elems + best->first_col};
}

} // namespace cbi::viz
