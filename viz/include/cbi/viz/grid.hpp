// The spatial-temporal grid of §3.2: one column per time step (a thread in `thread` granularity,
// an access in `exact`), one row per cache line of the address space, each cell holding what
// happened to that line at that step. Built by watching the simulator (sim::simulate_observed),
// so the picture and the statistics come from one replay. Large traces are binned: a cell covers
// time_bin steps and line_bin lines and counts its accesses and, per level, those that missed it,
// so that a bin is drawn by the fraction that missed rather than by its worst event.
#pragma once

#include "cbi/sim/gpu_model.hpp"
#include "cbi/sim/simulate.hpp"

#include <memory>

#include <cstdint>
#include <string>
#include <vector>

namespace cbi::viz {

// Cell states in increasing priority. A binned cell keeps the largest state of its steps and lines
// (its residency when nothing was accessed); its colour comes from the counts in Grid.
namespace cell {
constexpr uint8_t not_cached = 0;
constexpr uint8_t in_lower = 1; // resident in L2 or below but not in L1 (several levels only)
constexpr uint8_t in_l1 = 2;    // resident in L1, not accessed
constexpr uint8_t served = 3;   // served + k: accessed and served by level k: 0 = L1 hit, 1 = L2,
                                // ..., levels = memory (for one level: served + 1 = a miss)
} // namespace cell

// Bit flags per column: where a new group of the order (a task row for linear, a column for
// column/zigzag, a tile for tile), a warp or a block starts.
namespace mark {
constexpr uint8_t group = 1;
constexpr uint8_t warp = 2;
constexpr uint8_t block = 4;
} // namespace mark

struct Binning {
  int64_t time_bin = 1; // steps per column
  int64_t line_bin = 1; // lines per row, a power of two
};

struct GridSpec {
  sim::SimConfig sim;
  Binning bins;
  int64_t warp_threads = 0;  // mark warp starts (0: none)
  int64_t block_threads = 0; // mark block starts (0: none)
  // Keep each thread's first step (exact granularity), for the viewer's readout.
  bool record_thread_steps = false;
  sim::Progress progress; // called with (threads done, threads) every 4M threads, if set
};

// Time steps (columns before binning) and cache lines (rows before binning) of a configuration.
int64_t time_steps(const sim::SimConfig &c);
int64_t line_count(const sim::SimConfig &c);
// The smallest bins that fit time_steps x line_count into max_cols x max_rows cells; line_bin is
// rounded up to a power of two.
Binning fit_bins(int64_t steps, int64_t lines, int64_t max_cols, int64_t max_rows);
// The columns and rows that build_grid draws of `c` with `bins` (its time steps and lines, binned).
struct GridExtent {
  int64_t cols = 0, rows = 0;
};
GridExtent grid_extent(const sim::SimConfig &c, const Binning &bins);

// --model gpu: what one SM of the GPU model saw (build_gpu_grid). Time steps are the SM's warp
// instructions (its load requests, in issue order), rows the 32-byte sectors of the address space.
struct GpuView {
  sim::GpuConfig config;
  sim::GpuResult result; // the whole device's counts and predicted time
  int sm = 0;
  int64_t requests = 0;     // warp instructions (load requests) the SM issued: the time steps
  int64_t ctas = 0;         // CTAs the SM ran
  int64_t pending_hits = 0; // sector hits on data still on its way (counted as hits, as ncu)
  int64_t warps_per_cta = 1;
  // Unbinned grids (one column per warp instruction): the CTA and the warp within it of each
  // column's instruction; binned grids leave these empty and mark CTA starts instead.
  std::vector<int64_t> column_cta;
  std::vector<int32_t> column_warp;
};

struct Grid {
  sim::SimConfig sim;
  Binning bins;
  int64_t steps = 0, lines = 0;      // before binning
  int64_t cols = 0, rows = 0;        // after binning
  std::vector<uint8_t> cells;        // column-major: cells[col * rows + row]
  std::vector<uint8_t> marks;        // per column, mark:: flags
  std::vector<int64_t> thread_steps; // exact granularity with record_thread_steps: first step
  // Binned grids only, column-major like cells: the accesses in each cell, and missed[k] those of
  // them that missed level k (were served by level k+1 or memory). An L1 access is one thread's
  // distinct line in thread granularity, one load or store in exact granularity.
  std::vector<uint32_t> accesses;
  std::vector<std::vector<uint32_t>> missed;
  sim::SimResult result;
  bool lower_residency = true; // false when L2+ residency was skipped as too costly to sample
  // Set for --model gpu grids: cells hold accesses only (the model reports no residency); levels
  // are the SM's L1 and the device's L2.
  std::shared_ptr<const GpuView> gpu;

  int levels() const { return static_cast<int>(sim.levels.size()); }
  uint8_t at(int64_t col, int64_t row) const {
    return cells[static_cast<std::size_t>(col * rows + row)];
  }
  uint8_t miss_state() const { return static_cast<uint8_t>(cell::served + levels()); }
  bool binned() const { return bins.time_bin > 1 || bins.line_bin > 1; }
  // Accesses in a cell and those that missed `level` (0 = L1); from the state when not binned.
  int64_t accesses_at(int64_t col, int64_t row) const;
  int64_t missed_at(int64_t col, int64_t row, int level) const;
  int64_t count(uint8_t state) const;
  // Cells whose access missed L1 (served by L2 or beyond).
  int64_t l1_miss_cells() const;
  // The thread running at a time step (exact granularity needs record_thread_steps).
  int64_t thread_at(int64_t step) const;
};

// Replays the configuration through a fresh hierarchy and fills the grid. Residency is sampled at
// the end of each column's last step. Throws UsageError for invalid configurations.
Grid build_grid(const GridSpec &spec);

// One SM's spatial-temporal grid from the GPU model (issue 10 §3, cbi diagram --model gpu), in two
// steps so that several orders share one scale. trace_gpu runs the model on the whole device (the
// L2 is shared) and its observer records the watched SM's load sectors; gpu_grid bins them. A cell
// is the sector's outcome at that warp instruction: an L1 hit (pending hits included, as ncu
// counts them; cell::served), served by L2 (served + 1), or fetched from DRAM (served + 2). CTA
// starts on the SM are mark::block, a warp's first instruction mark::warp.
struct GpuTrace {
  std::shared_ptr<GpuView> view;
  sim::SimConfig sim; // gpu_grid_sim_config
  struct Event {      // one sector: the SM's request index, the sector's row, its cell state
    uint32_t request;
    uint32_t sector;
    uint8_t state;
  };
  std::vector<Event> events;
  std::vector<int64_t> request_cta;   // per request
  std::vector<int32_t> request_warp;  // per request: warp within the CTA
  std::vector<uint8_t> request_first; // per request: the warp's first instruction
};
// Throws UsageError naming --sm (gpu.observe_sm) for an SM the device lacks or that ran no CTA.
GpuTrace trace_gpu(const sim::GpuConfig &c, int sm, const sim::Progress &progress = {});
// The grid of a trace with these bins and `cols` columns (at least the trace's; more are blank, so
// that panels of several orders share a time axis); 0 = the trace's own.
Grid gpu_grid(const GpuTrace &t, Binning bins, int64_t cols = 0);
// Both steps with the smallest bins that fit max_cols x max_rows cells.
Grid build_gpu_grid(const sim::GpuConfig &c, int sm, int64_t max_cols = 1024,
                    int64_t max_rows = 1024);
// The sim configuration a GPU grid reports: the workload and order, the device's L1 (one SM) and L2
// as cache levels, exact granularity (every sector of every load).
sim::SimConfig gpu_grid_sim_config(const sim::GpuConfig &c);

// Where an element index of the workload's flat address space lies: which array, row and column.
struct ArrayRegion {
  std::string name;      // "input", "A", "B", "output"
  int64_t base_elem = 0; // element index of (first_row, 0)
  int64_t row_elems = 1; // elements per row
  int64_t first_row = 0; // row number at base_elem (negative for the unclamped halo)
  int64_t rows = 0;
  int64_t first_col = 0; // column number at base_elem (-S_w/2 for the unclamped halo)
};
struct ElementPlace {
  std::string array;
  int64_t row = 0, col = 0;
};
// The arrays of a workload as it lays them out (sim::Workload::arrays, each workload's arrays()).
std::vector<ArrayRegion> array_regions(const sim::Workload &w);
ElementPlace locate(const std::vector<ArrayRegion> &regions, int64_t elem);

} // namespace cbi::viz
