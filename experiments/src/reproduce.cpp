// The thesis reproduction: plan the parts (GPU sweeps at the thesis's sizes, simulator sweeps at
// sizes that run in minutes on two cores, the analytical model against simulation), run each as a
// resumable sweep into the report folder, draw the plots with cbi-viz when it is there, and judge
// each of the thesis's results from the numbers.
#include "reproduce.hpp"

#include "cbi/sim/model.hpp"
#include "cbi/cli/command.hpp"
#include "cbi/cli/csv.hpp"
#include "cbi/cli/options.hpp"
#include "grids.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>

namespace cbi::reproduce {

namespace {

namespace fs = std::filesystem;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<std::string> numbers(const std::vector<int> &xs) {
  std::vector<std::string> v;
  for (int x : xs)
    v.push_back(std::to_string(x));
  return v;
}

std::string fixed(double v, int decimals = 2) {
  if (!std::isfinite(v))
    return "n/a";
  std::ostringstream os;
  os << std::fixed << std::setprecision(decimals) << v;
  return os.str();
}

std::string pct(double fraction, int decimals = 1) { return fixed(100.0 * fraction, decimals) + "%"; }

// A sweep CSV as numbers: value of `column` per (column width, block, size, type); naive = width 0.
struct Key {
  int width, block;
  std::string size, type;
  bool operator<(const Key &o) const {
    return std::tie(width, block, size, type) < std::tie(o.width, o.block, o.size, o.type);
  }
};
using Values = std::map<Key, double>;

int width_of(const std::string &order) {
  if (order == "linear")
    return 0;
  const auto colon = order.find(':');
  return colon == std::string::npos ? -1 : std::atoi(order.c_str() + colon + 1);
}

double number(const cli::Cell &c) {
  if (const auto *i = std::get_if<int64_t>(&c))
    return double(*i);
  if (const auto *d = std::get_if<double>(&c))
    return *d;
  return kNaN;
}

std::size_t column_index(const std::string &name) {
  const auto &cols = sweep::columns();
  return static_cast<std::size_t>(std::find(cols.begin(), cols.end(), name) - cols.begin());
}

Values load(const std::string &path, const std::string &column) {
  Values v;
  if (!fs::exists(path))
    return v;
  const cli::Table t = sweep::read_csv(path);
  const std::size_t c = column_index(column), order = column_index("order"),
                    block = column_index("block"), size = column_index("size"),
                    type = column_index("type");
  for (const auto &row : t.rows) {
    const double x = number(row[c]);
    if (std::isfinite(x))
      v[{width_of(std::get<std::string>(row[order])), std::atoi(std::get<std::string>(row[block]).c_str()),
         std::get<std::string>(row[size]), std::get<std::string>(row[type])}] = x;
  }
  return v;
}

double at(const Values &v, int width, int block, const std::string &size = "", const std::string &type = "") {
  for (const auto &[k, x] : v)
    if (k.width == width && k.block == block && (size.empty() || k.size == size) &&
        (type.empty() || k.type == type))
      return x;
  return kNaN;
}

std::set<int> blocks_of(const Values &v) {
  std::set<int> b;
  for (const auto &[k, x] : v)
    b.insert(k.block);
  return b;
}

std::vector<std::string> sizes_of(const Values &v) {
  std::vector<std::string> s;
  for (const auto &[k, x] : v)
    if (std::find(s.begin(), s.end(), k.size) == s.end())
      s.push_back(k.size);
  std::sort(s.begin(), s.end(), [](const std::string &a, const std::string &b) {
    return std::atoll(a.c_str()) < std::atoll(b.c_str());
  });
  return s;
}

struct Verdict {
  std::string word; // holds | partly holds | does not hold | not measured
  std::string why;
};

std::string verdict_line(const std::string &who, const Verdict &v) {
  return "**Verdict (" + who + "): " + v.word + ".** " + v.why + "\n";
}

// The thesis's own numbers judged by the same rule.
std::string thesis_line(const Verdict &v) {
  return "**Thesis:** " + v.why + " (By the same rule on the thesis's numbers: " + v.word + ".)\n";
}

std::string command_for(const std::vector<std::string> &commands, const std::string &part) {
  for (const std::string &c : commands)
    if (c.find(" " + part + ".csv") != std::string::npos)
      return c;
  return "";
}

// Result 1: width 32 beats 30, 31, 33, 34 and widths 4, 8 are far slower than naive, per block.
Verdict judge_multiples(const std::vector<std::pair<std::string, const Values *>> &data,
                        const std::string &what) {
  int blocks = 0, beats = 0, narrow = 0;
  std::string detail;
  for (const auto &[name, v] : data) {
    for (int b : blocks_of(*v)) {
      const double naive = at(*v, 0, b), c32 = at(*v, 32, b), c4 = at(*v, 4, b), c8 = at(*v, 8, b);
      double neighbour = INFINITY;
      for (int w : {30, 31, 33, 34})
        neighbour = std::min(neighbour, at(*v, w, b));
      if (!std::isfinite(naive) || !std::isfinite(c32) || !std::isfinite(neighbour))
        continue;
      ++blocks;
      beats += c32 < neighbour;
      narrow += c4 / naive >= 1.5 && c8 / naive >= 1.2;
    }
    detail += (detail.empty() ? "" : "; ") + name;
  }
  if (blocks == 0)
    return {"not measured", "no data for " + what + "."};
  std::ostringstream why;
  why << "Width 32 beat its neighbours (30, 31, 33, 34) in " << beats << " of " << blocks
      << " block sizes, and widths 4 and 8 were at least 1.5x and 1.2x the naive " << what
      << " in " << narrow << " of " << blocks << " (" << detail << ").";
  if (beats == blocks && narrow == blocks)
    return {"holds", why.str()};
  if (2 * beats >= blocks || 2 * narrow >= blocks)
    return {"partly holds", why.str()};
  return {"does not hold", why.str()};
}

// min over `widths` of value/naive at one block; NaN without data.
double best_relative(const Values &v, int block, const std::vector<int> &widths, int *best_width,
                     const std::string &size = "", const std::string &type = "") {
  const double naive = at(v, 0, block, size, type);
  double best = kNaN;
  for (int w : widths) {
    const double x = at(v, w, block, size, type) / naive;
    if (std::isfinite(x) && !(x >= best)) {
      best = x;
      if (best_width)
        *best_width = w;
    }
  }
  return best;
}

// Markdown table: rows = widths (naive first), columns = blocks; cells "value (rel)".
std::string value_table(const Values &v, const std::string &unit, const sweep::ThesisTable *thesis,
                        int decimals) {
  const std::set<int> blocks = blocks_of(v);
  if (blocks.empty())
    return "_(no data)_\n";
  std::set<int> widths;
  for (const auto &[k, x] : v)
    widths.insert(k.width);
  std::ostringstream md;
  md << "| order |";
  for (int b : blocks)
    md << " b" << b << " |";
  md << "\n|---|";
  for (std::size_t i = 0; i < blocks.size(); ++i)
    md << "---|";
  md << "\n";
  for (int w : widths) {
    md << "| " << (w == 0 ? std::string("naive") : "column:" + std::to_string(w)) << " |";
    for (int b : blocks) {
      const double x = at(v, w, b), naive = at(v, 0, b);
      md << " " << fixed(x, decimals);
      if (w != 0 && std::isfinite(naive))
        md << " (" << fixed(x / naive, 2) << ")";
      if (thesis && std::isfinite(thesis->at(w, b)))
        md << " [thesis " << fixed(thesis->at(w, b), 2) << "]";
      md << " |";
    }
    md << "\n";
  }
  md << "\n_Cells: " << unit << " (relative to naive at the same block)";
  if (thesis)
    md << " [thesis: ms on the RTX 2080 Super, " << thesis->figure << "]";
  md << "._\n";
  return md.str();
}

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
  const sweep::Grid base = p.grid.name == "custom" ? sweep::default_grid()
                                                   : sweep::thesis_grid(p.grid.name);
  if (p.grid.name != "custom")
    cmd += " --grid " + p.grid.name;
  for (const std::string &axis : sweep::axis_names()) {
    const auto &vals = p.grid.values(axis);
    if (vals == base.values(axis))
      continue;
    if (axis == "cache") {
      for (const std::string &c : vals)
        cmd += " --cache " + shell_quote(c);
      continue;
    }
    std::string joined;
    for (const std::string &x : vals)
      joined += (joined.empty() ? "" : ",") + x;
    cmd += " --" + axis + " " + shell_quote(joined);
  }
  cmd += std::string(" --backend ") + (p.backends.sim && p.backends.gpu ? "sim,gpu" : p.backends.gpu ? "gpu" : "sim");
  if (p.grid.metrics && !base.metrics)
    cmd += " --metrics";
  return cmd + " --output " + shell_quote(csv) + " --resume";
}

// Runs cbi-viz (plot or diagram) if this build has it; returns a note for the report.
struct Viz {
  std::string binary; // "" when absent
  std::vector<std::string> log;
  bool run(const std::vector<std::string> &args) {
    std::string cmd = "cbi";
    for (const std::string &a : args)
      cmd += " " + shell_quote(a);
    if (binary.empty()) {
      log.push_back("- not run (no cbi-viz in this build): `" + cmd + "`");
      return false;
    }
    std::vector<std::string> argv{binary};
    argv.insert(argv.end(), args.begin(), args.end());
    std::cerr << "+ " << cmd << "\n";
    std::string err; // cbi-viz's stderr, through a pipe
    const bool ok = cli::run_program(argv, &err) == 0;
    err = err.substr(0, err.find('\n'));
    log.push_back(std::string("- ") + (ok ? "" : "FAILED (" + err + "): ") + "`" + cmd + "`");
    return ok;
  }
};

std::string image(const std::string &dir, const std::string &png, const std::string &alt) {
  return fs::exists(fs::path(dir) / png) ? "![" + alt + "](" + png + ")\n\n" : "";
}

// Lines-plot input: relative time (or traffic) against size, one series per order.
void write_relative_csv(const std::string &path, const Values &v, const std::string &value_name) {
  std::ostringstream os;
  os << "order,size," << value_name << "\n";
  for (const auto &[k, x] : v) {
    if (k.width == 0)
      continue;
    const double naive = at(v, 0, k.block, k.size, k.type);
    if (std::isfinite(naive) && naive > 0)
      os << "column:" << k.width << "," << k.size << "," << x / naive << "\n";
  }
  cli::write_file_atomic(path, os.str());
}

// Result 3: trend of the best relative value with size. rising = gains shrink with N.
struct Trend {
  std::vector<std::pair<std::string, double>> best; // size -> best relative value
  int rising_steps = 0, steps = 0;
};
Trend trend(const Values &v, const std::vector<int> &widths) {
  Trend t;
  const std::set<int> blocks = blocks_of(v);
  if (blocks.empty())
    return t;
  const int block = *blocks.begin();
  for (const std::string &s : sizes_of(v)) {
    const double b = best_relative(v, block, widths, nullptr, s);
    if (std::isfinite(b))
      t.best.push_back({s, b});
  }
  for (std::size_t i = 1; i < t.best.size(); ++i) {
    ++t.steps;
    t.rising_steps += t.best[i].second > t.best[i - 1].second;
  }
  return t;
}

std::string trend_text(const Trend &t) {
  std::string s;
  for (const auto &[size, b] : t.best)
    s += (s.empty() ? "" : ", ") + size + ": " + fixed(b, 3);
  return s;
}

// Model (§3.3-§4.4) against simulation on the thesis's small configurations.
struct ModelRow {
  std::string workload, order, equation, kind;
  double model = 0;
  int64_t simulated = 0;
};

std::vector<ModelRow> model_rows(bool tiny) {
  std::vector<ModelRow> rows;
  (void)tiny; // Tables 3.1/3.2 are already small
  for (const bool matmul : {false, true}) {
    for (const std::string order : {"linear", "column:2", "column:4", "column:8", "column:16"}) {
      sim::SimConfig c;
      c.workload.kind = matmul ? sim::WorkloadKind::matmul : sim::WorkloadKind::stencil;
      c.workload.width = c.workload.height = 16;
      c.workload.depth = 16;
      c.workload.boundary = sim::Boundary::none; // as the thesis's diagrams
      c.order = remap::parse_order(order);
      c.levels = {sim::CacheConfig{}};
      c.levels[0].line_bytes = 16;
      c.levels[0].capacity_lines = matmul ? 32 : 24;
      const sim::ModelReport m = sim::analyze_model(c);
      const sim::SimResult r = sim::simulate(c);
      for (const sim::LevelModel &lm : m.levels) {
        if (lm.fetch_kind == sim::FetchKind::none)
          continue;
        rows.push_back({c.workload.describe(), order, lm.fetch_reference,
                        lm.fetch_kind == sim::FetchKind::upper_bound ? "bound" : "estimate",
                        lm.fetches, r.levels[0].fetches});
      }
    }
  }
  return rows;
}

std::string device_of(const std::string &csv) {
  if (!fs::exists(csv))
    return "";
  const cli::Table t = sweep::read_csv(csv);
  const std::size_t c = column_index("gpu_device");
  for (const auto &row : t.rows)
    if (const auto *s = std::get_if<std::string>(&row[c]); s && !s->empty())
      return *s;
  return "";
}

} // namespace

std::vector<Part> plan(const Options &o) {
  std::vector<Part> parts;
  const sweep::Backends gpu{false, true}, sim{true, false}, both{true, true};
  auto add = [&](const std::string &name, sweep::Grid g, sweep::Backends b, const std::string &note) {
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
      add(std::string("gpu-") + name, g, gpu, "block 256 only (the full grid: cbi sweep --grid " +
                                                  std::string(name) + ")");
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
    add("sim-fig5.1b", g, sim, t ? "tiny scale" : "N = 512 with a 32 KiB L1 (half the thesis's N and L1)");
  }
  add("sim-fig5.3", sim_grid("fig5.3", t ? numbers({32, 64, 128}) : numbers({256, 512, 1024, 2048, 4096})),
      sim, "N up to 4096 (8192 is the GPU grid's)");
  add("sim-fig5.4", sim_grid("fig5.4", t ? numbers({16, 32, 64}) : numbers({64, 128, 256, 512})), sim,
      "N up to 512 (simulating 1024^2 matmuls costs 2.1G accesses per order)");
  if (o.sim_only) {
    sweep::Grid g = sweep::thesis_grid("sec5.2");
    g.set("order", {"linear", "column:32"});
    if (t) {
      g.set("size", {"64"});
      g.set("cache", {"size=4KiB,line=128,sector=32/size=64KiB,line=128,ways=16,sector=32"});
    }
    add("sim-sec5.2", g, sim, "L1 64 KiB + L2 4 MiB (turing preset)");
  }
  return parts;
}

int run(const Options &o) {
  fs::create_directories(o.out_dir);
  const std::string date = cli::utc_timestamp();
  const std::vector<Part> parts = plan(o);
  Viz viz;
  if (!o.self_dir.empty() && access((o.self_dir + "/cbi-viz").c_str(), X_OK) == 0)
    viz.binary = o.self_dir + "/cbi-viz";

  std::vector<std::string> commands;
  std::string device = "none (simulator only)";
  bool gpu_ran = false;
  for (const Part &p : parts) {
    const std::string csv = (fs::path(o.out_dir) / (p.name + ".csv")).string();
    const std::string shown = sweep_command(p, p.name + ".csv");
    std::cerr << "+ " << shown << "\n";
    commands.push_back(shown);
    sweep::RunOptions ro;
    ro.backends = p.backends;
    ro.output = csv;
    ro.resume = true;
    ro.jobs = o.jobs;
    ro.progress = o.progress;
    ro.meta = {{"command", shown}, {"date", date}};
    const sweep::RunSummary s = sweep::run(p.grid, ro);
    std::cerr << "  " << p.name << ": " << s.measured << " points measured, " << s.skipped
              << " resumed, " << fixed(s.seconds, 1) << " s\n";
    if (!s.device.empty()) {
      device = s.device;
      gpu_ran = true;
    }
  }
  const std::string dir = o.out_dir;
  auto csv = [&](const std::string &name) { return (fs::path(dir) / (name + ".csv")).string(); };
  if (!gpu_ran) // a resumed run may have measured nothing new
    for (const Part &p : parts)
      if (p.backends.gpu && !device_of(csv(p.name)).empty()) {
        device = device_of(csv(p.name));
        gpu_ran = true;
      }

  // Plots and diagrams.
  for (const char *preset : {"fig3.1", "fig3.2a", "fig3.2b", "fig3.3", "fig4.4", "fig4.6"})
    viz.run({"diagram", "--preset", preset, "--output", dir + "/diagram-" + preset + ".png"});
  for (const char *name : {"fig5.1a", "fig5.2", "fig5.1b"}) {
    if (fs::exists(csv(std::string("gpu-") + name)))
      viz.run({"plot", "heatmap", "--input", csv(std::string("gpu-") + name), "--output",
               dir + "/gpu-" + name + ".png", "--value", "gpu_time_ms", "--title",
               std::string(name) + ": time relative to naive (" + device + ")"});
    if (fs::exists(csv(std::string("sim-") + name)))
      viz.run({"plot", "heatmap", "--input", csv(std::string("sim-") + name), "--output",
               dir + "/sim-" + name + ".png", "--value", "sim_l1_fetched_bytes", "--title",
               std::string(name) + ": simulated L2->L1 bytes relative to naive"});
  }
  for (const char *name : {"fig5.3", "fig5.4"}) {
    for (const std::string side : {"gpu", "sim"}) {
      const std::string src = csv(side + "-" + name);
      if (!fs::exists(src))
        continue;
      const std::string value = side == "gpu" ? "relative_time" : "relative_l1_fetched_bytes";
      const std::string rel = csv(side + "-" + name + "-relative");
      write_relative_csv(rel, load(src, side == "gpu" ? "gpu_time_ms" : "sim_l1_fetched_bytes"), value);
      viz.run({"plot", "lines", "--input", rel, "--output", dir + "/" + side + "-" + name + ".png",
               "--x", "size", "--y", value, "--series", "order", "--title",
               std::string(name) + ": " + value + " against N (" + (side == "gpu" ? device : "simulator") + ")"});
    }
  }
  if (fs::exists(csv("gpu-sec5.2")))
    viz.run({"plot", "scatter", "--input", csv("gpu-sec5.2"), "--output", dir + "/scatter-l1.png",
             "--x", "sim_l1_hit_pct", "--y", "gpu_l1_hit_pct", "--series", "order", "--title",
             "simulated against measured L1 hit rate"});

  // The model against simulation (result 6).
  const std::vector<ModelRow> mrows = model_rows(o.tiny);
  {
    std::ostringstream os;
    os << "workload,order,equation,kind,model_fetches,simulated_fetches\n";
    for (const ModelRow &r : mrows)
      os << cli::csv_escape(r.workload) << "," << r.order << "," << r.equation << "," << r.kind
         << "," << r.model << "," << r.simulated << "\n";
    cli::write_file_atomic(csv("model"), os.str());
  }

  // ---- the report ----
  std::ostringstream md;
  md << "# Reproducing Prasetya 2022, \"column based iteration\" (ch. 5)\n\n"
     << "Generated by `cbi reproduce`; do not edit by hand.\n\n"
     << "- date: " << date << "\n"
     << "- device: " << device << "\n"
     << "- mode: " << (o.sim_only ? "simulator only (--sim-only): no GPU numbers" : "GPU and simulator")
     << (o.tiny ? "; TINY scale (CI smoke test): the numbers mean nothing" : "") << "\n"
     << "- command: `" << o.command << "`\n"
     << "- thesis: RTX 2080 Super (Turing, 64 KiB L1 per SM, 4 MiB L2), times in ms\n\n"
     << "Every CSV below is a `cbi sweep` CSV: one row per point, `sim_*` columns from the cache "
        "simulator, `gpu_*` columns from the CUDA kernels. The simulator replays the threads "
        "one after another through one cache (it has no SMs, warps or concurrency), so it speaks "
        "to traffic, not to time; nor does it run a warp's 32 threads in lockstep, which is where a "
        "column of 32 lets one B line serve a whole warp in matmul.\n\n";

  const Values g51a = load(csv("gpu-fig5.1a"), "gpu_time_ms"), g52 = load(csv("gpu-fig5.2"), "gpu_time_ms"),
               g51b = load(csv("gpu-fig5.1b"), "gpu_time_ms");
  const Values s51a = load(csv("sim-fig5.1a"), "sim_l1_fetched_bytes"),
               s52 = load(csv("sim-fig5.2"), "sim_l1_fetched_bytes"),
               s51b = load(csv("sim-fig5.1b"), "sim_l1_fetched_bytes");
  const auto t51a = sweep::thesis_table("fig5.1a"), t52 = sweep::thesis_table("fig5.2"),
             t51b = sweep::thesis_table("fig5.1b");
  auto thesis_values = [](const sweep::ThesisTable &t) {
    Values v;
    for (std::size_t r = 0; r < t.widths.size(); ++r)
      for (std::size_t c = 0; c < sweep::thesis_blocks().size(); ++c)
        v[{t.widths[r], sweep::thesis_blocks()[c], "", ""}] = t.ms[r][c];
    return v;
  };
  const Values th51a = thesis_values(*t51a), th52 = thesis_values(*t52), th51b = thesis_values(*t51b);

  // 1.
  md << "## 1. Multiples of 32 beat their neighbours; narrow columns are far slower (Figs 5.1a, 5.2)\n\n"
     << thesis_line(judge_multiples({{"Fig 5.1a", &th51a}, {"Fig 5.2", &th52}}, "time"))
     << "\nE.g. Fig 5.1a b256: naive 1.46 ms, column 32 1.29 ms, 31 2.06 ms, 33 1.95 ms, 4 7.48 ms.\n\n";
  if (!o.sim_only) {
    md << "**Ours, GPU** (" << device << ", " << date << "), `" << command_for(commands, "gpu-fig5.1a") << "`:\n\n"
       << value_table(g51a, "median ms", &*t51a, 3) << "\n" << image(dir, "gpu-fig5.1a.png", "fig5.1a heatmap")
       << "Fig 5.2 (4037²), `gpu-fig5.2.csv`:\n\n" << value_table(g52, "median ms", &*t52, 3) << "\n"
       << image(dir, "gpu-fig5.2.png", "fig5.2 heatmap")
       << verdict_line("this GPU", judge_multiples({{"4096²", &g51a}, {"4037²", &g52}}, "time")) << "\n";
  }
  md << "**Ours, simulator** (L2→L1 bytes of one 64 KiB L1, `sim-fig5.1a.csv`, `sim-fig5.2.csv`):\n\n"
     << value_table(s51a, "bytes fetched into L1", nullptr, 0) << "\n"
     << image(dir, "sim-fig5.1a.png", "simulated fig5.1a")
     << verdict_line("simulator, traffic in place of time", judge_multiples({{"fig5.1a", &s51a}, {"fig5.2", &s52}}, "traffic"))
     << "\n";

  // 2.
  const std::vector<int> mid = {32, 64, 96, 128};
  auto judge_matmul = [&](const Values &v, const std::string &what) -> Verdict {
    const std::set<int> blocks = blocks_of(v);
    int better = 0, n = 0, best_w = 0, best_block = 0;
    double best = kNaN;
    for (int b : blocks) {
      int w = 0;
      const double r = best_relative(v, b, mid, &w);
      if (!std::isfinite(r))
        continue;
      ++n;
      better += r < 1.0;
      if (!(r >= best)) {
        best = r;
        best_w = w;
        best_block = b;
      }
    }
    if (n == 0)
      return {"not measured", "no data."};
    const std::string why = "A width of 32-128 beat naive " + what + " in " + std::to_string(better) +
                            " of " + std::to_string(n) + " block sizes; the best, column " +
                            std::to_string(best_w) + " at b" + std::to_string(best_block) + ", is " +
                            pct(1.0 - best) + " below naive.";
    return {better == n ? "holds" : better > 0 ? "partly holds" : "does not hold", why};
  };
  md << "## 2. Matmul with column widths 32-128 beats naive (Fig 5.1b; thesis: up to 28%)\n\n"
     << thesis_line(judge_matmul(th51b, "time")) << "\n";
  if (!o.sim_only)
    md << "**Ours, GPU** (" << device << ", " << date << "), `gpu-fig5.1b.csv`:\n\n"
       << value_table(g51b, "median ms", &*t51b, 3) << "\n" << image(dir, "gpu-fig5.1b.png", "fig5.1b heatmap")
       << verdict_line("this GPU", judge_matmul(g51b, "time")) << "\n";
  md << "**Ours, simulator** (`sim-fig5.1b.csv`, " << (o.tiny ? "tiny" : "N = 512, 32 KiB L1") << "):\n\n"
     << value_table(s51b, "bytes fetched into L1", nullptr, 0) << "\n"
     << verdict_line("simulator, traffic in place of time", judge_matmul(s51b, "traffic")) << "\n";

  // 3.
  const std::vector<int> trend_widths = {32, 64, 128, 256, 512, 1024, 2048};
  auto judge_trend = [&](const Values &stencil, const Values &matmul, const std::string &what) -> Verdict {
    const Trend ts = trend(stencil, trend_widths), tm = trend(matmul, trend_widths);
    if (ts.best.size() < 2 || tm.best.size() < 2)
      return {"not measured", "fewer than two sizes."};
    const bool s_ok = ts.best.back().second > ts.best.front().second;
    const bool m_ok = tm.best.back().second < tm.best.front().second;
    const std::string why = "Best " + what + " relative to naive by N — stencil: " + trend_text(ts) +
                            "; matmul: " + trend_text(tm) + ". Stencil gains " +
                            (s_ok ? "shrink" : "do not shrink") + " and matmul gains " +
                            (m_ok ? "grow" : "do not grow") + " from the smallest to the largest N.";
    return {s_ok && m_ok ? "holds" : s_ok || m_ok ? "partly holds" : "does not hold", why};
  };
  md << "## 3. The trend with input size (Figs 5.3, 5.4)\n\n"
     << "**Thesis:** stencils gain less on large inputs; matmul gains only from N = 2^8 and more on "
        "larger inputs, with diminishing returns after 2^10 (figures only, no table).\n\n";
  if (!o.sim_only)
    md << "**Ours, GPU** (" << device << ", " << date << "), `gpu-fig5.3.csv`, `gpu-fig5.4.csv`:\n\n"
       << image(dir, "gpu-fig5.3.png", "fig5.3") << image(dir, "gpu-fig5.4.png", "fig5.4")
       << verdict_line("this GPU", judge_trend(load(csv("gpu-fig5.3"), "gpu_time_ms"),
                                               load(csv("gpu-fig5.4"), "gpu_time_ms"), "time"))
       << "\n";
  md << "**Ours, simulator** (`sim-fig5.3.csv`, `sim-fig5.4.csv`, one 64 KiB L1):\n\n"
     << image(dir, "sim-fig5.3.png", "simulated fig5.3") << image(dir, "sim-fig5.4.png", "simulated fig5.4")
     << verdict_line("simulator, traffic in place of time",
                     judge_trend(load(csv("sim-fig5.3"), "sim_l1_fetched_bytes"),
                                 load(csv("sim-fig5.4"), "sim_l1_fetched_bytes"), "L2->L1 traffic"))
     << "\n";

  // 4.
  const sweep::ThesisCounters tc;
  md << "## 4. Hardware counters of matmul 1024² (§5.2)\n\n"
     << "**Thesis** (naive → column 32): L1 hit rate " << tc.l1_hit_pct_naive << "% → "
     << tc.l1_hit_pct_column32 << "%, L2→L1 traffic " << tc.l2_to_l1_gb_naive << " GB → "
     << tc.l2_to_l1_gb_column32 << " GB, L2 hit rate " << tc.l2_hit_pct_naive << "% → "
     << tc.l2_hit_pct_column32 << "%.\n\n";
  auto counters = [&](const std::string &file, const std::string &l1, const std::string &bytes,
                      const std::string &l2, const std::string &who) {
    const Values h1 = load(file, l1), tb = load(file, bytes), h2 = load(file, l2);
    const int b = blocks_of(h1).empty() ? 256 : *blocks_of(h1).begin();
    const double n1 = at(h1, 0, b), c1 = at(h1, 32, b), nb = at(tb, 0, b), cb = at(tb, 32, b),
                 n2 = at(h2, 0, b), c2 = at(h2, 32, b);
    md << "**Ours, " << who << "** (`" << fs::path(file).filename().string() << "`): L1 hit rate "
       << fixed(n1) << "% → " << fixed(c1) << "%, L2→L1 traffic " << fixed(nb / 1e9, 3) << " GB → "
       << fixed(cb / 1e9, 3) << " GB, L2 hit rate " << fixed(n2) << "% → " << fixed(c2) << "%.\n\n";
    Verdict v{"not measured", "no counters in the CSV."};
    if (std::isfinite(n1) && std::isfinite(c1)) {
      const bool l1_up = c1 - n1 >= 20, traffic_down = cb < 0.5 * nb, l2_down = c2 < n2;
      const int ok = l1_up + traffic_down + l2_down;
      v = {ok == 3 ? "holds" : ok >= 1 ? "partly holds" : "does not hold",
           std::string("L1 hit rate ") + (l1_up ? "rises by 20 points or more" : "does not rise by 20 points") +
               ", L2→L1 traffic " + (traffic_down ? "at least halves" : "does not halve") +
               ", L2 hit rate " + (l2_down ? "drops" : "does not drop") + " with column 32."};
    }
    md << verdict_line(who, v) << "\n";
  };
  if (!o.sim_only)
    counters(csv("gpu-sec5.2"), "gpu_l1_hit_pct", "gpu_l2_to_l1_bytes", "gpu_l2_hit_pct", "this GPU");
  counters(o.sim_only ? csv("sim-sec5.2") : csv("gpu-sec5.2"), "sim_l1_hit_pct", "sim_l1_fetched_bytes",
           "sim_l2_hit_pct", "simulator");
  if (!o.sim_only)
    md << image(dir, "scatter-l1.png", "simulated vs measured L1 hit rate");

  // 5.
  md << "## 5. Half and double; \"stencil up to 8%, matmul up to 28%\"\n\n"
     << "**Thesis:** half precision changed the improvements (no number given); with double the "
        "kernels become compute bound and no order differs tangibly from naive. Conclusion: CBI "
        "improves naive stencils by up to 8% and matmul by up to 28%.\n\n";
  // The conclusion's figures compare the fastest column run with the fastest naive run, each at
  // its best block (Fig 5.1a: 1.29 ms at b256 against 1.42 ms at b64, 9%; Fig 5.1b: 28%).
  auto best_gain = [&](const Values &v, const std::vector<int> &widths) {
    double naive = kNaN, column = kNaN;
    for (const auto &[k, x] : v) {
      if (k.width == 0 && !(x >= naive))
        naive = x;
      if (std::find(widths.begin(), widths.end(), k.width) != widths.end() && !(x >= column))
        column = x;
    }
    return 1.0 - column / naive;
  };
  const std::vector<int> all_widths = sweep::thesis_column_widths();
  md << "Thesis tables, fastest column run against fastest naive run: stencil 4096² "
     << pct(best_gain(th51a, all_widths)) << ", stencil 4037² " << pct(best_gain(th52, all_widths))
     << ", matmul " << pct(best_gain(th51b, all_widths)) << ".\n\n";
  if (!o.sim_only) {
    md << "| grid | type | best gain over naive (b256) |\n|---|---|---|\n";
    double double_gain = -1;
    for (const char *name : {"fig5.1a", "fig5.1b"})
      for (const char *ty : {"float", "half", "double"}) {
        const std::string file = std::string("gpu-") + name + (std::string(ty) == "float" ? "" : std::string("-") + ty);
        const Values v = load(csv(file), "gpu_time_ms");
        const double r = best_relative(v, 256, all_widths, nullptr, "", ty);
        md << "| " << name << " | " << ty << " | " << (std::isfinite(r) ? pct(1.0 - r) : "n/a") << " |\n";
        if (std::string(ty) == "double" && std::isfinite(r))
          double_gain = std::max(double_gain, 1.0 - r);
      }
    const double gs = std::max(best_gain(g51a, all_widths), best_gain(g52, all_widths)),
                 gm = best_gain(g51b, all_widths);
    md << "\n";
    md << verdict_line("this GPU, double",
                       double_gain < 0 ? Verdict{"not measured", "no double runs."}
                       : double_gain < 0.05
                           ? Verdict{"holds", "no order beats naive by 5% or more in double (best " + pct(double_gain) + ")."}
                           : Verdict{"does not hold", "an order beats naive by " + pct(double_gain) + " in double."});
    const bool s_in = gs > 0.04 && gs < 0.16, m_in = gm > 0.14 && gm < 0.56;
    md << verdict_line("this GPU, up to 8% / 28%",
                       !std::isfinite(gs) || !std::isfinite(gm)
                           ? Verdict{"not measured", "missing float grids."}
                           : Verdict{s_in && m_in ? "holds" : (gs > 0 && gm > 0) ? "partly holds" : "does not hold",
                                     "Fastest column run against fastest naive run: stencil " + pct(gs) + ", matmul " + pct(gm) +
                                         " (holds: within a factor of two of 8% and 28%; partly: both positive)."})
       << "\n";
  } else {
    md << verdict_line("simulator", {"not measured", "time and compute-boundness need the GPU; "
                                                     "run without --sim-only on a CUDA machine."})
       << "\n";
  }

  // 6.
  md << "## 6. The simulator's side: diagrams and the analytical model (§3, §4)\n\n";
  for (const char *preset : {"fig3.1", "fig3.2a", "fig3.2b", "fig3.3", "fig4.4", "fig4.6"})
    md << image(dir, std::string("diagram-") + preset + ".png", std::string("thesis ") + preset);
  int bounds = 0, bounds_ok = 0, estimates = 0, estimates_close = 0;
  md << "Model against simulation on Tables 3.1/3.2 (16x16, unclamped, 24 or 32 lines of 16 B, "
        "fully associative LRU; `model.csv`):\n\n| workload | order | equation | model F | simulated fetches |\n|---|---|---|---|---|\n";
  for (const ModelRow &r : mrows) {
    md << "| " << r.workload << " | " << r.order << " | " << r.equation << " (" << r.kind << ") | "
       << fixed(r.model, 1) << " | " << r.simulated << " |\n";
    if (r.kind == "bound") {
      ++bounds;
      bounds_ok += double(r.simulated) <= r.model + 1e-9;
    } else {
      ++estimates;
      estimates_close += std::abs(double(r.simulated) - r.model) <= 0.25 * r.model;
    }
  }
  const std::string why6 = std::to_string(bounds_ok) + " of " + std::to_string(bounds) +
                           " simulated fetch counts respect the model's upper bound; " +
                           std::to_string(estimates_close) + " of " + std::to_string(estimates) +
                           " estimates are within 25% of the simulation.";
  md << "\n" << verdict_line("simulator against the model",
                              {bounds_ok == bounds && estimates_close == estimates ? "holds"
                               : bounds_ok + estimates_close > 0 ? "partly holds" : "does not hold", why6})
     << "\n";

  md << "## How to run it again\n\n"
     << "Each CSV was written by the command beside it (run from this folder; `--resume` skips "
        "what a file already holds, so an interrupted reproduction continues where it stopped):\n\n```\n";
  for (const std::string &c : commands)
    md << c << "\n";
  md << "```\n\nPlots and diagrams (" << (viz.binary.empty() ? "cbi-viz is absent from this build: "
                                                                "PNGs were not drawn; the CSVs are complete" : "cbi-viz")
     << "):\n\n";
  for (const std::string &l : viz.log)
    md << l << "\n";
  md << "\nScales: ";
  for (const Part &p : parts)
    md << "`" << p.name << "` " << p.scale_note << "; ";
  md << "cache presets: ";
  for (const auto &[name, spec] : sweep::cache_presets())
    md << "`" << name << "` = " << spec << "; ";
  md << "L1s fully associative LRU (the thesis's model), L2s 16-way LRU.\n";

  cli::write_file_atomic((fs::path(dir) / "report.md").string(), md.str());
  std::cerr << "cbi reproduce: wrote " << dir << "/report.md (" << parts.size() << " sweeps, device "
            << device << ")\n";
  return 0;
}

} // namespace cbi::reproduce
