// cbi simulate: one workload, one order, one cache hierarchy -> exact per-level counts.
#include "cbi/cli/command.hpp"
#include "cbi/cli/options.hpp"
#include "cbi/cli/progress.hpp"
#include "cbi/config/presets.hpp"
#include "cbi/sim/gpu_model.hpp"

#include "cbi/config/point_options.hpp"

#include <iostream>
#include <thread>

#include <unistd.h>

namespace cbi::cli {

Table simulation_table(const sim::SimConfig &c, const sim::SimResult &r) {
  Table t;
  t.title = "cbi simulate: " + c.workload.describe() + ", order " + remap::to_string(c.order);
  // count_unit: a sectored level counts its accesses, hits and misses in sectors, others in lines.
  // Thread granularity counts each thread's distinct lines once: its columns say so
  // (thread_lines, thread_line_hit_pct), so that they are never read as ncu's per-access rates.
  // Loads and stores apart follow (CacheStats; in thread granularity they count thread-lines too),
  // then the 3C classes with --classify-misses.
  const bool thread = c.granularity == sim::Granularity::thread;
  t.columns = {"level",
               "cache",
               "count_unit",
               config::accesses_column(c.granularity),
               "hits",
               "misses",
               "fetches",
               "evictions",
               "bytes_fetched",
               config::hit_pct_column(c.granularity),
               thread ? "load_thread_lines" : "loads",
               "load_bytes",
               "load_hits",
               "load_misses",
               thread ? "store_thread_lines" : "stores",
               "store_bytes",
               "store_hits",
               "store_misses"};
  const bool classified = c.classify_misses;
  if (classified)
    for (const char *name : {"misses_compulsory", "misses_capacity", "misses_conflict"})
      t.columns.push_back(name);
  for (std::size_t k = 0; k < r.levels.size(); ++k) {
    const sim::CacheStats &s = r.levels[k];
    std::vector<Cell> row = {"L" + std::to_string(k + 1),
                             c.levels[k].describe(),
                             std::string(c.levels[k].sector_bytes ? "sector" : "line"),
                             s.accesses,
                             s.hits,
                             s.misses,
                             s.fetches,
                             s.evictions,
                             s.bytes_fetched,
                             100.0 * s.hit_rate(),
                             s.loads,
                             s.load_bytes,
                             s.load_hits(),
                             s.load_misses,
                             s.stores,
                             s.store_bytes,
                             s.store_hits(),
                             s.store_misses};
    if (classified)
      for (int64_t v : {s.misses_compulsory, s.misses_capacity, s.misses_conflict})
        row.emplace_back(v);
    t.add_row(std::move(row));
  }
  if (c.workload.writes)
    t.notes.push_back("stores: write-allocate, fetch-on-write, no write-back traffic; below L1 an "
                      "access counts as a store when a store's L1 miss caused it");
  if (classified)
    t.notes.push_back("misses_compulsory: first access to the unit; misses_capacity: a fully "
                      "associative LRU cache of the same capacity misses too; misses_conflict: the "
                      "rest. In count_unit");
  if (c.workload.user) // a trace: what was replayed, skipped and not modelled
    for (const std::string &note : c.workload.user->notes())
      t.notes.push_back(note);
  t.config = config::sim_config_fields(c);
  t.meta = {{"threads", int64_t{r.threads}},
            {"seconds", r.seconds},
            {"accesses_per_second", r.seconds > 0 ? double(r.accesses) / r.seconds : 0.0}};
  return t;
}

// --model gpu: one row of Nsight-named counts and the predicted time (docs/gpu-model.md).
Table gpu_table(const sim::GpuConfig &c, const sim::GpuResult &r) {
  Table t;
  t.title = "cbi simulate --model gpu: " + c.workload.describe() + ", order " +
            remap::to_string(c.order) + ", block " + std::to_string(c.block_threads) + " on " +
            c.device.name;
  std::vector<Cell> row;
  // JSON: {"metrics": {Nsight name: number}, "predicted_ms": ..., ...}, one document, no list.
  t.json_groups = {{"metrics", {}}};
  t.json_single_row = true;
  for (auto &[name, value] : config::gpu_metric_fields(r.metrics)) {
    t.columns.push_back(name);
    t.json_groups.front().columns.push_back(name);
    row.push_back(std::move(value));
  }
  const std::pair<const char *, double> times[] = {
      {"predicted_ms", r.time.predicted_ms}, {"replay_ms", r.time.simulated_ms},
      {"l1_bound_ms", r.time.l1_ms},         {"l2_bound_ms", r.time.l2_ms},
      {"dram_bound_ms", r.time.dram_ms},     {"arithmetic_bound_ms", r.time.arithmetic_ms}};
  for (const auto &[name, value] : times) {
    t.columns.push_back(name);
    row.emplace_back(value);
  }
  t.columns.push_back("bound");
  row.emplace_back(r.time.bound);
  t.add_row(std::move(row));
  t.config = config::workload_fields(c.workload);
  t.config.push_back({"order", remap::to_string(c.order)});
  t.config.push_back({"device", c.device.name});
  t.config.push_back({"block", int64_t{c.block_threads}});
  t.meta = {{"device", c.device.description},
            {"ctas", int64_t{r.ctas}},
            {"ctas_per_sm", int64_t{r.ctas_per_sm}},
            {"simulated_sms", int64_t{r.simulated_sms}},
            {"cycles", int64_t{r.cycles}},
            {"l1_pending_hits", int64_t{r.metrics.l1_pending_hits}},
            {"seconds", r.seconds}};
  t.notes = {"counts named as Nsight Compute names them; a model, not a measurement "
             "(docs/gpu-model.md says what it leaves out)"};
  if (c.workload.user) // a trace: what was replayed, skipped and not modelled
    for (const std::string &note : c.workload.user->notes())
      t.notes.push_back(note);
  return t;
}

int cmd_simulate(int argc, char **argv) {
  po::options_description desc("Options");
  config::add_workload_options(desc);
  config::add_order_options(desc);
  // clang-format off
  desc.add_options()
    ("progress", po::bool_switch(), "print progress to stderr (on by default for long runs on a "
                                    "terminal)")
    ("model", po::value<std::string>(), "sequential (one cache hierarchy, default) | gpu (SMs, "
                                        "warps, coalescing, per-SM L1, shared L2; docs/gpu-model.md)")
    ("device", po::value<std::string>(), ("--model gpu: " + config::device_help()).c_str())
    ("block", po::value<std::string>(), ("--model gpu: " + config::block_help()).c_str())
    ("sample-sms", po::value<std::string>(), "--model gpu: simulate N SMs (a divisor of the "
                                             "device's), each standing for SMs/N; default all")
    ("jobs", po::value<std::string>(), "--model gpu: host threads for the replay (default: all "
                                       "cores); the prediction is the same on any count")
    ("classify-misses", po::bool_switch(), "also sort every level's misses into compulsory, "
                                           "capacity and conflict (3C; slower, off by default)");
  // clang-format on
  config::add_cache_options(desc);
  config::add_trace_option(desc);
  add_output_options(desc);
  po::variables_map vm;
  // --preset NAME expands to the preset's options (cbi/config/presets.hpp).
  if (!config::parse_preset_args(
          argc, argv, desc, vm,
          "usage: cbi simulate [--preset NAME] [options]\n\n"
          "Replays every memory access of a stencil (listing 3) or matmul (listing 4) kernel "
          "in the order a\nthread order visits the tasks, through an exact cache model, and "
          "prints per-level counts.\nDefaults are the preset table3.1-clamp-exact: Table "
          "3.1's 16x16 input, 7x7 stencil, 24 lines of\n4 elements, fully associative "
          "LRU, with listing 3's clamped edges and every access counted\n(hit rates per "
          "access, as ncu). The thesis's diagrams count each thread's distinct lines\n"
          "once and drop the boundary: --preset table3.1 (hit rates per thread-line).\n\n" +
              config::applicability_help(desc, "simulate"),
          "  cbi simulate                                   # table3.1-clamp-exact, linear\n"
          "  cbi simulate --order column:8                  # 316 -> 96 misses\n"
          "  cbi simulate --preset table3.1 --order column:4 # the thesis's figure 4.4\n"
          "  cbi simulate --size 1024x1024 --stencil 9x9 --line-bytes 128 --cache-bytes 32KiB "
          "--ways 8\n"
          "  cbi simulate --size 1024 --stencil 9x9 --level size=32KiB,line=128,ways=8 \\\n"
          "               --level size=4MiB,line=128,ways=16 --format json\n"
          "  cbi simulate --workload matmul --size 256 --order column:32 --line-bytes 128 "
          "--cache-bytes 128KiB --sector-bytes 32\n"
          "  cbi simulate --size 256 --stencil 9x9 --line-bytes 128 --cache-bytes 32KiB "
          "--ways 4 --writes --classify-misses\n"
          "  cbi simulate --model gpu --device h100 --block 256 --workload matmul --size 1024 "
          "--order column:32\n"
          "  cbi simulate --trace kernel-1.traceg --model gpu      # an Accel-Sim trace\n"
          "  cbi simulate --trace s.trace --line-bytes 128 --cache-bytes 32KiB --ways 8  # cbi "
          "trace"))
    return 0;
  // The options become one point (options that do not apply to the model are refused); the
  // simulator takes its configuration from the point alone.
  const config::Engine engine = config::parse_model(vm);
  const config::Point point = config::point_from(vm, {engine, "simulate"});
  if (engine == config::Engine::gpu_model) {
    sim::GpuConfig g = config::gpu_config(point);
    if (!point.jobs)
      g.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    check_memory(sim::gpu_state_bytes(g), "the GPU model's state (L1s, L2, resident warps)",
                 "--device", "a device row with smaller caches, or --sample-sms N");
    // --progress: the threads of the CTAs done so far, with the elapsed time and an ETA.
    const bool gpu_progress = vm.count("progress") && vm["progress"].as<bool>();
    ProgressBar bar(g.workload.tasks(), gpu_progress, 0, "threads");
    const sim::GpuResult r = sim::simulate_gpu(
        g, gpu_progress ? sim::Progress([&](int64_t done, int64_t) { bar.update(done, ""); })
                        : sim::Progress());
    emit(vm, gpu_table(g, r));
    return 0;
  }
  const sim::SimConfig c = *config::sim_config(point);
  const bool progress = (vm.count("progress") && vm["progress"].as<bool>()) ||
                        (isatty(2) && c.workload.accesses() > (int64_t{1} << 30));
  const sim::SimResult r = sim::simulate(c, progress ? thread_counter() : sim::Progress());
  emit(vm, simulation_table(c, r));
  return 0;
}

const cli::Registration kRegistration{
    {"simulate", "replay a kernel's accesses through a cache hierarchy; count hits and misses",
     cmd_simulate, 10}};

} // namespace cbi::cli
