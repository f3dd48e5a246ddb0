// cbi sweep: run a grid of configurations (axes, nvbench style) on the simulator and/or the GPU,
// streaming one tidy CSV row per point; `cbi sweep merge` joins the shards of a split sweep.
#include "cbi/cli/command.hpp"
#include "cbi/cli/options.hpp"
#include "cbi/config/defaults.hpp"
#include "cbi/config/options.hpp"
#include "cbi/config/point_options.hpp"
#include "cbi/text.hpp"
#include "grids.hpp"
#include "sweep.hpp"
#include "sweep_best.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace cbi::cli {

namespace {

// --json - with the CSV on stdout too would interleave two documents there: refused.
void refuse_two_on_stdout(const po::variables_map &vm) {
  if (get(vm, "json", "") == "-" && get(vm, "output", "-") == "-")
    throw UsageError("--json", "'-' is stdout, where the CSV goes already; allowed: a file path, "
                               "or - with --output FILE.csv");
  // --json writes JSON whatever the path's ending: a .csv or .md path would hold the wrong one.
  if (has(vm, "json"))
    require_format_of_path(get(vm, "json", ""), "--json", "json");
}

int cmd_sweep_merge(int argc, char **argv) {
  po::options_description desc("Options");
  // clang-format off
  desc.add_options()
    ("input", po::value<std::vector<std::string>>()->composing(), "shard CSVs (also positional)")
    ("json", po::value<std::string>(), "also write the merged rows as JSON to this file")
    ("partial", po::bool_switch(), "merge even when shards or points are missing (listed on "
                                   "stderr); without it a gap is an error");
  // clang-format on
  add_output_options(desc, "csv");
  po::options_description all = desc;
  all.add_options()("help,h", "show this help");
  po::positional_options_description positional;
  positional.add("input", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv)
                  .options(all)
                  .style(kParserStyle)
                  .positional(positional)
                  .run(),
              vm);
  } catch (const po::error &e) {
    throw usage_error_of(e, all);
  }
  if (vm.count("help")) {
    std::cout << "usage: cbi sweep merge [--output ALL.csv] SHARD.csv...\n\n"
                 "Joins the CSVs of a sharded sweep (cbi sweep --shard k/n): every row must carry "
                 "the same grid\nfingerprint (grid_id) and shard count; rows are ordered by "
                 "point index as an unsharded run\nwrites them, and a point present twice is "
                 "kept once. A missing shard or point is an error that\nlists them (--partial "
                 "merges anyway).\n\n"
              << all
              << "\nExamples:\n"
                 "  cbi sweep merge --output fig5.1a.csv fig5.1a-*.csv\n"
                 "  cbi sweep merge --format json part0.csv part1.csv\n";
    return 0;
  }
  po::notify(vm);
  refuse_two_on_stdout(vm);
  for (const char *name : {"output", "json"})
    if (has(vm, name))
      check_output(get(vm, name, ""), std::string("--") + name);
  refuse_one_file_twice(vm);
  if (!vm.count("input"))
    throw UsageError("--input", "no CSV files to merge; allowed: one or more shard CSVs");
  const Printer &format = format_from(vm, "csv");
  if (wide_from(vm) && std::string(format.name()) != "table")
    throw UsageError("--wide", "applies to the terminal table only; allowed: --wide with "
                               "--format table (merge writes CSV by default)");
  // One file given twice (part*.csv part0.csv) was merged as if once: refused, as every list's
  // repeated value is; the same file by two spellings is one file.
  const std::vector<std::string> &inputs = vm["input"].as<std::vector<std::string>>();
  std::vector<std::string> files_of;
  for (const std::string &input : inputs)
    files_of.push_back(std::filesystem::absolute(input).lexically_normal().string());
  refuse_repeats(inputs, files_of, "--input", "each shard CSV once");
  Table t = sweep::merge(inputs, vm["partial"].as<bool>());
  const std::size_t files = vm["input"].as<std::vector<std::string>>().size();
  // JSON's "title" was empty.
  t.title = "cbi sweep merge: " + std::to_string(files) + (files == 1 ? " CSV" : " CSVs");
  t.wide = wide_from(vm);
  std::ostringstream os;
  format.print(os, t);
  if (has(vm, "json")) {
    std::ostringstream js;
    print_json(js, t);
    write_file_atomic(get(vm, "json", ""), js.str(), "--json");
  }
  write_file_atomic(get(vm, "output", "-"), os.str(), "--output");
  return 0;
}

std::string grid_help() {
  std::string s = "built-in grid (thesis ch. 5): ";
  for (const auto &[name, what] : sweep::grid_list())
    s += name + ", ";
  return s + "each also NAME-half / NAME-double; see --list";
}

void add_sweep_options(po::options_description &desc) {
  static const std::string grid_text = grid_help();
  static const std::string device_text =
      "--model gpu: the GPU model's " + config::device_help() + ", e.g. --device rtx2080super";
  static const std::string order_text =
      std::string("thread orders, a comma list or repeated: ") + remap::order_syntax();
  desc.add_options()("grid", po::value<std::string>(), grid_text.c_str())(
      "list", po::bool_switch(), "list the built-in grids and cache presets, then exit")(
      "dry-run", po::bool_switch(),
      "check every point as the run would, print them (index, id, "
      "key) and the grid's fingerprint; run nothing")(
      "backend", po::value<std::string>(),
      "sim (default) | gpu | sim,gpu (both in one row) | "
      "sim+gpu (the GPU model's predictions beside the "
      "hardware's measurements, ncu names with _pred and "
      "_meas; needs a GPU), e.g. --backend sim+gpu --metrics")(
      "model", po::value<std::string>(),
      "the simulator: sequential (one cache hierarchy, default; "
      "sim+gpu: gpu) | gpu (the GPU model: the block axis and "
      "--device count; docs/gpu-model.md), e.g. --model gpu")("device", po::value<std::string>(),
                                                              device_text.c_str())(
      "kernel", list_value(),
      "axis: stencil, matmul, sgemm-tiled, stencil-smem (both backends; the tiled two replay "
      "their tile loads); stencil-2d, cublas (gpu only)")(
      "size", list_value(), "axis: input sizes N or WxH, comma-separated")(
      "stencil", list_value(), "axis: stencil windows, e.g. 3x3,9x9")(
      "depth", list_value(), "axis: matmul inner dimension D (0 = width)")(
      "type", list_value(), "axis: element types half, float, double")(
      "block", list_value(),
      "axis: threads per block, 1..1024 (gpu and --model gpu; with the sequential "
      "simulator only the grid's own, to pick its points)")("order", list_value(),
                                                            order_text.c_str())(
      "cache", po::value<std::vector<std::string>>()->composing(),
      "axis (sim only), repeatable: a preset (table3, l1-64k, l1-256k, turing, h100) or level "
      "specs joined by '/', e.g. size=32KiB,line=128/size=4MiB,line=128,ways=16")(
      "remap-math", list_value(),
      "axis (gpu only; elsewhere only the grid's own, to pick its points): how "
      "stencil/matmul divide in the order's map: fast (default), div")(
      "block-order", list_value(),
      "axis: thread orders of the CTAs of stencil-smem and "
      "sgemm-tiled (default linear; gpu and --model gpu)")(
      "shard", po::value<std::string>(),
      "run slice k/n of the grid (0 <= k < n), for Slurm arrays "
      "and GNU parallel; join with cbi sweep merge")(
      "output,o", po::value<std::string>(),
      "stream the CSV to this file instead of stdout (- is "
      "stdout); a FIFO, device or symlink's target is written "
      "through")("json", po::value<std::string>(),
                 "also write all rows as JSON (with device, date, command) "
                 "to this file at the end")(
      "resume", po::bool_switch(),
      "continue an interrupted --output CSV: points already in it "
      "are skipped")(
      "jobs", po::value<std::string>(),
      (std::string("simulations replayed at once, one host thread each (sequential or GPU "
                   "model; default: all cores, one fewer while a GPU backend runs)") +
       cli::kJobsCapHelp)
          .c_str())(
      "progress", po::bool_switch(),
      "progress bar with ETA on stderr (default on a terminal, and off one for a sweep of over "
      "2^30 "
      "simulated accesses: a line per tenth, one a minute at least)")(
      "metrics", po::bool_switch(),
      "gpu: read hardware counters (L1/L2 hit rates, L2->L1 bytes) "
      "for every point (slower: replay passes)")("no-check", po::bool_switch(),
                                                 "gpu: skip the comparison with the CPU reference")(
      "cold", po::bool_switch(), "gpu: flush L2 before every timed sample")(
      "min-samples", po::value<std::string>(), "gpu: timed samples at least (default 10)")(
      "max-seconds", po::value<std::string>(), "gpu: sampling time per point (default 0.25)")(
      "max-noise", po::value<std::string>(),
      "gpu: stop sampling at this stdev/mean (default 0.01)");
}

// --list: the built-in grids, the cache presets, the presets that sweeps cannot hold.
int print_grid_list() {
  Table t;
  t.title = "cbi sweep: built-in grids (each also NAME-half, NAME-double)";
  t.columns = {"grid", "points", "what"};
  for (const auto &[name, what] : sweep::grid_list())
    t.add_row({name, static_cast<int64_t>(sweep::expand(sweep::thesis_grid(name)).size()), what});
  for (const auto &[name, levels] : sweep::cache_presets())
    t.notes.push_back("cache preset " + name + ": " + levels);
  t.notes.push_back("cache presets are fully associative LRU (the thesis's model; GPUs hash "
                    "set indices, which a modulo-indexed set-associative model does not)");
  t.notes.push_back("configurations of cbi presets that sweep points cannot hold (per "
                    "thread-line or without a boundary), for cbi simulate/diagram --preset: " +
                    sweep::unsweepable_presets());
  print_table(std::cout, t);
  return 0;
}

// The grid: --grid NAME or the default, with each axis option given overriding its axis.
sweep::Grid grid_from(const po::variables_map &vm) {
  sweep::Grid g = has(vm, "grid") ? sweep::thesis_grid(get(vm, "grid", "")) : sweep::default_grid();
  for (const sweep::AxisDef &d : sweep::axis_defs()) {
    const std::string option = sweep::axis_option(d).substr(2);
    if (option == "cache") {
      if (has(vm, "cache"))
        g.set("cache", vm["cache"].as<std::vector<std::string>>());
    } else if (has(vm, option)) {
      g.set(d.name, list_from(vm, option));
    }
  }
  // An axis given that no kernel of the grid reads is refused, not ignored.
  std::vector<kernels::KernelKind> kinds;
  for (const std::string &k : g.values("kernel"))
    kinds.push_back(kernels::parse_kernel(k));
  config::refuse_unused_kernel_axes(vm, kinds);
  const auto none = [&](bool (*takes)(kernels::KernelKind)) {
    return std::none_of(kinds.begin(), kinds.end(), takes);
  };
  if (has(vm, "block-order") && none(kernels::is_block_ordered))
    throw UsageError("--block-order", "no listed kernel has tiles to order; allowed: leave it "
                                      "out, or stencil-smem or sgemm-tiled in --kernel");
  return g;
}

// Given by the user: a bool_switch is always stored, with its default marked.
bool given(const po::variables_map &vm, const char *option) {
  return vm.count(option) && !vm[option].defaulted();
}

// The hardware's measurement settings are refused, not ignored, where no gpu backend measures.
void refuse_without_backend(const po::variables_map &vm, const sweep::Backends &b) {
  if (!b.gpu)
    for (const char *option :
         {"no-check", "cold", "min-samples", "max-seconds", "max-noise", "metrics"})
      if (given(vm, option))
        throw UsageError(std::string("--") + option,
                         "applies to the gpu backend only (the CUDA kernels timed on the "
                         "hardware); allowed: leave it out, or --backend gpu, sim,gpu or sim+gpu");
}

// The axes that change no simulation (--block for the sequential replay, --remap-math for either
// simulator) only pick among the grid's own values, the points a gpu run of the grid measures and
// whose ids the rows share: `sweep --block 128` on the sim backend labelled rows with a block that
// nothing ran.
void refuse_unsimulated_axes(const po::variables_map &vm, const sweep::Backends &b) {
  const sweep::Grid base =
      has(vm, "grid") ? sweep::thesis_grid(get(vm, "grid", "")) : sweep::default_grid();
  for (const sweep::AxisDef &d : sweep::axis_defs()) {
    const std::string option = sweep::axis_option(d), name = d.name;
    const bool counts = b.gpu || (b.model && name == "block");
    if (d.simulated || counts || !has(vm, option.substr(2)))
      continue;
    sweep::Grid asked = base;
    asked.set(name, list_from(vm, option.substr(2))); // canonical spellings: 0256 is 256
    const std::vector<std::string> own = base.values(name);
    const std::string allowed = join(own, ",");
    for (const std::string &v : asked.values(name))
      if (std::find(own.begin(), own.end(), v) == own.end())
        throw UsageError(
            option, v + " changes nothing the " + (b.model ? "GPU model" : "sequential simulator") +
                        " counts (there it only picks among the grid's own: " + allowed +
                        "); allowed: leave it out, " + allowed + ", " +
                        (name == "block" ? "--model gpu, " : "") +
                        "or --backend gpu, sim,gpu or sim+gpu");
  }
}

// The default grid's block (256) on a device whose blocks are smaller: the device's largest, as
// simulate and tune take it, so that `--model gpu --device tiny` alone is not refused for a --block
// the user never gave. A --block given stays as it is; a built-in grid's own blocks that the device
// cannot run are refused naming --grid and --device (they blamed --block, which was not given).
void fit_default_block(const po::variables_map &vm, sweep::Grid &g, const sim::Device &device) {
  const int largest = std::min(device.max_threads_per_block, device.max_threads_per_sm);
  if (!has(vm, "grid") && !has(vm, "block") && largest < config::kDefaultBlockThreads)
    g.set("block", {std::to_string(largest)});
  if (!has(vm, "grid") || has(vm, "block"))
    return;
  std::vector<std::string> too_large;
  for (const std::string &block : g.values("block"))
    if (std::stoll(block) > largest)
      too_large.push_back(block);
  if (too_large.empty())
    return;
  std::vector<std::string> fit;
  for (const sim::Device &d : sim::devices())
    if (std::stoll(too_large.back()) <= std::min(d.max_threads_per_block, d.max_threads_per_sm))
      fit.push_back(d.name);
  throw UsageError("--device", device.name + " runs blocks of at most " + std::to_string(largest) +
                                   (largest == 1 ? " thread" : " threads") + ", and --grid " +
                                   get(vm, "grid", "") + "'s blocks of " + join(too_large) +
                                   " threads do not fit it; allowed: --device " + join(fit) +
                                   ", or --block " +
                                   (largest == 1 ? "1" : "1.." + std::to_string(largest)) +
                                   " in place of the grid's blocks");
}

// How to run: the backends and the model (--backend, --model, --device), the shard, the GPU's
// measurement settings, the output files, resume, progress, jobs.
sweep::RunOptions run_options_from(const po::variables_map &vm, sweep::Grid &g, int argc,
                                   char **argv) {
  sweep::RunOptions opts;
  const std::string backend = get(vm, "backend", "sim");
  opts.backends = sweep::parse_backends(backend);
  if (has(vm, "model")) {
    const std::string model = get(vm, "model", "");
    if (model != "sequential" && model != "gpu")
      throw UsageError("--model", "unknown model '" + model + "'; allowed: sequential, gpu");
    if (model == "gpu" && !opts.backends.sim)
      throw UsageError("--model", "gpu is the simulator's side; allowed: --backend sim, model or "
                                  "sim+gpu with --model gpu");
    if (model == "sequential" && opts.backends.model)
      throw UsageError("--model", "sequential does not go with --backend " + backend +
                                      " (the GPU model); allowed: --backend sim,gpu for the "
                                      "sequential replay beside the hardware");
    opts.backends.model = model == "gpu";
  }
  // The GPU model takes its caches from the device row: a cache axis would be ignored.
  if (opts.backends.model && has(vm, "cache"))
    throw UsageError("--cache",
                     "does not apply to the GPU model, which takes its L1 and L2 from "
                     "the device row (cbi devices); allowed: --cache with --backend sim, "
                     "or --device NAME with --model gpu");
  // --backend gpu alone simulates nothing: a cache axis, --jobs or --model sequential there
  // changed no number.
  if (!opts.backends.sim)
    for (const char *option : {"cache", "jobs", "model"})
      if (has(vm, option))
        throw UsageError(std::string("--") + option,
                         "applies to the simulator only, and --backend gpu simulates nothing; "
                         "allowed: leave it out, or --backend sim,gpu to simulate beside the "
                         "hardware");
  if (has(vm, "device")) {
    if (!opts.backends.model)
      throw UsageError("--device", "applies to the GPU model only; allowed: --model gpu or "
                                   "--backend sim+gpu with --device NAME");
    const sim::Device &device = sim::find_device(get(vm, "device", ""));
    g.device = device.name;
    fit_default_block(vm, g, device);
  }
  refuse_without_backend(vm, opts.backends);
  refuse_unsimulated_axes(vm, opts.backends);
  if (has(vm, "shard"))
    opts.shard = sweep::parse_shard(get(vm, "shard", ""));
  if (vm["metrics"].as<bool>())
    g.metrics = true;
  opts.gpu.check = !vm["no-check"].as<bool>();
  opts.gpu.cold = vm["cold"].as<bool>();
  if (has(vm, "min-samples"))
    opts.gpu.min_samples = config::parse_min_samples(get(vm, "min-samples", ""));
  if (has(vm, "max-seconds"))
    opts.gpu.max_seconds = config::parse_max_seconds(get(vm, "max-seconds", ""));
  if (has(vm, "max-noise"))
    opts.gpu.max_noise = config::parse_max_noise(get(vm, "max-noise", ""));
  opts.output = get(vm, "output", "-");
  require_format_of_path(opts.output, "--output", "csv"); // the sweep streams CSV rows
  refuse_two_on_stdout(vm);
  opts.json = get(vm, "json", "");
  opts.resume = vm["resume"].as<bool>();
  opts.progress = vm["progress"].as<bool>();
  if (has(vm, "jobs"))
    opts.jobs = cli::parse_jobs(get(vm, "jobs", ""));
  opts.meta = {{"command", "cbi sweep " + command_line(argc - 1, argv + 1)},
               {"date", utc_timestamp()}};

  return opts;
}

// --dry-run: every point checked as the run would, printed with its id and key; nothing runs.
int dry_run(const sweep::Grid &g, const sweep::RunOptions &opts) {
  const std::vector<sweep::Point> all = sweep::expand(g);
  std::vector<sweep::Point> mine;
  for (const sweep::Point &p : all)
    if (opts.shard.contains(p))
      mine.push_back(p);
  sweep::validate(mine, opts.backends);
  std::cerr << "cbi sweep: grid " << g.name << ": grid_id " << sweep::fingerprint(g) << ", "
            << all.size() << (all.size() == 1 ? " point" : " points") << ", shard "
            << opts.shard.text() << " holds " << mine.size() << "\n";
  for (const sweep::Point &p : mine)
    std::cout << p.index << " " << p.id() << " " << p.key() << "\n";
  return 0;
}

} // namespace

int cmd_sweep(int argc, char **argv) {
  if (argc > 1 && std::string(argv[1]) == "merge") {
    // Its own command, so that its errors name it: "cbi sweep merge: --input: ...".
    static const Command merge{"sweep merge", "", cmd_sweep_merge};
    return run_command(merge, argc, argv, config::option_for_field);
  }
  // Every other command takes --format; a sweep streams CSV rows as it runs (an interrupted one
  // keeps them), so its JSON is a file of its own: said so, not "not an option".
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]).rfind("--format", 0) == 0)
      throw UsageError("--format", "cbi sweep streams CSV, a row per point (--output FILE.csv, or "
                                   "stdout), and writes JSON at its end with --json FILE.json; "
                                   "allowed: leave it out (cbi sweep merge --format converts a "
                                   "CSV)");
  po::options_description desc("Options");
  add_sweep_options(desc);
  po::variables_map vm;
  if (!parse_args(
          argc, argv, desc, vm,
          "usage: cbi sweep [--grid NAME] [axis overrides] [--backend sim|gpu|sim,gpu] "
          "[--output F.csv]\n       cbi sweep merge --output ALL.csv SHARD.csv...\n\n"
          "Runs every point of a grid (the Cartesian product of its axes: kernel, size, "
          "stencil, depth,\ntype, block, order, cache, remap-math, block-order) and streams one "
          "CSV row per\npoint, flushed as it is measured, so an interrupted sweep keeps its rows "
          "and --resume continues it.\nEach row carries a stable point_id (a hash of its axis "
          "values).\n"
          "The sim backend replays the accesses through the cache (block\ndoes not apply; "
          "equal simulations are shared); the gpu backend times the kernels (exit 3\n"
          "without a device). With --model gpu the sim backend is the GPU model (block and "
          "--device count)\nand fills the ncu-named NAME_pred columns; --backend sim+gpu "
          "puts them beside the hardware's\nNAME_meas (with --metrics) and gpu_time_ms "
          "beside predicted_ms in one row.\nSee docs/sweeps.md for sharding over Slurm or "
          "GNU parallel.",
          "  cbi sweep --list\n"
          "  cbi sweep --grid fig5.1a --backend gpu --output fig5.1a.csv --json fig5.1a.json  # "
          "GPU\n"
          "  cbi sweep --grid fig5.1b --size 512 --cache l1-64k --output mm512.csv   # sim, "
          "minutes\n"
          "  cbi sweep --order linear,column:32,column:64 --size 1024,2048 --block 128,256 "
          "--backend gpu  # GPU\n"
          "  cbi sweep --grid fig5.3 --shard 0/4 --output part0.csv     # 1 of 4 slices (1/4..3/4 "
          "too)\n"
          "  cbi sweep merge --output fig5.3.csv part*.csv\n"
          "  cbi sweep --grid fig5.2 --output fig5.2.csv --resume        # continue a run\n"
          "  cbi sweep --model gpu --kernel matmul --size 512 --block 128,256 --order "
          "linear,column:32\n"
          "  cbi sweep --grid fig5.1b --backend sim+gpu --metrics --output pred.csv   # on "
          "a GPU\n"
          "  cbi plot scatter --input pred.csv --x l1tex__t_sector_hit_rate.pct_meas \\\n"
          "      --y l1tex__t_sector_hit_rate.pct_pred"))
    return 0;

  if (vm["list"].as<bool>()) {
    // --list runs nothing: an option beside it (--grid fig5.1a --list) would be ignored.
    for (const auto &[name, value] : vm)
      if (name != "list" && !value.defaulted())
        throw UsageError("--" + name, "does not go with --list, which prints the built-in grids "
                                      "and cache presets and runs nothing; allowed: --list "
                                      "alone, or leave --list out");
    return print_grid_list();
  }

  sweep::Grid g = grid_from(vm);
  const std::string backend = get(vm, "backend", "sim");
  const sweep::RunOptions opts = run_options_from(vm, g, argc, argv);

  if (vm["dry-run"].as<bool>()) {
    // A dry run writes no file and runs nothing: these would be ignored (-o F.csv was).
    for (const char *name : {"output", "json", "resume", "jobs", "progress"})
      if (vm.count(name) && !vm[name].defaulted())
        throw UsageError("--" + std::string(name),
                         "does not go with --dry-run, which prints the points on stdout, writes "
                         "no file and runs nothing; allowed: leave --" +
                             std::string(name) + " out, or --dry-run out to run the sweep");
    return dry_run(g, opts);
  }
  try {
    const sweep::RunSummary s = sweep::run(g, opts);
    if (s.interrupted) {
      std::cerr << "cbi sweep: interrupted: " << s.skipped + s.measured << " of " << s.points
                << " points saved";
      if (opts.output == "-")
        std::cerr << " (to stdout); to keep them next time, run with --output FILE.csv, and "
                     "continue with --resume\n";
      else
        std::cerr << " in " << opts.output << " (" << s.measured << " this run); continue with:\n  "
                  << opts.meta[0].second << (opts.resume ? "" : " --resume") << "\n";
      return 130;
    }
    std::cerr << "cbi sweep: grid " << g.name << ": " << s.measured
              << (s.measured == 1 ? " point measured, " : " points measured, ") << s.skipped
              << " already in the CSV, " << format_cell_short(s.seconds) << " s"
              << (s.device.empty() ? "" : " on " + s.device) << "\n";
    // The best order of each group, from every row of the CSV (a resumed one too).
    cli::Table all;
    all.columns = sweep::columns();
    all.rows = s.rows;
    if (opts.output != "-" && std::filesystem::is_regular_file(write_target(opts.output)))
      all = sweep::read_csv(opts.output); // a resumed file's earlier rows too
    for (const std::string &line : sweep::best_orders(all))
      std::cerr << "cbi sweep: " << line << "\n";
  } catch (const sweep::GpuUnavailable &e) {
    throw NoDeviceError("--backend " + backend + ": " + e.what());
  }
  return 0;
}

const cli::Registration kRegistration{
    {"sweep", "run a grid of configurations (thesis grids built in) on the simulator and/or GPU",
     cmd_sweep, 40}};

} // namespace cbi::cli
