// The thesis's chapter-5 grids (Prasetya 2022, §5.1 Figs 5.1-5.4, §5.2).
#include "grids.hpp"

#include "thesis.hpp"

#include "cbi/config/presets.hpp"
#include "cbi/error.hpp"
#include "cbi/sim/presets.hpp"
#include "cbi/text.hpp"

#include <algorithm>

namespace cbi::sweep {

namespace {

std::vector<std::string> orders_from(const std::vector<int> &widths) {
  std::vector<std::string> v = {"linear"};
  for (int w : widths)
    v.push_back("column:" + std::to_string(w));
  return v;
}

std::vector<std::string> numbers(const std::vector<int> &xs) {
  std::vector<std::string> v;
  for (int x : xs)
    v.push_back(std::to_string(x));
  return v;
}

// Figs 5.3/5.4 plot columns 32-2048 against N; the thesis gives no table, so the sizes are ours:
// powers of two around the Fig 5.1 sizes (stencil up to 8192, matmul up to 4096).
const std::vector<int> kTrendWidths = {32, 64, 128, 256, 512, 1024, 2048};

Grid base(const std::string &name, const std::string &description, const std::string &kernel,
          const std::vector<std::string> &sizes) {
  Grid g = default_grid();
  g.name = name;
  g.description = description;
  g.set("kernel", {kernel});
  g.set("size", sizes);
  g.set("order", orders_from(thesis::column_widths()));
  g.set("block", numbers(thesis::blocks()));
  return g;
}

// Sweep points run a kernel, count every access and clamp: a preset of a workload no kernel runs,
// one that counts per thread-line or one that drops the boundary is not a grid.
bool sweepable(const sim::Preset &p) {
  const sim::Workload &w = p.config.workload;
  const sim::WorkloadTraits traits = sim::workload_traits(w.kind);
  return traits.kernel && p.config.granularity == sim::Granularity::exact &&
         (!traits.has_boundary || w.boundary == sim::Boundary::clamp);
}

// A preset (cbi/sim/presets.hpp) as a grid: its workload, sizes, element type, cache levels and
// orders, one point per order; the unsweepable ones are refused until points can carry them.
Grid preset_grid(const sim::Preset &p) {
  const sim::SimConfig &c = p.config;
  const sim::Workload &w = c.workload;
  const sim::WorkloadTraits traits = sim::workload_traits(w.kind);
  if (!traits.kernel)
    throw UsageError("--grid", "preset '" + p.name + "' is a " + traits.name +
                                   " workload, which no CUDA kernel runs and sweeps do not run; "
                                   "allowed: presets of " +
                                   sim::kernel_workload_names());
  if (!sweepable(p))
    throw UsageError("--grid", "preset '" + p.name + "' (" + config::describe_config(c) +
                                   ") is not a sweep grid: sweep points count every access of "
                                   "a clamped kernel; allowed: cbi simulate/diagram --preset " +
                                   p.name + ", or a grid of cbi sweep --list");
  Grid g = default_grid();
  g.name = p.name;
  g.description = p.caption;
  g.set("kernel", {traits.kernel});
  g.set("size", {std::to_string(w.width) + "x" + std::to_string(w.height)});
  if (traits.has_window)
    g.set("stencil", {std::to_string(w.stencil_w) + "x" + std::to_string(w.stencil_h)});
  if (traits.has_depth)
    g.set("depth", {std::to_string(w.depth)});
  g.set("type", {sim::elem_type_name(w.elem_bytes)});
  std::vector<std::string> orders;
  for (const remap::Order &o : p.orders)
    orders.push_back(remap::to_string(o));
  g.set("order", orders);
  g.set("cache",
        {join(c.levels, "/", [](const sim::CacheConfig &l) { return config::level_spec(l); })});
  return g;
}

} // namespace

std::vector<std::pair<std::string, std::string>> grid_list() {
  std::vector<std::pair<std::string, std::string>> list = {
      {"fig5.1a", "stencil 9x9 on 4096x4096 float; naive + 16 column widths x blocks 32-1024"},
      {"fig5.1b", "matmul 1024x1024 float; naive + 16 column widths x blocks 32-1024"},
      {"fig5.2", "stencil 9x9 on 4037x4037 float (not a power of two); as fig5.1a"},
      {"fig5.3", "stencil 9x9, N = 256..8192; naive + columns 32-2048; block 256"},
      {"fig5.4", "matmul NxN, N = 128..4096; naive + columns 32-2048; block 256"},
      {"sec5.2", "matmul 1024x1024; naive, columns 32/64/128; block 256; hardware counters"},
  };
  // The presets that sweep points can express (cbi presets lists all of them).
  for (const sim::Preset &p : sim::presets())
    if (sweepable(p))
      list.push_back({p.name, "preset: " + config::describe_config(p.config)});
  return list;
}

std::string unsweepable_presets() {
  std::string s;
  for (const sim::Preset &p : sim::presets())
    if (!sweepable(p))
      s += (s.empty() ? "" : ", ") + p.name;
  return s;
}

Grid thesis_grid(const std::string &full_name) {
  std::string name = full_name, type = "float";
  for (const char *t : {"half", "double"}) {
    const std::string suffix = std::string("-") + t;
    if (name.size() > suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      name = name.substr(0, name.size() - suffix.size());
      type = t;
    }
  }
  Grid g;
  if (name == "fig5.1a")
    g = base(name, "Fig 5.1a: 9x9 stencil on 4096x4096", "stencil", {"4096"});
  else if (name == "fig5.1b")
    g = base(name, "Fig 5.1b: matmul of two 1024x1024 matrices", "matmul", {"1024"});
  else if (name == "fig5.2")
    g = base(name, "Fig 5.2: 9x9 stencil on 4037x4037", "stencil", {"4037"});
  else if (name == "fig5.3" || name == "fig5.4") {
    const bool stencil = name == "fig5.3";
    g = base(name,
             stencil ? "Fig 5.3: 9x9 stencil, time against input size N"
                     : "Fig 5.4: matmul, time against input size N",
             stencil ? "stencil" : "matmul",
             stencil ? numbers({256, 512, 1024, 2048, 4096, 8192})
                     : numbers({128, 256, 512, 1024, 2048, 4096}));
    g.set("order", orders_from(kTrendWidths));
    g.set("block", {"256"});
  } else if (name == "sec5.2") {
    g = base(name, "§5.2: matmul 1024x1024 hardware counters, naive against columns", "matmul",
             {"1024"});
    g.set("order", orders_from({32, 64, 128}));
    g.set("block", {"256"});
    g.set("cache", {"turing"});
    g.metrics = true;
  } else if (std::any_of(sim::presets().begin(), sim::presets().end(),
                         [&](const sim::Preset &p) { return p.name == name; })) {
    g = preset_grid(sim::find_preset(name, "--grid"));
  } else {
    const std::string allowed = join(grid_list(), ", ", [](const auto &g) { return g.first; });
    throw UsageError("--grid", "unknown grid '" + full_name + "'; allowed: " + allowed +
                                   " (each also as NAME-half, NAME-double)");
  }
  g.name = full_name;
  g.set("type", {type});
  if (type != "float")
    g.description += " (" + type + ")";
  return g;
}

} // namespace cbi::sweep
