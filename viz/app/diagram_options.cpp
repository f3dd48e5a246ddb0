#include "diagram_options.hpp"

#include "cbi/cli/command.hpp"
#include "cbi/cli/progress.hpp"
#include "cbi/config/point_options.hpp"
#include "cbi/config/presets.hpp"
#include "cbi/order_text.hpp"
#include "cbi/text.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <unistd.h>

namespace cbi::viz_app {

namespace {

constexpr int64_t kMaxSidePx = 16384;

// --miss-level: a level's number or its name as the stats lines print it (2 or L2, any case),
// among the `levels` cache levels of `whose` ("this diagram's", "the GPU model's"). Returns it from
// 0; out of range, the message names the levels there are and `more` (how to have more).
int parse_miss_level(const po::variables_map &vm, int64_t levels, const std::string &whose,
                     const std::string &more) {
  const std::string text = cli::get(vm, "miss-level", "1");
  const bool named = text.size() > 1 && (text[0] == 'L' || text[0] == 'l');
  int64_t level = 0;
  try {
    level = parse_positive(named ? text.substr(1) : text, "--miss-level", 1LL << 20);
  } catch (const UsageError &) {
  }
  if (level < 1 || level > levels) {
    std::vector<std::string> names, allowed;
    for (int64_t k = 1; k <= levels; ++k) {
      names.push_back("L" + std::to_string(k));
      allowed.push_back(std::to_string(k) + " or " + names.back());
    }
    throw UsageError("--miss-level",
                     "'" + text + "' is not one of " + whose + " cache levels (" +
                         (levels == 1 ? "L1 only" : join(names)) + "); allowed: " + join(allowed) +
                         (levels > 1 ? " (the last: fetched from memory)" : "") + more);
  }
  return static_cast<int>(level - 1);
}

// --max-px: the most cells a panel side before binning (default 2048).
int64_t max_px_of(const po::variables_map &vm) {
  return cli::has(vm, "max-px") ? parse_positive(cli::get(vm, "max-px", ""), "--max-px", kMaxSidePx)
                                : 2048;
}

// --bin TxL as given: T time steps by L lines a cell, L a power of two.
viz::Binning parse_bin(const po::variables_map &vm) {
  const auto [t, l] = parse_extent(cli::get(vm, "bin", ""), "--bin", true, 1LL << 40);
  if ((l & (l - 1)) != 0)
    throw UsageError("--bin", "line bin " + std::to_string(l) +
                                  " is not a power of two; "
                                  "allowed: TxL with L = 1, 2, 4, ...");
  return {t, l};
}

} // namespace

void add_diagram_options(po::options_description &desc) {
  static const std::string preset_help =
      "a named configuration (cbi presets lists each in full); options given after it override "
      "it: " +
      sim::preset_names();
  static const std::string order_help =
      "thread order, repeatable or a comma list: one panel per order, at one scale (" +
      std::string(remap::order_syntax()) + "); default linear";
  static const std::string device_help = "--model gpu: " + config::device_help();
  // clang-format off
  desc.add_options()
    ("preset", po::value<std::string>(), preset_help.c_str())
    ("order", cli::list_value(), order_help.c_str())
    ("granularity", po::value<std::string>(),
     "exact (one column per access, counted as ncu counts; default, as in cbi simulate) | thread "
     "(one column per thread, its distinct lines once, §3.2; the thesis presets use it)")
    ("bin", po::value<std::string>(),
     "cell size TxL: T time steps x L lines per cell (L a power of two); default: the smallest "
     "that fits --max-px")
    ("max-px", po::value<std::string>(),
     "most cells per panel side before binning (default 2048; the image stays within 16384 px a "
     "side)")
    ("cell-px", po::value<std::string>(),
     "pixels per cell, N or WxH (default: cells that fill a figure about 1200 px wide, "
     "--min-cell-px to 16 px)")
    ("min-cell-px", po::value<std::string>(),
     "smallest cell side in pixels (default 3); traces with more steps or lines than fit are "
     "binned")
    ("layout", po::value<std::string>(),
     "panels: auto (default) | columns (side by side) | rows (stacked) | grid")
    ("warp", po::value<std::string>(), "mark every N threads on the time axis (e.g. 32)")
    ("block", po::value<std::string>(),
     "mark every N threads as a block boundary (e.g. 256); --model gpu: threads per block of the "
     "launch (default 256)")
    ("model", po::value<std::string>(),
     "sequential (one cache hierarchy, default) | gpu (one SM of the GPU model: time in its warp "
     "instructions, rows of 32-byte sectors; docs/gpu-model.md), e.g. --model gpu --device h100 "
     "--block 256 --sm 0")
    ("device", po::value<std::string>(), device_help.c_str())
    ("sm", po::value<std::string>(),
     "--model gpu: the SM to draw (0 = the first; default 0), e.g. --sm 5")
    ("miss-level", po::value<std::string>(),
     "binned cells: colour by the share of accesses that missed this level: 1 or L1 (default), "
     "2 or L2, ... up to the levels there are (--level once a level; --model gpu: L1 and L2); "
     "the last: fetched from memory")
    ("greyscale", po::bool_switch(), "grey shades instead of the colour-blind-safe palette")
    ("title", po::value<std::string>(), "title (default: the configuration)");
  // clang-format on
  config::add_workload_options(desc);
  config::add_cache_options(desc);
}

std::vector<std::string> expand_preset(const std::vector<std::string> &argv) {
  return config::expand_preset(argv);
}

bool parse_preset_argv(int argc, char **argv, const po::options_description &desc,
                       po::variables_map &vm, const std::string &usage, const std::string &examples,
                       const std::vector<std::string> &files_only) {
  const std::vector<std::string> args = expand_preset(std::vector<std::string>(argv, argv + argc));
  std::vector<char *> ptrs;
  for (const std::string &a : args)
    ptrs.push_back(const_cast<char *>(a.c_str()));
  return cli::parse_args(static_cast<int>(ptrs.size()), ptrs.data(), desc, vm, usage, examples,
                         files_only);
}

namespace {

// One point (workload, granularity, cache; one column per access, as cbi simulate counts, unless
// --granularity or a preset says otherwise); each --order is one panel of it.
sim::SimConfig sim_base(const po::variables_map &vm) {
  return *config::sim_config(config::point_from(
      vm, {config::Engine::sequential, "diagram", false, sim::Granularity::exact}));
}

// The sequential panels' bins: --bin as given, checked against the figure before any cell is
// allocated (an unbinned 4096^2 trace would need terabytes), else the smallest that fit the trace
// into `n` panels of the figure.
viz::Binning sim_bins(const po::variables_map &vm, const sim::SimConfig &base, int64_t n,
                      const viz::DiagramStyle &style) {
  using cli::get;
  using cli::has;
  const int64_t max_px = max_px_of(vm);
  // Side by side the panels share the 16384 px width, less room for axes and labels.
  const int64_t max_cols = std::min(max_px, kMaxSidePx / n - 300);
  int64_t max_rows = std::min(max_px, kMaxSidePx - 400);
  const int64_t steps = viz::time_steps(base), lines = viz::line_count(base);
  if (has(vm, "bin")) {
    const auto [t, l] = parse_bin(vm);
    if ((steps + t - 1) / t > max_cols || (lines + l - 1) / l > max_rows) {
      const viz::Binning least = viz::fit_bins(steps, lines, max_cols, max_rows);
      throw UsageError("--bin", get(vm, "bin", "") + " leaves more cells than fit in " +
                                    std::to_string(kMaxSidePx) + " px a side; allowed: at least " +
                                    std::to_string(least.time_bin) + "x" +
                                    std::to_string(least.line_bin) + " for this trace");
    }
    return {t, l};
  }
  int64_t cols = max_cols;
  if (!has(vm, "cell-px")) {
    // Bins that keep every cell at least --min-cell-px a side within the figure's width.
    const viz::PanelBudget b = viz::panel_budget(
        viz::resolve_layout(style.layout, static_cast<int>(n), steps, lines, style.min_cell_px),
        static_cast<int>(n));
    cols = std::min<int64_t>(cols, std::max(1, b.grid_w / style.min_cell_px));
    max_rows = std::min<int64_t>(max_rows, 1200 / style.min_cell_px);
  }
  return viz::fit_bins(steps, lines, cols, max_rows);
}

// The accesses one cell of `bins` may count: one a step in exact granularity, one a thread and
// line in thread granularity (viz::build_grid counts them in 32 bits).
double cell_accesses(const sim::SimConfig &c, const viz::Binning &bins) {
  const bool thread = c.granularity == sim::Granularity::thread;
  return double(bins.time_bin) * double(thread ? bins.line_bin : 1);
}

// The largest N (for --size N) at which `draws` holds, from 1 to config::kMaxExtent; 0 for none.
// `draws` is asked of the options with --size N in place of the user's (false where N is refused).
int64_t largest_size(const po::variables_map &vm,
                     const std::function<bool(const po::variables_map &)> &draws) {
  int64_t lo = 0, hi = config::kMaxExtent;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo + 1) / 2;
    po::variables_map at = vm;
    at.at("size").value() = std::to_string(mid);
    bool ok = false;
    try {
      ok = draws(at);
    } catch (const UsageError &) {
    }
    if (ok)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

// "--size: 'S' is too large to draw: `why`; allowed: 1 to N for this workload `and`".
[[noreturn]] void refuse_size(const po::variables_map &vm, const std::string &why, int64_t most,
                              const std::string &and_what) {
  throw UsageError("--size",
                   "'" + cli::get(vm, "size", "") + "' is too large to draw: " + why +
                       "; allowed: " + (most > 0 ? "1 to " + std::to_string(most) : "none") +
                       " for this workload and " + and_what);
}

// A --size whose cells would count more than 2^32 accesses each, however they are binned into the
// figure, was refused naming --bin (not given): matmul from 8970 on. Refused before the replay,
// naming --size and the largest size that draws (`fit`: the bins of another point).
void refuse_undrawable_size(const po::variables_map &vm, const sim::SimConfig &base,
                            const viz::Binning &bins,
                            const std::function<viz::Binning(const sim::SimConfig &)> &fit) {
  constexpr double kMost = 4294967295.0;
  if (cli::has(vm, "bin") || !cli::has(vm, "size") || cell_accesses(base, bins) <= kMost)
    return;
  const int64_t most = largest_size(vm, [&](const po::variables_map &at) {
    const sim::SimConfig c = sim_base(at);
    return cell_accesses(c, fit(c)) <= kMost;
  });
  refuse_size(
      vm, std::to_string(viz::time_steps(base)) + " time steps leave over 2^32 accesses in a cell",
      most, "--granularity");
}

sim::GpuConfig gpu_base(const po::variables_map &vm) {
  return config::gpu_config(config::point_from(vm, {config::Engine::gpu_model, "diagram", false}));
}

// The warp instructions the drawn SM issues, about: its share of the CTAs (ceil(CTAs / SMs)), each
// of ceil(block / warp) warps issuing an instruction per access of a task.
double sm_instructions(const sim::GpuConfig &c) {
  const double tasks = double(std::max<int64_t>(1, c.workload.tasks()));
  const double ctas = std::ceil(tasks / double(c.block_threads));
  const double warps = std::ceil(double(c.block_threads) / double(c.device.warp_size));
  return std::ceil(ctas / double(c.device.sms)) * warps * double(c.workload.accesses()) / tasks;
}

// --model gpu: the trace of the drawn SM indexes its instructions in 32 bits (viz::trace_gpu
// refused more only once the model had run that far, hours in) and keeps 13 B an instruction and
// 12 B a sector (one at least): both checked before the model runs, naming --size.
void refuse_undrawable_gpu_size(const po::variables_map &vm, const sim::GpuConfig &base) {
  constexpr double kMost = 4294967295.0;
  const double instructions = sm_instructions(base);
  if (instructions < kMost || !cli::has(vm, "size")) {
    cli::check_memory(25.0 * instructions,
                      "the trace of one SM (about " +
                          std::to_string(static_cast<int64_t>(instructions)) +
                          " warp instructions, 25 B each at least)",
                      "--size", "a smaller --size");
    return;
  }
  const int64_t most = largest_size(
      vm, [](const po::variables_map &at) { return sm_instructions(gpu_base(at)) < kMost; });
  refuse_size(vm,
              "an SM would issue about " + std::to_string(static_cast<int64_t>(instructions)) +
                  " warp instructions, over the 2^32 a diagram counts",
              most, "--block");
}

// Options shared by both models: panels, layout, cell size, colours and the title.
void style_options(const po::variables_map &vm, DiagramRequest &r) {
  using cli::get;
  using cli::has;
  r.style.layout = viz::parse_layout(get(vm, "layout", "auto"));
  if (has(vm, "min-cell-px"))
    r.style.min_cell_px =
        static_cast<int>(parse_positive(get(vm, "min-cell-px", ""), "--min-cell-px", 64));
  if (has(vm, "cell-px")) {
    const auto [w, h] = parse_extent(get(vm, "cell-px", ""), "--cell-px", true, 64);
    r.style.cell_w = static_cast<int>(w);
    r.style.cell_h = static_cast<int>(h);
  }
  r.style.greyscale = vm.count("greyscale") && vm["greyscale"].as<bool>();
  r.style.title = get(vm, "title", "");
}

// The --order panels: 1 to 8, each order once (--order linear,linear drew two equal panels;
// tile:4 and tile:4x4 are one order).
std::vector<std::string> panel_orders(const po::variables_map &vm) {
  const std::vector<std::string> orders = cli::list_from(vm, "order", {config::kDefaultOrder});
  if (orders.size() > 8)
    throw UsageError("--order", std::to_string(orders.size()) +
                                    " panels are too many; allowed: 1 to 8 --order options");
  remap::parse_orders(orders, "--order", "each order once, a panel each");
  return orders;
}

// --model gpu: one SM of the GPU model per --order; bins are fitted after the traces
// (build_panels), so only their limits are set here.
DiagramRequest gpu_request(const po::variables_map &vm, DiagramRequest &r) {
  using cli::get;
  using cli::has;
  // One point (workload, device, block); each --order is one panel of it.
  const sim::GpuConfig base = gpu_base(vm);
  refuse_undrawable_gpu_size(vm, base);
  const std::vector<std::string> orders = panel_orders(vm);
  // An SM index: 0 .. sms-1 of the device row.
  const std::string sm = get(vm, "sm", "0");
  const std::string sms =
      "allowed: 0.." + std::to_string(base.device.sms - 1) + " on " + base.device.name;
  try {
    r.sm = sm == "0" ? 0 : static_cast<int>(parse_positive(sm, "--sm", base.device.sms - 1));
  } catch (const UsageError &) {
    throw UsageError("--sm", "'" + sm + "' is not an SM; " + sms);
  }
  for (const std::string &o : orders) {
    sim::GpuConfig c = base;
    c.order = remap::parse_order(o);
    sim::validate(c);
    r.gpu.push_back(c);
  }
  style_options(vm, r);
  const int64_t max_px = max_px_of(vm);
  const int64_t n = static_cast<int64_t>(orders.size());
  r.gpu_max_cols = std::min(max_px, kMaxSidePx / n - 300);
  r.gpu_max_rows = std::min(max_px, kMaxSidePx - 400);
  r.fit_to_figure = !has(vm, "cell-px");
  if (has(vm, "bin"))
    r.gpu_bins = parse_bin(vm);
  r.miss_level_given = has(vm, "miss-level");
  if (r.miss_level_given)
    r.style.miss_level = parse_miss_level(vm, 2, "the GPU model's", "");
  return r;
}

// The bins of GPU panels once their traces are known: --bin as given (checked against the
// limits), else the smallest that fit the longest trace into the figure.
viz::Binning gpu_bins(const DiagramRequest &r, int64_t steps, int64_t lines) {
  const int n = static_cast<int>(r.gpu.size());
  int64_t cols = r.gpu_max_cols, rows = r.gpu_max_rows;
  if (r.gpu_bins.time_bin > 0) {
    if ((steps + r.gpu_bins.time_bin - 1) / r.gpu_bins.time_bin > cols ||
        (lines + r.gpu_bins.line_bin - 1) / r.gpu_bins.line_bin > rows) {
      const viz::Binning least = viz::fit_bins(steps, lines, cols, rows);
      throw UsageError(
          "--bin", std::to_string(r.gpu_bins.time_bin) + "x" + std::to_string(r.gpu_bins.line_bin) +
                       " leaves more cells than fit in " + std::to_string(kMaxSidePx) +
                       " px a side; allowed: at least " + std::to_string(least.time_bin) + "x" +
                       std::to_string(least.line_bin) + " for this trace");
    }
    return r.gpu_bins;
  }
  if (r.fit_to_figure) {
    const viz::PanelBudget b = viz::panel_budget(
        viz::resolve_layout(r.style.layout, n, steps, lines, r.style.min_cell_px), n);
    cols = std::min<int64_t>(cols, std::max(1, b.grid_w / r.style.min_cell_px));
    rows = std::min<int64_t>(rows, 1200 / r.style.min_cell_px);
  }
  return viz::fit_bins(steps, lines, cols, rows);
}

// Panels replay independently: job(p, report) runs for every panel p, one thread each, as many at
// once as there are cores. With `progress`, one bar on stderr counts the threads replayed in all
// panels, with the elapsed time, an ETA and the panel (label(p)) that reported last: redrawn on a
// terminal, a line per tenth otherwise (cli::ProgressBar). report calls `check` first, if given
// (which may throw to stop the panel). A panel's exception is rethrown, the first panel's first.
void for_each_panel(std::size_t n, bool progress,
                    const std::function<std::string(std::size_t)> &label,
                    const std::function<void(std::size_t, const sim::Progress &)> &job,
                    const sim::Progress &check) {
  const std::size_t workers =
      std::max<std::size_t>(1, std::min<std::size_t>(n, std::thread::hardware_concurrency()));
  std::vector<std::exception_ptr> errors(n);
  std::mutex print;
  std::unique_ptr<cli::ProgressBar> bar; // made at the first report: the panels' totals are equal
  std::vector<int64_t> done(n, 0);
  int64_t shown = -1;
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t p; (p = next++) < n;) {
      sim::Progress report = check;
      if (progress) {
        report = [&, p, what = label(p)](int64_t panel_done, int64_t total) {
          if (check)
            check(panel_done, total);
          std::lock_guard<std::mutex> lock(print);
          if (!bar)
            bar = std::make_unique<cli::ProgressBar>(static_cast<int64_t>(n) * total, true, 0,
                                                     "threads", panel_done);
          done[p] = panel_done;
          int64_t all = 0;
          for (const int64_t d : done)
            all += d;
          if (all != shown) // a panel may report its count again
            bar->update(shown = all, what);
        };
      }
      try {
        job(p, report);
      } catch (...) {
        errors[p] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t w = 1; w < workers; ++w)
    threads.emplace_back(work);
  work();
  for (std::thread &t : threads)
    t.join();
  for (const std::exception_ptr &e : errors)
    if (e)
      std::rethrow_exception(e);
}

std::vector<viz::Grid> build_gpu_panels(const DiagramRequest &r, bool progress,
                                        const sim::Progress &check) {
  const std::size_t n = r.gpu.size();
  std::vector<viz::GpuTrace> traces(n);
  for_each_panel(
      n, progress, [&](std::size_t p) { return remap::to_string(r.gpu[p].order); },
      [&](std::size_t p, const sim::Progress &report) {
        traces[p] = viz::trace_gpu(r.gpu[p], r.sm, report);
      },
      check);
  // One time axis for every panel: the longest trace's.
  int64_t steps = 0;
  for (const viz::GpuTrace &t : traces)
    steps = std::max(steps, t.view->requests);
  const int64_t lines = viz::line_count(traces.front().sim);
  const viz::Binning bins = gpu_bins(r, steps, lines);
  refuse_unbinned_miss_level(r, bins);
  const int64_t cols = (steps + bins.time_bin - 1) / bins.time_bin;
  std::vector<viz::Grid> grids;
  for (const viz::GpuTrace &t : traces)
    grids.push_back(viz::gpu_grid(t, bins, cols));
  return grids;
}

} // namespace

// --miss-level colours binned cells only: with one access a cell it would change nothing.
void refuse_unbinned_miss_level(const DiagramRequest &r, const viz::Binning &bins) {
  if (r.miss_level_given && bins.time_bin == 1 && bins.line_bin == 1)
    throw UsageError("--miss-level", "colours binned cells, and this diagram draws one access a "
                                     "cell (bins of 1x1); allowed: leave it out, or --bin TxL "
                                     "with T or L over 1");
}

double diagram_memory_bytes(const DiagramRequest &r) {
  double bytes = 0;
  for (const viz::GridSpec &spec : r.panels) {
    const int64_t steps = viz::time_steps(spec.sim), lines = viz::line_count(spec.sim);
    const double cells = double((steps + spec.bins.time_bin - 1) / spec.bins.time_bin) *
                         double((lines + spec.bins.line_bin - 1) / spec.bins.line_bin);
    // viz::Grid: a state byte a cell; binned, an access count and a miss count per level (4 B).
    const bool binned = spec.bins.time_bin > 1 || spec.bins.line_bin > 1;
    bytes += cells * (1.0 + (binned ? 4.0 * double(1 + spec.sim.levels.size()) : 0.0));
    bytes += sim::state_bytes(spec.sim);
    // Its share of the image: 4 B a pixel, cells of at least --min-cell-px (or --cell-px) a side,
    // the image at most 16384 px a side.
    const double cell_px = r.style.cell_w > 0 ? double(r.style.cell_w) *
                                                    double(std::max(r.style.cell_h, r.style.cell_w))
                                              : double(r.style.min_cell_px) * r.style.min_cell_px;
    bytes += 4.0 * std::min(cells * cell_px,
                            double(kMaxSidePx) * double(kMaxSidePx) / double(r.panels.size()));
  }
  return bytes;
}

DiagramRequest diagram_request(const po::variables_map &vm) {
  using cli::get;
  using cli::has;
  DiagramRequest r;
  r.preset = get(vm, "preset", "");
  if (config::parse_model(vm) == config::Engine::gpu_model)
    return gpu_request(vm, r);
  const sim::SimConfig base = sim_base(vm);
  const std::vector<std::string> orders = panel_orders(vm);
  const int64_t n = static_cast<int64_t>(orders.size());
  r.style.layout = viz::parse_layout(get(vm, "layout", "auto"));
  if (has(vm, "min-cell-px"))
    r.style.min_cell_px =
        static_cast<int>(parse_positive(get(vm, "min-cell-px", ""), "--min-cell-px", 64));
  const viz::Binning bins = sim_bins(vm, base, n, r.style);
  refuse_undrawable_size(vm, base, bins,
                         [&](const sim::SimConfig &c) { return sim_bins(vm, c, n, r.style); });
  for (const std::string &o : orders) {
    viz::GridSpec spec;
    spec.sim = base;
    spec.sim.order = remap::parse_order(o);
    config::validate(spec.sim, vm);
    spec.bins = bins;
    spec.warp_threads =
        has(vm, "warp") ? parse_positive(get(vm, "warp", ""), "--warp", 1LL << 40) : 0;
    spec.block_threads =
        has(vm, "block") ? parse_positive(get(vm, "block", ""), "--block", 1LL << 40) : 0;
    r.panels.push_back(spec);
  }
  if (has(vm, "cell-px")) {
    const auto [w, h] = parse_extent(get(vm, "cell-px", ""), "--cell-px", true, 64);
    r.style.cell_w = static_cast<int>(w);
    r.style.cell_h = static_cast<int>(h);
  }
  // Before any cell is allocated: every panel's grid and cache state, and the image, against the
  // memory there is (a large --max-px with many panels would otherwise end in std::bad_alloc).
  cli::check_memory(diagram_memory_bytes(r),
                    "the diagram (" + std::to_string(r.panels.size()) + " panels of " +
                        std::to_string(r.panels.front().bins.time_bin) + "x" +
                        std::to_string(r.panels.front().bins.line_bin) + " bins)",
                    has(vm, "bin") ? "--bin" : "--max-px",
                    "larger --bin, a smaller --max-px or fewer --order panels");
  r.style.greyscale = vm.count("greyscale") && vm["greyscale"].as<bool>();
  r.miss_level_given = has(vm, "miss-level");
  refuse_unbinned_miss_level(r, r.panels.front().bins);
  if (r.miss_level_given)
    r.style.miss_level = parse_miss_level(
        vm, static_cast<int64_t>(base.levels.size()), "this diagram's",
        base.levels.size() > 1 ? ""
                               : " (more levels: --level size=S,line=B once a level, e.g. "
                                 "--level size=32KiB,line=128 --level size=4MiB,line=128; or "
                                 "--model gpu, with L1 and L2)");
  r.style.title = get(vm, "title", "");
  // The figure's caption titles the preset as the thesis draws it; once the user changes any of
  // its options the caption no longer fits and the configuration is the title.
  if (r.style.title.empty() && !r.preset.empty()) {
    const sim::Preset &p = sim::find_preset(r.preset);
    const std::vector<std::string> args = config::preset_args(p);
    bool as_drawn = !has(vm, "cache-bytes") && !has(vm, "level");
    for (std::size_t i = 0; i + 1 < args.size(); i += 2) {
      const std::string opt = args[i].substr(2), &value = args[i + 1];
      as_drawn = as_drawn && has(vm, opt) &&
                 (opt == "order" ? cli::list_from(vm, "order") == split_list(value, ',')
                                 : get(vm, opt, "") == value);
    }
    if (as_drawn) {
      r.style.title = p.caption;
      r.style.preset = p.name;
    }
  }
  return r;
}

std::vector<viz::Grid> build_panels(const DiagramRequest &r, bool progress,
                                    const sim::Progress &check) {
  if (!r.gpu.empty())
    return build_gpu_panels(r, progress, check);
  const std::size_t n = r.panels.size();
  std::vector<viz::Grid> grids(n);
  for_each_panel(
      n, progress, [&](std::size_t p) { return remap::to_string(r.panels[p].sim.order); },
      [&](std::size_t p, const sim::Progress &report) {
        viz::GridSpec spec = r.panels[p];
        spec.progress = report;
        grids[p] = viz::build_grid(spec);
      },
      check);
  return grids;
}

DiagramRequest parse_diagram_args(const std::vector<std::string> &argv) {
  const std::vector<std::string> args = config::expand_preset(argv);
  std::vector<char *> ptrs;
  for (const std::string &a : args)
    ptrs.push_back(const_cast<char *>(a.c_str()));
  po::options_description desc;
  add_diagram_options(desc);
  po::variables_map vm;
  po::store(po::command_line_parser(static_cast<int>(ptrs.size()), ptrs.data())
                .options(desc)
                .style(cli::kParserStyle)
                .run(),
            vm);
  po::notify(vm);
  return diagram_request(vm);
}

} // namespace cbi::viz_app
