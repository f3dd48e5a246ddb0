// reproduce's plan: which sweeps (parts) a run takes, at which scale, and the `cbi sweep` command
// that writes each part's CSV.
#include "reproduce_steps.hpp"

#include "cbi/text.hpp"
#include "grids.hpp"

#include <algorithm>

namespace cbi::reproduce {

namespace {

std::vector<std::string> numbers(const std::vector<int> &xs) {
  std::vector<std::string> v;
  for (int x : xs)
    v.push_back(std::to_string(x));
  return v;
}

} // namespace

std::string shell_quote(const std::string &s) {
  if (s.find_first_of(" '\"$\\;&|<>()*?") == std::string::npos)
    return s;
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// The `cbi sweep` command line that writes the same CSV as a part.
std::string sweep_command(const Part &p, const std::string &csv) {
  std::string cmd = "cbi sweep";
  const sweep::Grid base =
      p.grid.name == "custom" ? sweep::default_grid() : sweep::thesis_grid(p.grid.name);
  if (p.grid.name != "custom")
    cmd += " --grid " + p.grid.name;
  for (const sweep::AxisDef &d : sweep::axis_defs()) {
    const std::string axis = d.name;
    const auto &vals = p.grid.values(axis);
    if (vals == base.values(axis))
      continue;
    if (axis == "cache") {
      for (const std::string &c : vals)
        cmd += " --cache " + shell_quote(c);
      continue;
    }
    cmd += " " + sweep::axis_option(d) + " " + shell_quote(join(vals, ","));
  }
  if (p.backends.model)
    cmd += std::string(" --backend ") + (p.backends.gpu ? "sim+gpu" : "sim") + " --model gpu" +
           (p.grid.device ? " --device " + *p.grid.device : "");
  else
    cmd += std::string(" --backend ") + (p.backends.sim && p.backends.gpu ? "sim,gpu"
                                         : p.backends.gpu                 ? "gpu"
                                                                          : "sim");
  if (p.grid.metrics && !base.metrics)
    cmd += " --metrics";
  return cmd + " --output " + shell_quote(csv) + " --resume";
}

std::vector<Part> plan(const Options &o) {
  std::vector<Part> parts;
  const sweep::Backends gpu{false, true}, sim{true, false}, both{true, true};
  auto add = [&](const std::string &name, sweep::Grid g, sweep::Backends b,
                 const std::string &note) {
    if (!o.only.empty() && std::find(o.only.begin(), o.only.end(), name) == o.only.end())
      return;
    parts.push_back({name, std::move(g), b, note});
  };
  const bool t = o.tiny;
  if (!o.sim_only) {
    for (const char *name : {"fig5.1a", "fig5.2", "fig5.1b", "fig5.3", "fig5.4"}) {
      sweep::Grid g = sweep::thesis_grid(name);
      if (t)
        g.set("size", {std::string(name).rfind("fig5.1b", 0) == 0 ? "64" : "128"});
      add(std::string("gpu-") + name, g, gpu, t ? "tiny scale" : "the thesis's sizes and blocks");
    }
    sweep::Grid sec = sweep::thesis_grid("sec5.2");
    if (t)
      sec.set("size", {"64"});
    add("gpu-sec5.2", sec, both, "with hardware counters; simulated on the turing preset");
    for (const char *name : {"fig5.1a-half", "fig5.1a-double", "fig5.1b-half", "fig5.1b-double"}) {
      sweep::Grid g = sweep::thesis_grid(name);
      g.set("block", {"256"});
      if (t)
        g.set("size", {"64"});
      add(std::string("gpu-") + name, g, gpu,
          "block 256 only (the full grid: cbi sweep --grid " + std::string(name) + ")");
    }
  }
  // Simulator parts: one block (the simulator replays one ordered stream), a Turing-like L1
  // (64 KiB, 128 B lines, 32 B sectors, fully associative LRU; the thesis's RTX 2080 Super has
  // 64 KiB of L1 per SM).
  const std::string l1 = "l1-64k";
  auto sim_grid = [&](const std::string &name, const std::vector<std::string> &sizes) {
    sweep::Grid g = sweep::thesis_grid(name);
    g.set("block", {"256"});
    g.set("size", sizes);
    g.set("cache", {l1});
    return g;
  };
  add("sim-fig5.1a", sim_grid("fig5.1a", {t ? "64" : "4096"}), sim, "one L1 of 64 KiB");
  add("sim-fig5.2", sim_grid("fig5.2", {t ? "61" : "4037"}), sim, "one L1 of 64 KiB");
  {
    // Matmul at 1024^2 costs 2.1G simulated accesses per order; at 512 with the L1 halved the
    // B column working set keeps its ratio to the cache (D lines of 128 B against the capacity).
    sweep::Grid g = sim_grid("fig5.1b", {t ? "32" : "512"});
    g.set("cache", {t ? "size=2KiB,line=128,sector=32" : "size=32KiB,line=128,sector=32"});
    add("sim-fig5.1b", g, sim,
        t ? "tiny scale" : "N = 512 with a 32 KiB L1 (half the thesis's N and L1)");
  }
  add("sim-fig5.3",
      sim_grid("fig5.3", t ? numbers({32, 64, 128}) : numbers({256, 512, 1024, 2048, 4096})), sim,
      "N up to 4096 (8192 is the GPU grid's)");
  add("sim-fig5.4", sim_grid("fig5.4", t ? numbers({16, 32, 64}) : numbers({64, 128, 256, 512})),
      sim, "N up to 512 (simulating 1024^2 matmuls costs 2.1G accesses per order)");
  if (o.sim_only) {
    sweep::Grid g = sweep::thesis_grid("sec5.2");
    g.set("order", {"linear", "column:32"});
    if (t) {
      g.set("size", {"64"});
      g.set("cache", {"size=4KiB,line=128,sector=32/size=64KiB,line=128,ways=16,sector=32"});
    }
    add("sim-sec5.2", g, sim, "L1 64 KiB + L2 4 MiB (turing preset)");
  }
  // The GPU model (issue 10 §3, docs/gpu-model.md) at block 256: on rtx2080super beside the
  // thesis's own numbers (§5.2's counters, Figs 5.1a/5.1b's times ranked) and, with a GPU, on the
  // device that measured, beside the measurements. The thesis's sizes, except in the simulator-only
  // main job, which models Fig 5.1a at 2048² and Fig 5.1b at 512² (a quarter and an eighth of the
  // warp loads) to stay within a minute on two cores.
  const sweep::Backends model{true, false, true};
  auto model_grid = [&](const std::string &name, const std::string &size) {
    sweep::Grid g = sweep::thesis_grid(name);
    g.set("block", {"256"});
    g.set("size", {size});
    g.metrics = false;
    return g;
  };
  for (const bool measured : {false, true}) {
    if (measured && o.sim_only)
      break;
    const std::string who = measured ? "model-gpu-" : "model-rtx2080super-";
    const bool small = o.sim_only && !measured;
    sweep::Grid sec = model_grid("sec5.2", t ? "64" : "1024");
    sec.set("order", {"linear", "column:32"});
    sweep::Grid a = model_grid("fig5.1a", t ? "128" : small ? "2048" : "4096");
    sweep::Grid b = model_grid("fig5.1b", t ? "64" : small ? "512" : "1024");
    for (sweep::Grid *g : {&sec, &a, &b})
      if (!measured)
        g->device = "rtx2080super";
    const std::string note = t       ? "tiny scale"
                             : small ? "block 256; Fig 5.1a at 2048², Fig 5.1b at 512² (the "
                                       "simulator-only job keeps the model short)"
                                     : "block 256 at the thesis's sizes";
    const std::size_t first = parts.size();
    add(who + "sec5.2", sec, model, note);
    add(who + "fig5.1a", a, model, note);
    add(who + "fig5.1b", b, model, note);
    for (std::size_t k = first; k < parts.size(); ++k)
      parts[k].model_on_measured_device = measured;
  }
  return parts;
}

} // namespace cbi::reproduce
