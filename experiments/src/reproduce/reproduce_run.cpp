// reproduce's run: every part as a resumable sweep into the report folder, the plots and diagrams
// drawn by cbi-viz when it is there (its stderr through a pipe), and the analytical model against
// simulation; then the report.
#include "reproduce_steps.hpp"

#include "cbi/cli/command.hpp"
#include "cbi/cli/output.hpp"
#include "cbi/error.hpp"
#include "cbi/sim/device.hpp"
#include "cbi/sim/model.hpp"
#include "cbi/sim/presets.hpp"
#include "reproduce_data.hpp"

#include <cctype>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace cbi::reproduce {

namespace {

namespace fs = std::filesystem;

// Runs cbi-viz (plot or diagram) if this build has it; returns a note for the report.
struct Viz {
  std::string binary; // "" when absent
  std::vector<std::string> log;
  std::vector<std::string> failures;
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
    if (!ok)
      failures.push_back("`" + cmd + "`: " + err);
    return ok;
  }
};

// Lines-plot input: relative time (or traffic) against size, one series per order.
void write_relative_csv(const std::string &path, const Values &v, const std::string &value_name) {
  cli::Table t;
  t.columns = {"order", "size", value_name};
  for (const auto &[k, x] : v) {
    if (k.width == 0)
      continue;
    const double naive = at(v, 0, k.block, k.size, k.type);
    if (std::isfinite(naive) && naive > 0)
      t.add_row({"column:" + std::to_string(k.width), k.size, x / naive});
  }
  std::ostringstream os;
  cli::print_csv(os, t);
  cli::write_file_atomic(path, os.str());
}

// Model (§3.3-§4.4) against simulation on the presets table3.1 and table3.2 (cbi presets).
std::vector<ModelRow> model_rows(bool tiny) {
  std::vector<ModelRow> rows;
  (void)tiny; // Tables 3.1/3.2 are already small
  for (const char *preset : {"table3.1", "table3.2"}) {
    for (const std::string order : {"linear", "column:2", "column:4", "column:8", "column:16"}) {
      sim::SimConfig c = sim::find_preset(preset).config;
      c.order = remap::parse_order(order);
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

// The device row (cbi devices) of a GPU by its name ("NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)" ->
// h100); "" when the table has no row for it.
std::string device_row_of(const std::string &gpu) {
  const sim::Device *d = sim::device_of_gpu(gpu);
  return d ? d->name : "";
}

// The report's pictures, drawn by cbi-viz from the CSVs in `dir`: the thesis's diagrams, the
// heatmaps of Figs 5.1a, 5.2 and 5.1b, the lines of Figs 5.3 and 5.4, the scatter of §5.2.
void draw_figures(Viz &viz, const std::string &dir, const std::string &device) {
  auto csv = [&](const std::string &name) { return (fs::path(dir) / (name + ".csv")).string(); };
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
               std::string(name) + ": simulated L2→L1 bytes relative to naive"});
  }
  for (const char *name : {"fig5.3", "fig5.4"}) {
    for (const std::string side : {"gpu", "sim"}) {
      const std::string src = csv(side + "-" + name);
      if (!fs::exists(src))
        continue;
      const std::string value = side == "gpu" ? "relative_time" : "relative_l1_fetched_bytes";
      const std::string rel = csv(side + "-" + name + "-relative");
      write_relative_csv(rel, load(src, side == "gpu" ? "gpu_time_ms" : "sim_l1_fetched_bytes"),
                         value);
      viz.run({"plot", "lines", "--input", rel, "--output", dir + "/" + side + "-" + name + ".png",
               "--x", "size", "--y", value, "--series", "order", "--title",
               std::string(name) + ": " + (side == "gpu" ? "time" : "bytes fetched into L1") +
                   " of each column order relative to naive, by input size N (" +
                   (side == "gpu" ? device : "simulator") + ")"});
    }
  }
  if (fs::exists(csv("gpu-sec5.2")))
    viz.run({"plot", "scatter", "--input", csv("gpu-sec5.2"), "--output", dir + "/scatter-l1.png",
             "--x", "sim_l1_hit_pct", "--y", "gpu_l1_hit_pct", "--series", "order", "--title",
             "simulated against measured L1 hit rate"});
}

// A folder holding another run's CSV (written with --tiny, say, or by another cbi version) failed
// each step that shares it, after the others had run and with the report written: refused first,
// naming the folder's option, before anything is written.
void check_folder_continues(const Options &o, const std::vector<Part> &parts) {
  for (const Part &p : parts) {
    if (p.model_on_measured_device)
      continue; // its grid takes the device that measures, known at run time
    sweep::RunOptions ro;
    ro.backends = p.backends;
    ro.output = (fs::path(o.out_dir) / (p.name + ".csv")).string();
    ro.resume = true;
    try {
      sweep::check_resume(p.grid, ro);
    } catch (const UsageError &) {
      throw UsageError(o.out_option, "'" + o.out_dir + "' holds a " + p.name +
                                         ".csv of another run (other options, such as --tiny, or "
                                         "another cbi version), which this one cannot continue; "
                                         "allowed: the options of the run that wrote it, or a "
                                         "new folder");
    }
  }
}

} // namespace

int run(const Options &o) {
  const std::vector<Part> parts = plan(o);
  check_folder_continues(o, parts);
  std::error_code made;
  fs::create_directories(o.out_dir, made);
  if (made)
    throw std::runtime_error("--output: cannot create the report folder '" + o.out_dir +
                             "': " + made.message());
  const std::string date = cli::utc_timestamp();
  Viz viz;
  if (!o.self_dir.empty() && access((o.self_dir + "/cbi-viz").c_str(), X_OK) == 0)
    viz.binary = o.self_dir + "/cbi-viz";

  RunRecord rec;
  rec.date = date;
  std::vector<std::string> &commands = rec.commands;
  std::string &device = rec.device;
  device = "none (simulator only)";
  bool gpu_ran = false;
  int64_t gpu_resumed = 0; // GPU points taken from the CSVs rather than measured now
  for (const Part &planned : parts) {
    Part p = planned;
    if (p.model_on_measured_device) {
      // The device that measured: this run's GPU, else the one the GPU CSVs name.
      std::string gpu = gpu_ran ? device : "";
      for (const Part &q : parts)
        if (gpu.empty() && q.backends.gpu)
          gpu = device_of((fs::path(o.out_dir) / (q.name + ".csv")).string());
      const std::string row = device_row_of(gpu);
      if (row.empty()) {
        std::cerr << "  " << p.name << ": skipped: the device table has no row for '"
                  << (gpu.empty() ? "(no GPU measured)" : gpu) << "'\n";
        continue;
      }
      p.grid.device = row;
    }
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
    sweep::RunSummary s;
    try {
      s = sweep::run(p.grid, ro);
    } catch (const sweep::GpuUnavailable &) {
      throw;
    } catch (const std::exception &e) {
      rec.failures.push_back("`" + shown + "`: " + e.what());
      std::cerr << "  " << p.name << " FAILED: " << e.what() << "\n";
      continue;
    }
    if (s.interrupted) {
      std::cerr << "cbi reproduce: interrupted in " << p.name << ": " << s.skipped + s.measured
                << " of " << s.points << " points saved in " << csv << "; continue with:\n  "
                << o.command << "\n";
      return 130;
    }
    std::cerr << "  " << p.name << ": " << s.measured
              << (s.measured == 1 ? " point measured, " : " points measured, ") << s.skipped
              << " resumed, " << fixed(s.seconds, 1) << " s\n";
    if (!s.device.empty()) {
      device = s.device;
      gpu_ran = true;
    }
    if (p.backends.gpu)
      gpu_resumed += s.skipped;
  }
  rec.gpu_when =
      gpu_resumed == 0 ? date : "resumed from the CSVs: measured before this report's " + date;
  const std::string dir = o.out_dir;
  auto csv = [&](const std::string &name) { return (fs::path(dir) / (name + ".csv")).string(); };
  if (!gpu_ran) // a resumed run may have measured nothing new
    for (const Part &p : parts)
      if (p.backends.gpu && !device_of(csv(p.name)).empty()) {
        device = device_of(csv(p.name));
        gpu_ran = true;
      }

  draw_figures(viz, dir, device);

  // The model against simulation (result 6).
  rec.model = model_rows(o.tiny);
  const std::vector<ModelRow> &mrows = rec.model;
  {
    cli::Table t;
    t.columns = {"workload", "order", "equation", "kind", "model_fetches", "simulated_fetches"};
    for (const ModelRow &r : mrows)
      t.add_row({r.workload, r.order, r.equation, r.kind, r.model, r.simulated});
    std::ostringstream os;
    cli::print_csv(os, t);
    cli::write_file_atomic(csv("model"), os.str());
  }
  rec.viz_log = viz.log;
  rec.viz_built = !viz.binary.empty();
  rec.failures.insert(rec.failures.end(), viz.failures.begin(), viz.failures.end());
  write_report(o, parts, rec);
  std::cerr << "cbi reproduce: wrote " << dir << "/report.md (" << parts.size()
            << " sweeps, device " << device << ")\n";
  if (rec.failures.empty())
    return 0;
  std::cerr << "cbi reproduce: " << rec.failures.size() << " step"
            << (rec.failures.size() > 1 ? "s" : "") << " failed:\n";
  for (const std::string &f : rec.failures)
    std::cerr << "  " << f << "\n";
  return 1;
}

} // namespace cbi::reproduce
