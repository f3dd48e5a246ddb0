#include "cbi/viz/diagram.hpp"

#include "cbi/config/presets.hpp"

#include "cbi/error.hpp"
#include "cbi/sim/model.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

namespace cbi::viz {

namespace {

constexpr int kMaxSidePx = 16384; // issue 3: the image stays within 16384 px on a side
constexpr int kMarkStrip = 7;     // pixels above the grid for group/warp/block marks

// Okabe & Ito (2008), "Color universal design": distinguishable with every common colour-vision
// deficiency. Served-by-level colours run orange (L2), yellow (L3), ... and vermillion (memory).
const char *const kLowerLevels[] = {"#e69f00", "#f0e442", "#cc79a7", "#009e73"};
// --model gpu's CTA band: Okabe & Ito's colours in an order that keeps neighbours apart.
const char *const kCtaColours[] = {"#0072b2", "#e69f00", "#009e73", "#cc79a7",
                                   "#56b4e9", "#d55e00", "#f0e442", "#000000"};

std::string level_name(int k) { return "L" + std::to_string(k + 1); }

} // namespace

Palette Palette::standard(int levels) {
  Palette p;
  p.not_cached = kWhite;
  p.in_lower = hex_color("#dcdcdc");
  p.in_l1 = mix(hex_color("#56b4e9"), kWhite, 0.55); // sky blue, lightened: present, not touched
  p.hit = hex_color("#0072b2");                      // blue
  for (int k = 1; k < levels; ++k)
    p.served.push_back(hex_color(kLowerLevels[std::min(k - 1, 3)]));
  p.served.push_back(hex_color("#d55e00")); // vermillion: fetched from memory
  return p;
}

Palette Palette::greyscale(int levels) {
  Palette p;
  p.not_cached = kWhite;
  p.in_lower = Color{232, 232, 232, 255};
  p.in_l1 = Color{200, 200, 200, 255};
  p.hit = Color{135, 135, 135, 255};
  // L2 .. memory from dark grey to black.
  for (int k = 1; k <= levels; ++k) {
    const int v = levels == 1 ? 0 : 80 - 80 * (k - 1) / (levels - 1);
    p.served.push_back(
        Color{static_cast<uint8_t>(v), static_cast<uint8_t>(v), static_cast<uint8_t>(v), 255});
  }
  return p;
}

Color Palette::of(uint8_t state) const {
  switch (state) {
  case cell::not_cached:
    return not_cached;
  case cell::in_lower:
    return in_lower;
  case cell::in_l1:
    return in_l1;
  case cell::served:
    return hit;
  default: {
    const std::size_t k = std::min<std::size_t>(state - cell::served - 1u, served.size() - 1);
    return served[k];
  }
  }
}

Color BinScale::in_l1() const {
  return greyscale ? Color{228, 228, 228, 255} : hex_color("#d4d4d4");
}

Color BinScale::in_lower() const {
  return greyscale ? Color{244, 244, 244, 255} : hex_color("#eeeeee");
}

Color BinScale::of(const Grid &g, int64_t col, int64_t row) const {
  const int64_t n = g.accesses_at(col, row);
  if (n > 0)
    return sequential_color(static_cast<double>(g.missed_at(col, row, level)) /
                                static_cast<double>(n) / top,
                            greyscale);
  const uint8_t s = g.at(col, row);
  return s == cell::in_l1 ? in_l1() : s == cell::in_lower ? in_lower() : kWhite;
}

std::string BinScale::title(int levels) const {
  if (levels > 1 && level == levels - 1)
    return "share of the bin's accesses served from memory";
  return "share of the bin's accesses that missed " + level_name(level);
}

BinScale bin_scale(const std::vector<Grid> &panels, int level, bool greyscale) {
  BinScale s;
  s.level = level;
  s.greyscale = greyscale;
  if (panels.empty())
    return s;
  const int levels = panels.front().levels();
  if (level < 0 || level >= levels)
    throw UsageError("--miss-level", std::to_string(level + 1) +
                                         " is not a cache level; allowed: 1" +
                                         (levels > 1 ? " to " + std::to_string(levels) : ""));
  // The scale's top: the share below which 99% of the binned accesses lie, rounded up to 1, 2,
  // 5, 10, 20, 50 or 100%, so that a few bins with a handful of accesses (a group's first lines)
  // do not wash out the rest; bins above it saturate and the colour bar says so.
  std::vector<std::pair<double, uint32_t>> shares; // (share, accesses)
  double total = 0;
  for (const Grid &g : panels) {
    if (!g.binned())
      continue;
    const auto &missed = g.missed[static_cast<std::size_t>(level)];
    for (std::size_t i = 0; i < g.accesses.size(); ++i)
      if (g.accesses[i] > 0) {
        shares.push_back({static_cast<double>(missed[i]) / g.accesses[i], g.accesses[i]});
        total += g.accesses[i];
      }
  }
  std::sort(shares.begin(), shares.end());
  double q99 = 0, seen = 0;
  for (const auto &sa : shares) {
    q99 = sa.first;
    seen += sa.second;
    if (seen >= 0.99 * total)
      break;
  }
  s.top = 1;
  for (double t : {0.01, 0.02, 0.05, 0.1, 0.2, 0.5})
    if (q99 <= t) {
      s.top = t;
      break;
    }
  s.saturates = !shares.empty() && shares.back().first > s.top;
  return s;
}

std::string state_label(uint8_t state, int levels) {
  if (state == cell::not_cached)
    return "not cached";
  if (state == cell::in_lower)
    return "in L2+ only";
  if (state == cell::in_l1)
    return levels == 1 ? "in cache" : "in L1";
  if (state == cell::served)
    return levels == 1 ? "hit" : "L1 hit";
  const int k = state - cell::served; // served by level k (0-based), k == levels: memory
  if (k >= levels)
    return levels == 1 ? "miss (fetched)" : "from memory";
  return "served by " + level_name(k);
}

std::string state_name(uint8_t state, int levels) {
  if (state == cell::not_cached)
    return "not_cached";
  if (state == cell::in_lower)
    return "in_lower";
  if (state == cell::in_l1)
    return "in_l1";
  if (state == cell::served)
    return "hit";
  const int k = state - cell::served;
  if (k >= levels)
    return levels == 1 ? "miss" : "memory";
  return "l" + std::to_string(k + 1);
}

std::vector<LegendItem> legend_items(const Palette &p, int levels) {
  std::vector<LegendItem> items;
  for (int k = levels; k >= 1; --k) {
    const auto s = static_cast<uint8_t>(cell::served + k);
    items.push_back({p.of(s), state_label(s, levels)});
  }
  items.push_back({p.hit, state_label(cell::served, levels)});
  items.push_back({p.in_l1, state_label(cell::in_l1, levels)});
  if (levels > 1)
    items.push_back({p.in_lower, state_label(cell::in_lower, levels)});
  items.push_back({p.not_cached, state_label(cell::not_cached, levels)});
  return items;
}

std::vector<LegendItem> binned_legend_items(const BinScale &s, int levels) {
  std::vector<LegendItem> items{
      {s.in_l1(), levels == 1 ? "in cache, no access in the bin" : "in L1, no access in the bin"}};
  if (levels > 1)
    items.push_back({s.in_lower(), "in L2+ only"});
  items.push_back({kWhite, "not cached"});
  return items;
}

std::string hit_rate_label(const Grid &g) { return config::hit_rate_label(g.sim.granularity); }

namespace {

// --model gpu: the SM's counts, the device's (ncu-named) and the predicted time.
std::vector<std::string> gpu_stats_lines(const Grid &g) {
  const GpuView &v = *g.gpu;
  const sim::CacheStats &l1 = g.result.levels.at(0), &l2 = g.result.levels.at(1);
  return {"SM " + std::to_string(v.sm) + ": " + group_digits(v.requests) +
              " warp instructions of " + group_digits(v.ctas) +
              (v.ctas == 1 ? " CTA (" : " CTAs (") + std::to_string(v.config.block_threads) +
              " threads, " + std::to_string(v.warps_per_cta) + " warps each)",
          "L1 of SM " + std::to_string(v.sm) + ": sectors " + group_digits(l1.accesses) +
              " \u00b7 hits " + group_digits(l1.hits) + " (" + group_digits(v.pending_hits) +
              " on their way) \u00b7 misses " + group_digits(l1.misses) +
              " \u00b7 hit rate per sector " + percent(l1.hit_rate()),
          "L2, this SM's misses: sectors " + group_digits(l2.accesses) + " \u00b7 hits " +
              group_digits(l2.hits) + " \u00b7 from DRAM " + group_digits(l2.misses) +
              " \u00b7 hit rate per sector " + percent(l2.hit_rate()),
          "whole device: l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct " +
              percent(v.result.metrics.l1_hit_pct() / 100) + " \u00b7 lts__t_sector_hit_rate.pct " +
              percent(v.result.metrics.l2_hit_pct() / 100) + " \u00b7 predicted " +
              short_number(v.result.time.predicted_ms, 3) + " ms (" + v.result.time.bound +
              " bound)"};
}

} // namespace

std::vector<std::string> stats_lines(const Grid &g) {
  if (g.gpu)
    return gpu_stats_lines(g);
  // Thread granularity counts each thread's distinct lines once (thread-lines), not each load
  // and store as ncu does: the counts are named so that the two cannot be read as one another.
  const bool thread = g.sim.granularity == sim::Granularity::thread;
  std::vector<std::string> lines;
  for (std::size_t k = 0; k < g.result.levels.size(); ++k) {
    const sim::CacheStats &s = g.result.levels[k];
    std::string line = level_name(static_cast<int>(k)) + ": " +
                       (thread && k == 0 ? "thread-lines " : "accesses ") +
                       group_digits(s.accesses) + " \u00b7 hits " + group_digits(s.hits) +
                       " \u00b7 misses " + group_digits(s.misses) + " \u00b7 fetches " +
                       group_digits(s.fetches) + " \u00b7 " + hit_rate_label(g) + " " +
                       percent(s.hit_rate());
    lines.push_back(line);
  }
  // Set conflicts dominate where one window's lines crowd a set beyond its ways (no order helps).
  for (std::size_t k = 0; k < g.sim.levels.size(); ++k) {
    const std::string conflicts = sim::set_conflict_warning(g.sim, static_cast<int>(k));
    if (!conflicts.empty())
      lines.push_back("warning: " + level_name(static_cast<int>(k)) + " " + conflicts);
  }
  return lines;
}

std::string bin_text(const Grid &g, int miss_level) {
  if (g.gpu) {
    const int64_t t = g.bins.time_bin, l = g.bins.line_bin;
    std::string s = group_digits(t) + " warp instruction" + (t == 1 ? "" : "s") + " x " +
                    group_digits(l) + " sector" + (l == 1 ? "" : "s") + " per cell";
    if (g.binned())
      s += std::string(" (colour: share of its sector accesses that ") +
           (miss_level == 1 ? "came from DRAM" : "missed L1") + ")";
    return s;
  }
  const bool thread = g.sim.granularity == sim::Granularity::thread;
  const int64_t t = g.bins.time_bin, l = g.bins.line_bin;
  std::string s = group_digits(t) + (thread ? " thread" : " access") +
                  (t == 1   ? ""
                   : thread ? "s"
                            : "es") +
                  " x " + group_digits(l) + " line" + (l == 1 ? "" : "s") + " per cell";
  if (g.binned())
    s += " (colour: share of its accesses that " +
         (g.levels() > 1 && miss_level == g.levels() - 1 ? std::string("came from memory")
                                                         : "missed " + level_name(miss_level)) +
         ")";
  return s;
}

std::string config_text(const Grid &g) {
  if (g.gpu) {
    const GpuView &v = *g.gpu;
    const sim::Device &d = v.config.device;
    return g.sim.workload.describe() + " | GPU model (docs/gpu-model.md) on " + d.description +
           ", block " + std::to_string(v.config.block_threads) + " | SM " + std::to_string(v.sm) +
           " of " + std::to_string(d.sms) + ": L1 " + g.sim.levels[0].describe() + " | L2 " +
           g.sim.levels[1].describe() +
           ", shared by every SM | time: the SM's warp instructions in issue order; rows: " +
           std::to_string(g.sim.levels[0].unit_bytes()) +
           "-byte sectors; hit rates per sector, as ncu; stores (through to L2) and residency are "
           "not drawn";
  }
  std::string s = g.sim.workload.describe();
  for (std::size_t k = 0; k < g.sim.levels.size(); ++k) {
    const sim::CacheConfig &c = g.sim.levels[k];
    s += " | " + level_name(static_cast<int>(k)) + " " + group_digits(c.capacity_lines) +
         " lines, " + c.describe();
  }
  s += g.sim.granularity == sim::Granularity::thread
           ? " | thread granularity: a thread's distinct lines, each once (a thread-line); hit "
             "rates per thread-line, not per access as ncu"
           : " | exact granularity: every load and store; hit rates per access, as ncu";
  return s;
}

PanelLayout parse_layout(const std::string &name) {
  if (name == "auto")
    return PanelLayout::automatic;
  if (name == "columns")
    return PanelLayout::columns;
  if (name == "rows")
    return PanelLayout::rows;
  if (name == "grid")
    return PanelLayout::grid;
  throw UsageError("--layout", "unknown layout '" + name + "'; allowed: auto, columns, rows, grid");
}

PanelLayout resolve_layout(PanelLayout layout, int n, int64_t steps, int64_t lines,
                           int min_cell_px) {
  (void)lines; // the width binds on paper; the height may grow
  if (layout != PanelLayout::automatic)
    return layout;
  if (n <= 1)
    return PanelLayout::columns;
  // The first arrangement whose panels keep every step at min_cell_px without binning: side by
  // side, two or more to a row, stacked. Traces binned in any case: two side by side, else a grid.
  for (PanelLayout l : {PanelLayout::columns, PanelLayout::grid, PanelLayout::rows})
    if (steps * min_cell_px <= panel_budget(l, n).grid_w)
      return l;
  return n == 2 ? PanelLayout::columns : PanelLayout::grid;
}

PanelBudget panel_budget(PanelLayout layout, int n) {
  PanelBudget b;
  n = std::max(1, n);
  b.per_row = layout == PanelLayout::rows   ? 1
              : layout == PanelLayout::grid ? static_cast<int>(std::ceil(std::sqrt(n)))
                                            : n;
  b.panel_rows = (n + b.per_row - 1) / b.per_row;
  // Room for the axes, labels and the gap beside each panel. The width binds (a paper column);
  // the height is a target for the cell size, about 800 px of grids in all.
  constexpr int kPanelOverheadW = 190;
  b.grid_w = std::max(60, (kFigureWidthPx - kPanelOverheadW * b.per_row) / b.per_row);
  b.grid_h = std::max(200, 800 / b.panel_rows - 100);
  return b;
}

void cell_size(const std::vector<Grid> &panels, const DiagramStyle &style, int &cell_w,
               int &cell_h) {
  const Grid &g = panels.front();
  const int64_t cols = g.cols, rows = g.rows;
  const int n = static_cast<int>(panels.size());
  const PanelBudget b =
      panel_budget(resolve_layout(style.layout, n, g.steps, g.lines, style.min_cell_px), n);
  const int lo = std::max(1, style.min_cell_px);
  // Cells fill the panel's budget, each side from min_cell_px to 16 px and neither more than 4x
  // the other (a short grid gets taller cells, a narrow one wider).
  int w = static_cast<int>(std::clamp<int64_t>(b.grid_w / std::max<int64_t>(1, cols), lo, 16));
  int h = static_cast<int>(std::clamp<int64_t>(b.grid_h / std::max<int64_t>(1, rows), lo, 16));
  w = std::min(w, 4 * h);
  h = std::min(h, 4 * w);
  cell_w = style.cell_w > 0 ? style.cell_w : w;
  cell_h = style.cell_h > 0 ? style.cell_h : style.cell_w > 0 ? style.cell_w : h;
  // The image stays within kMaxSidePx: room for the axes, labels and gaps around each panel.
  const int64_t overhead_w = 260, overhead_h = 320;
  const int64_t max_w = (kMaxSidePx - 2 * style.chart.margin) / b.per_row - overhead_w;
  const int64_t max_h = kMaxSidePx / b.panel_rows - overhead_h;
  if (cols > max_w || rows > max_h)
    throw UsageError("--bin", "the grid has " + std::to_string(cols) + " x " +
                                  std::to_string(rows) + " cells per panel, more than fits in " +
                                  std::to_string(kMaxSidePx) +
                                  " px; allowed: larger bins or --max-px");
  while (cell_w > 1 && cols * cell_w > max_w)
    --cell_w;
  while (cell_h > 1 && rows * cell_h > max_h)
    --cell_h;
}

void draw_cells(Canvas &canvas, const Grid &g, const Rect &area, int cell_w, int cell_h,
                const Palette &p, const BinScale &s, int64_t upto_col) {
  Color lut[256];
  for (int k = 0; k < 256; ++k)
    lut[k] = p.of(static_cast<uint8_t>(k));
  const bool binned = g.binned();
  const int64_t last = upto_col < 0 ? g.cols - 1 : std::min(upto_col, g.cols - 1);
  for (int64_t col = 0; col <= last; ++col) {
    const uint8_t *column = &g.cells[static_cast<std::size_t>(col * g.rows)];
    const int x = area.x + static_cast<int>(col) * cell_w;
    for (int64_t row = 0; row < g.rows; ++row) {
      canvas.fill_rect({x, area.y + static_cast<int>(row) * cell_h, cell_w, cell_h},
                       binned ? s.of(g, col, row) : lut[column[row]]);
    }
  }
}

namespace {

// Array-row ticks on the line axis: one per array row (labelled every `step` rows so the labels do
// not collide), plus the region names for the right axis.
void line_ticks(const Grid &g, double px_per_line, int label_gap_px, std::vector<Tick> &rows,
                std::vector<Tick> &regions) {
  const sim::Workload &w = g.sim.workload;
  const double unit = static_cast<double>(g.sim.levels.front().unit_bytes());
  for (const ArrayRegion &r : array_regions(w)) {
    const double lines_per_row = static_cast<double>(r.row_elems * w.elem_bytes) / unit;
    const double px_per_row = lines_per_row * px_per_line;
    // Label every 1, 2, 5, 10, 20, ... rows: the first step that leaves label_gap_px between
    // labels.
    int64_t step = 1;
    for (int i = 1; px_per_row * static_cast<double>(step) < label_gap_px; ++i)
      step = (i % 3 == 0 ? 1 : i % 3 == 1 ? 2 : 5) * static_cast<int64_t>(std::pow(10, i / 3));
    const bool minor = px_per_row >= 3;
    const double first_line = static_cast<double>(r.base_elem * w.elem_bytes) / unit;
    for (int64_t k = 0; k < r.rows; ++k) {
      const int64_t row = r.first_row + k;
      const bool labelled = row % step == 0;
      if (!labelled && !minor)
        continue;
      rows.push_back({first_line + static_cast<double>(k) * lines_per_row,
                      labelled ? group_digits(row) : "", labelled});
    }
    const double region_lines = static_cast<double>(r.rows) * lines_per_row;
    regions.push_back({first_line, "", true});
    regions.push_back({first_line + region_lines / 2, r.name, false});
  }
}

} // namespace

namespace {

// The base text sizes are for a kFigureWidthPx-wide figure; f scales them with the image.
Style scaled(const Style &base, double f) {
  Style s = base;
  auto by = [f](int px) { return static_cast<int>(std::lround(px * f)); };
  s.title_px = by(base.title_px);
  s.label_px = by(base.label_px);
  s.tick_px = by(base.tick_px);
  s.tick_len = by(base.tick_len);
  s.margin = by(base.margin);
  return s;
}

// config_text without the workload: the levels and the granularity.
std::string cache_text(const Grid &g) {
  const std::string all = config_text(g), workload = g.sim.workload.describe();
  return all.substr(std::min(all.size(), workload.size() + 3));
}

} // namespace

namespace {

// What the marks above the grid are: the order's groups, warps and blocks that were asked for;
// with the GPU model, CTA and warp starts and the bands.
std::string marks_text(const std::vector<Grid> &panels, bool bands) {
  const Grid &first = panels.front();
  if (first.gpu) {
    std::string marks = "starts of CTAs on the SM (tall) and of warps (short)";
    if (bands)
      marks += "; bands: each instruction's CTA (colours cycle over 8) and warp in its CTA (light: "
               "warp 0, dark: warp " +
               std::to_string(first.gpu->warps_per_cta - 1) + ")";
    return marks;
  }
  std::string marks;
  bool any_warp = false, any_block = false;
  for (const Grid &g : panels) {
    const std::string group = remap::group_name(g.sim.order); // the order's own (order_traits.hpp)
    if (marks.find(group) == std::string::npos)
      marks += (marks.empty() ? "" : ", ") + group;
    for (uint8_t m : g.marks) {
      any_warp = any_warp || (m & mark::warp);
      any_block = any_block || (m & mark::block);
    }
  }
  marks += any_warp ? ", warps (short)" : "";
  marks += any_block ? ", blocks (tall)" : "";
  return "starts of " + marks;
}

// The legend: the states (or, binned, the shares) the cells show; the GPU model reports accesses,
// not residency.
std::vector<LegendItem> diagram_legend(const std::vector<Grid> &panels, const Palette &pal,
                                       const BinScale &bscale) {
  const Grid &first = panels.front();
  const int levels = first.levels();
  std::vector<LegendItem> items =
      first.binned() ? binned_legend_items(bscale, levels) : legend_items(pal, levels);
  if (first.gpu) {
    items.erase(std::remove_if(items.begin(), items.end(),
                               [&](const LegendItem &i) {
                                 return i.label.rfind("in L", 0) == 0 || i.label == "not cached";
                               }),
                items.end());
    items.push_back({kWhite, first.binned() ? "no access in the bin" : "no access"});
    for (LegendItem &i : items)
      i.label = i.label == "from memory" ? "from DRAM" : i.label;
  }
  // L2+ residency is skipped on traces where sampling it would dominate the run (grid.cpp).
  if (std::any_of(panels.begin(), panels.end(), [](const Grid &g) { return !g.lower_residency; }))
    for (LegendItem &item : items)
      if (item.label.rfind("in L2+ only", 0) == 0)
        item.label += " (not sampled: too large)";
  return items;
}

// What every panel shares: the cell size, the text, the axes, and where the grid and the stats
// sit below the panel's header.
struct PanelFrame {
  int cell_w = 1, cell_h = 1, grid_w = 0, grid_h = 0;
  int mark_strip = 0, band_h = 0, band_strip = 0, left_depth = 0, grid_dy = 0, stats_dy = 0;
  int line_gap = 0, line_h = 0, panel_w = 0;
  bool bands = false, greyscale = false;
  Style st;
  std::vector<Tick> time_ticks, row_ticks, region_ticks;
  std::string time_title, line_title;
  double steps_total = 0, lines_total = 0;
};

// Group, warp and block starts on the time axis, in the strip above the grid; a kind of mark
// closer than 3 px apart on average would only paint a bar, so it is left out.
void draw_marks(Canvas &canvas, const Grid &g, const Rect &area, const PanelFrame &f) {
  int64_t per_kind[3] = {0, 0, 0};
  for (uint8_t m : g.marks)
    for (int k = 0; k < 3; ++k)
      per_kind[k] += (m >> k) & 1;
  auto shown = [&](int k) { return per_kind[k] * 3 <= f.grid_w; };
  for (int64_t col = 0; col < g.cols; ++col) {
    const uint8_t m = g.marks[static_cast<std::size_t>(col)];
    const int x = area.x + static_cast<int>(col) * f.cell_w;
    if ((m & mark::block) && shown(2))
      canvas.vline(x, area.y - f.mark_strip, area.y - 2, f.st.text);
    else if ((m & mark::group) && shown(0))
      canvas.vline(x, area.y - f.mark_strip + 2, area.y - 2, f.st.axis);
    else if ((m & mark::warp) && shown(1))
      canvas.vline(x, area.y - f.mark_strip / 2, area.y - 2, f.st.frame);
  }
}

// --model gpu: the two bands above the cells, each instruction's CTA and its warp in the CTA.
void draw_bands(Canvas &canvas, const Font &font, const Grid &g, const Rect &area,
                const PanelFrame &f, int64_t upto_col) {
  const GpuView &v = *g.gpu;
  const int cta_y = area.y - f.mark_strip - f.band_strip, warp_y = cta_y + f.band_h + 1;
  std::map<int64_t, std::size_t> cta_colour; // in order of first appearance
  const double last_warp = std::max<double>(1, static_cast<double>(v.warps_per_cta - 1));
  const int64_t upto = upto_col < 0 ? g.cols : std::min(upto_col + 1, g.cols);
  for (int64_t col = 0; col < upto && col < static_cast<int64_t>(v.column_cta.size()); ++col) {
    const auto k = static_cast<std::size_t>(col);
    const std::size_t c = cta_colour.emplace(v.column_cta[k], cta_colour.size()).first->second;
    const int x = area.x + static_cast<int>(col) * f.cell_w;
    canvas.fill_rect({x, cta_y, f.cell_w, f.band_h}, hex_color(kCtaColours[c % 8]));
    canvas.fill_rect({x, warp_y, f.cell_w, f.band_h},
                     sequential_color(0.1 + 0.9 * v.column_warp[k] / last_warp, f.greyscale));
  }
  font.draw(canvas, area.x - 4, cta_y + f.band_h / 2, "CTA", f.st.tick_px * 4 / 5, f.st.muted,
            Align::end, Align::center);
  font.draw(canvas, area.x - 4, warp_y + f.band_h / 2, "warp", f.st.tick_px * 4 / 5, f.st.muted,
            Align::end, Align::center);
}

// One panel at (px, header_y): header, mark strip (and bands), cells, axes, stats.
void draw_panel(Canvas &canvas, const Grid &g, int px, int header_y, const std::string &head,
                const PanelFrame &f, const Palette &pal, const BinScale &bscale, int64_t upto_col,
                const std::vector<std::string> &stats, DiagramLayout &out) {
  const Font &font = Font::standard();
  const Rect area{px + f.left_depth, header_y + f.grid_dy, f.grid_w, f.grid_h};
  font.draw(canvas, area.x, header_y, head, f.st.label_px, f.st.text);
  draw_cells(canvas, g, area, f.cell_w, f.cell_h, pal, bscale, upto_col);
  canvas.outline_rect({area.x - 1, area.y - 1, area.w + 2, area.h + 2}, f.st.frame);
  draw_marks(canvas, g, area, f);
  if (f.bands && g.gpu && !g.gpu->column_cta.empty())
    draw_bands(canvas, font, g, area, f, upto_col);
  const Scale ts{0, f.steps_total, double(area.x), double(area.right())};
  const Scale ls{0, f.lines_total, double(area.y), double(area.bottom())};
  draw_axis(&canvas, font, area, Side::bottom, ts, f.time_ticks, f.time_title, f.st);
  draw_axis(&canvas, font, area, Side::left, ls, f.row_ticks, f.line_title, f.st);
  draw_axis(&canvas, font, area, Side::right, ls, f.region_ticks, "", f.st);
  const int stats_y = header_y + f.stats_dy;
  int sy = stats_y, sw = 0;
  for (const std::string &line : stats) {
    sw = std::max(sw, font.draw(canvas, px, sy, line, f.st.tick_px, f.st.text).w);
    sy += f.line_h + f.line_gap;
  }
  out.grids.push_back(area);
  out.stats.push_back({px, stats_y, sw, sy - stats_y});
  out.axes.push_back({px, header_y, f.panel_w, stats_y - header_y});
}

// The frame of the panels of `panels` at the chosen cell size: ticks, titles, strips, depths.
PanelFrame panel_frame(const std::vector<Grid> &panels, const DiagramStyle &style, int per_row) {
  const Font &font = Font::standard();
  const Grid &first = panels.front();
  PanelFrame f;
  cell_size(panels, style, f.cell_w, f.cell_h);
  f.greyscale = style.greyscale;
  f.grid_w = static_cast<int>(first.cols) * f.cell_w;
  f.grid_h = static_cast<int>(first.rows) * f.cell_h;
  // Text sized against the image: 1.2x the chart defaults at kFigureWidthPx, growing with wider
  // images (large --cell-px, many panels) so that labels keep their size relative to the cells.
  const double est_w = static_cast<double>(per_row) * (f.grid_w + 190);
  f.st = scaled(style.chart, 1.2 * std::max(1.0, est_w / kFigureWidthPx));
  f.mark_strip = std::max(7, f.st.tick_px / 2);
  f.steps_total = static_cast<double>(first.cols * first.bins.time_bin);
  f.lines_total = static_cast<double>(first.rows * first.bins.line_bin);
  const std::vector<double> times = nice_ticks(0, static_cast<double>(first.steps - 1),
                                               std::max(2, f.grid_w / (7 * f.st.tick_px)));
  const std::vector<std::string> time_labels = tick_labels(times);
  for (std::size_t i = 0; i < times.size(); ++i)
    f.time_ticks.push_back({times[i], time_labels[i], true});
  line_ticks(first, f.grid_h / f.lines_total, f.st.tick_px * 3 / 2, f.row_ticks, f.region_ticks);
  const bool gpu = first.gpu != nullptr;
  const bool thread = first.sim.granularity == sim::Granularity::thread;
  f.time_title = gpu ? "warp instruction of SM " + std::to_string(first.gpu->sm) + " (time \u2192)"
                 : thread ? "thread (time \u2192)"
                          : "access (time \u2192)";
  f.line_title =
      gpu ? std::to_string(first.sim.levels[0].unit_bytes()) + "-byte sector (ticks: array rows)"
          : "cache line (ticks: array rows)";
  // --model gpu, one column per instruction: two bands above the cells name each instruction's
  // CTA (colours cycle) and warp (light: warp 0, dark: the CTA's last).
  f.bands = gpu && !first.gpu->column_cta.empty();
  f.band_h = f.bands ? std::max(5, f.st.tick_px / 2) : 0;
  f.band_strip = f.bands ? 2 * f.band_h + 3 : 0;
  const Rect probe{0, 0, f.grid_w, f.grid_h};
  f.left_depth = draw_axis(nullptr, font, probe, Side::left, {}, f.row_ticks, f.line_title, f.st);
  const int right_depth =
      draw_axis(nullptr, font, probe, Side::right, {}, f.region_ticks, "", f.st);
  const int bottom_depth =
      draw_axis(nullptr, font, probe, Side::bottom, {}, f.time_ticks, f.time_title, f.st);
  f.line_gap = std::max(3, f.st.tick_px / 4);
  f.line_h = font.measure("Ag", f.st.tick_px).height();
  f.panel_w = std::max(f.left_depth + f.grid_w + right_depth, 440);
  f.grid_dy = font.measure("Ag", f.st.label_px).height() + 4 + f.mark_strip + f.band_strip;
  f.stats_dy = f.grid_dy + f.grid_h + bottom_depth + 8;
  return f;
}

} // namespace

Canvas render_diagram(const std::vector<Grid> &panels, const DiagramStyle &style,
                      DiagramLayout *layout, int64_t upto_col) {
  if (panels.empty())
    throw UsageError("--order", "no panels to draw; allowed: one or more --order");
  for (const Grid &g : panels)
    if (g.cols != panels.front().cols || g.rows != panels.front().rows)
      throw UsageError("--order", "panels differ in size; allowed: one workload for all panels");
  const Font &font = Font::standard();
  const Grid &first = panels.front();
  const int n = static_cast<int>(panels.size());
  const PanelLayout lay =
      resolve_layout(style.layout, n, first.steps, first.lines, style.min_cell_px);
  const PanelBudget pb = panel_budget(lay, n);
  const int levels = first.levels();
  const Palette pal = style.greyscale ? Palette::greyscale(levels) : Palette::standard(levels);
  const BinScale bscale = bin_scale(panels, style.miss_level, style.greyscale);
  const PanelFrame f = panel_frame(panels, style, pb.per_row);
  const Style &st = f.st;
  // Each panel's stats, wrapped to the panel's width; the tallest sets the panels' height.
  std::vector<std::vector<std::string>> stats;
  int stats_lines_n = 0;
  for (const Grid &g : panels) {
    std::vector<std::string> wrapped;
    for (const std::string &line : stats_lines(g))
      for (std::string &part : wrap_text(font, line, st.tick_px, f.panel_w))
        wrapped.push_back(std::move(part));
    stats_lines_n = std::max(stats_lines_n, static_cast<int>(wrapped.size()));
    stats.push_back(std::move(wrapped));
  }
  const int panel_h = f.stats_dy + stats_lines_n * (f.line_h + f.line_gap);
  const int panel_gap = 3 * st.margin;
  const int content_w = pb.per_row * f.panel_w + (pb.per_row - 1) * panel_gap;
  // Title and subtitle, wrapped to the content's width.
  const std::string title = style.title.empty() ? first.sim.workload.describe() : style.title;
  const std::string config = style.title.empty() ? cache_text(first) : config_text(first);
  const std::string subtitle = (style.preset.empty() ? "" : "preset " + style.preset + ": ") +
                               config + " | cells: " + bin_text(first, style.miss_level) +
                               " | marks above: " + marks_text(panels, f.bands);
  const int text_w = std::max(content_w, 480);
  const std::vector<std::string> title_lines = wrap_text(font, title, st.title_px, text_w);
  const std::vector<std::string> sub_lines = wrap_text(font, subtitle, st.tick_px, text_w);
  const int title_line_h = font.measure("Ag", st.title_px).height() + f.line_gap;
  const int title_y = st.margin;
  const int sub_y = title_y + static_cast<int>(title_lines.size()) * title_line_h;
  const int panels_y =
      sub_y + static_cast<int>(sub_lines.size()) * (f.line_h + f.line_gap) + st.margin;
  const int row_gap = 2 * st.margin;
  const int legend_y =
      panels_y + pb.panel_rows * panel_h + (pb.panel_rows - 1) * row_gap + st.margin;
  const std::vector<LegendItem> items = diagram_legend(panels, pal, bscale);
  const int width = std::max(text_w, content_w) + 2 * st.margin;
  const Rect legend_box =
      draw_legend(nullptr, font, st.margin, legend_y, width - 2 * st.margin, items, st);
  const std::string bar_title = bscale.title(levels) + ":";
  const int bar_y = legend_box.bottom() + f.line_gap * 2;
  const int bar_w =
      std::min(width - 2 * st.margin, font.measure(bar_title, st.tick_px).width + 40 * st.tick_px);
  const Rect bar_box = first.binned()
                           ? draw_colorbar(nullptr, font, st.margin, bar_y, bar_w, bscale.top,
                                           style.greyscale, bar_title, st, bscale.saturates)
                           : Rect{st.margin, legend_box.bottom(), 0, 0};
  const int height = bar_box.bottom() + st.margin;
  if (width > kMaxSidePx || height > kMaxSidePx)
    throw UsageError("--bin", "the diagram would be " + std::to_string(width) + " x " +
                                  std::to_string(height) + " px; allowed: at most " +
                                  std::to_string(kMaxSidePx) + " px a side (use larger bins)");
  Canvas canvas(width, height, st.background);
  DiagramLayout out;
  out.cell_w = f.cell_w;
  out.cell_h = f.cell_h;
  out.layout = lay;
  out.chart = st;
  out.subtitle = subtitle;
  out.title = {st.margin, title_y, 0, 0};
  for (std::size_t i = 0; i < title_lines.size(); ++i) {
    const Rect r = font.draw(canvas, st.margin, title_y + static_cast<int>(i) * title_line_h,
                             title_lines[i], st.title_px, st.text);
    out.title.w = std::max(out.title.w, r.w);
    out.title.h = r.bottom() - title_y;
  }
  for (std::size_t i = 0; i < sub_lines.size(); ++i)
    font.draw(canvas, st.margin, sub_y + static_cast<int>(i) * (f.line_h + f.line_gap),
              sub_lines[i], st.tick_px, st.muted);
  for (int p = 0; p < n; ++p) {
    const Grid &g = panels[static_cast<std::size_t>(p)];
    const std::string head = p < static_cast<int>(style.panel_titles.size())
                                 ? style.panel_titles[static_cast<std::size_t>(p)]
                                 : "order " + remap::to_string(g.sim.order);
    draw_panel(canvas, g, st.margin + (p % pb.per_row) * (f.panel_w + panel_gap),
               panels_y + (p / pb.per_row) * (panel_h + row_gap), head, f, pal, bscale, upto_col,
               stats[static_cast<std::size_t>(p)], out);
  }
  out.legend = draw_legend(&canvas, font, st.margin, legend_y, width - 2 * st.margin, items, st);
  out.bins = bscale;
  if (first.binned())
    out.colorbar = draw_colorbar(&canvas, font, st.margin, bar_y, bar_w, bscale.top,
                                 style.greyscale, bar_title, st, bscale.saturates);
  if (layout)
    *layout = out;
  return canvas;
}

std::string grid_csv(const std::vector<Grid> &panels) {
  std::ostringstream os;
  os << "panel,order,col,row,first_step,last_step,first_line,last_line,state,accesses";
  for (int k = 0; k < (panels.empty() ? 0 : panels.front().levels()); ++k)
    os << ',' << "l" << k + 1 << "_misses";
  os << '\n';
  for (std::size_t p = 0; p < panels.size(); ++p) {
    const Grid &g = panels[p];
    const std::string order = remap::to_string(g.sim.order);
    for (int64_t col = 0; col < g.cols; ++col)
      for (int64_t row = 0; row < g.rows; ++row) {
        const uint8_t s = g.at(col, row);
        if (s == cell::not_cached)
          continue;
        const int64_t t0 = col * g.bins.time_bin, l0 = row * g.bins.line_bin;
        os << p << ',' << order << ',' << col << ',' << row << ',' << t0 << ','
           << std::min(g.steps, t0 + g.bins.time_bin) - 1 << ',' << l0 << ','
           << std::min(g.lines, l0 + g.bins.line_bin) - 1 << ',' << state_name(s, g.levels()) << ','
           << g.accesses_at(col, row);
        for (int k = 0; k < g.levels(); ++k)
          os << ',' << g.missed_at(col, row, k);
        os << '\n';
      }
  }
  return os.str();
}

} // namespace cbi::viz
