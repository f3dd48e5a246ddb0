// cbi simulate and cbi mrc from parsed options to their result tables (run.hpp).
#include "cbi/config/run.hpp"

#include "cbi/cli/command.hpp"
#include "cbi/cli/progress.hpp"
#include "cbi/config/options.hpp"
#include "cbi/config/point_options.hpp"
#include "cbi/config/presets.hpp"
#include "cbi/parse.hpp"
#include "cbi/sim/model.hpp"
#include "cbi/sim/mrc.hpp"
#include "cbi/sim/tune.hpp"

#include <algorithm>
#include <filesystem>
#include <thread>
#include <unistd.h>

namespace cbi::config {

namespace {

// Progress shown to the user and the caller's interrupt check, both called.
sim::Progress both(const sim::Progress &shown, const sim::Progress &interrupt) {
  if (!shown || !interrupt)
    return shown ? shown : interrupt;
  return [shown, interrupt](int64_t done, int64_t total) {
    interrupt(done, total);
    shown(done, total);
  };
}

// --trace's checking pass reads the whole file before the replay: the caller's interrupt, and
// progress (thread blocks checked) when asked, or unasked for a file over 1 GiB (about 2^30 lane
// accesses, the replays' long_run).
sim::Progress trace_check(const po::variables_map &vm, const sim::Progress &interrupt) {
  if (!vm.count("trace"))
    return interrupt;
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(vm["trace"].as<std::string>(), ec);
  const bool shown =
      (vm.count("progress") && vm["progress"].as<bool>()) || (!ec && bytes > (uintmax_t{1} << 30));
  return both(shown ? cli::thread_counter("thread blocks checked") : sim::Progress(), interrupt);
}

// A note where `order` visits the tasks as linear does (column:1000 on a 16-wide grid): its counts
// are linear's, and nothing said so (cbi tune notes it and drops the order).
void note_if_linear(cli::Table &t, const remap::Order &order, const sim::Workload &w) {
  if (order.kind == remap::OrderKind::linear || w.user ||
      sim::workload_traits(w.kind).has_block_order)
    return;
  std::vector<std::pair<remap::Order, remap::Order>> dropped;
  sim::distinct_orders({remap::parse_order("linear"), order}, w, &dropped);
  if (!dropped.empty())
    t.notes.push_back(remap::to_string(order) +
                      " visits the tasks in linear's order at this --size: its counts are "
                      "linear's");
}

// What makes a long replay shorter: a trace or a workload of your own fixes its size.
std::string shorter_run(const sim::Workload &w) {
  return w.user ? "a shorter trace (or workload)" : "a smaller --size";
}

} // namespace

void add_simulate_options(po::options_description &desc) {
  add_workload_options(desc);
  add_order_options(desc);
  // clang-format off
  desc.add_options()
    ("progress", po::bool_switch(), "print progress to stderr (on by default for long runs, over "
                                    "2^30 accesses: a line per tenth, and one a minute at least, "
                                    "when not a terminal)")
    ("model", po::value<std::string>(), "sequential (one cache hierarchy, default) | gpu (SMs, "
                                        "warps, coalescing, per-SM L1, shared L2; docs/gpu-model.md)")
    ("device", po::value<std::string>(), ("--model gpu: " + device_help()).c_str())
    ("block", po::value<std::string>(), ("--model gpu: " + block_help()).c_str())
    ("sample-sms", po::value<std::string>(), "--model gpu: simulate N SMs (a divisor of the "
                                             "device's), each standing for SMs/N; 0 or left out: all, the "
                                             "full device (as for cbi tune); N > 0 not for the "
                                             "tiled kernels (their block orders need every SM)")
    ("jobs", po::value<std::string>(), (std::string("--model gpu: host threads in all, for the "
                                       "one replay: the SMs of each 32-cycle window run in "
                                       "parallel, and the prediction is the same on any count; ") +
                                       cli::kIdleCoresHelp + cli::kJobsCapHelp).c_str())
    ("classify-misses", po::bool_switch(), "also sort every level's misses into compulsory, "
                                           "capacity and conflict (3C; slower, off by default)");
  // clang-format on
  add_cache_options(desc);
  add_trace_option(desc);
}

cli::Table simulation_table(const sim::SimConfig &c, const sim::SimResult &r) {
  cli::Table t;
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
               accesses_column(c.granularity),
               "hits",
               "misses",
               "fetches",
               "evictions",
               "bytes_fetched",
               hit_pct_column(c.granularity),
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
    std::vector<cli::Cell> row = {"L" + std::to_string(k + 1),
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
  // Set conflicts dominate where one window's lines crowd a set beyond its ways: say so, as
  // cbi analyze does (no order helps there; --classify-misses counts them). A trace has no window.
  for (std::size_t k = 0; k < c.levels.size() && !c.workload.user; ++k) {
    const std::string conflicts = sim::set_conflict_warning(c, static_cast<int>(k));
    if (!conflicts.empty())
      t.notes.push_back("L" + std::to_string(k + 1) + " " + conflicts +
                        ": expect conflict misses whatever the order (--classify-misses counts "
                        "them; cbi analyze explains)");
  }
  if (classified)
    t.notes.push_back("misses_compulsory: first access to the unit; misses_capacity: a fully "
                      "associative LRU cache of the same capacity misses too; misses_conflict: the "
                      "rest. In count_unit");
  if (c.workload.user) // a trace: what was replayed, skipped and not modelled
    for (const std::string &note : c.workload.user->notes())
      t.notes.push_back(note);
  t.config = sim_config_fields(c);
  t.table_omits = workload_fields_not_applying(c.workload);
  t.meta = {{"threads", int64_t{r.threads}},
            {"seconds", r.seconds},
            {"accesses_per_second", r.seconds > 0 ? double(r.accesses) / r.seconds : 0.0}};
  return t;
}

// --model gpu: one row of Nsight-named counts and the predicted time (docs/gpu-model.md).
cli::Table gpu_table(const sim::GpuConfig &c, const sim::GpuResult &r) {
  cli::Table t;
  t.title = "cbi simulate --model gpu: " + c.workload.describe() + ", order " +
            remap::to_string(c.order) + ", block " + std::to_string(c.block_threads) + " on " +
            c.device.name;
  std::vector<cli::Cell> row;
  // JSON: {"metrics": {Nsight name: number}, "predicted_ms": ..., ...}, one document, no list.
  t.json_groups = {{"metrics", {}}};
  t.json_single_row = true;
  for (auto &[name, value] : gpu_metric_fields(r.metrics)) {
    t.columns.push_back(name);
    t.json_groups.front().columns.push_back(name);
    row.push_back(std::move(value));
  }
  const std::pair<const char *, double> times[] = {
      {"predicted_ms", r.time.predicted_ms},
      {"replay_ms", r.time.simulated_ms},
      {"l1_bound_ms", r.time.l1_ms},
      {"l2_bound_ms", r.time.l2_ms},
      {"dram_bound_ms", r.time.dram_ms},
      {"arithmetic_bound_ms", r.time.arithmetic_ms},
      {"stream_issue_bound_ms", r.time.stream_issue_ms},
      {"launcher_bound_ms", r.time.launcher_ms}};
  for (const auto &[name, value] : times) {
    t.columns.push_back(name);
    row.emplace_back(value);
  }
  t.columns.push_back("bound");
  row.emplace_back(r.time.bound);
  t.add_row(std::move(row));
  t.config = gpu_workload_fields(c.workload);
  t.table_omits = workload_fields_not_applying(c.workload);
  t.config.push_back({"order", remap::to_string(c.order)});
  t.config.push_back({"device", c.device.name});
  t.config.push_back({"block", int64_t{c.block_threads}});
  t.meta = {{"device_description", c.device.description},
            {"ctas", int64_t{r.ctas}},
            {"ctas_per_sm", int64_t{r.ctas_per_sm}},
            {"simulated_sms", int64_t{r.simulated_sms}},
            {"cycles", int64_t{r.cycles}},
            {"l1_pending_hits", int64_t{r.metrics.l1_pending_hits}},
            {"jobs", int64_t{r.jobs}},
            {"seconds", r.seconds}};
  t.notes = {"counts named as Nsight Compute names them; a model, not a measurement "
             "(docs/gpu-model.md says what it leaves out)"};
  if (c.workload.user) // a trace: what was replayed, skipped and not modelled
    for (const std::string &note : c.workload.user->notes())
      t.notes.push_back(note);
  return t;
}

cli::Table simulate_result(const po::variables_map &vm, const sim::Progress &interrupt,
                           const OwnWorkload &own) {
  // The options become one point (options that do not apply to the model are refused); the
  // simulator takes its configuration from the point alone.
  const Engine engine = parse_model(vm);
  const Point point = point_from(
      vm, {engine, "simulate", true, sim::Granularity::exact, trace_check(vm, interrupt)}, own);
  const bool asked = vm.count("progress") && vm["progress"].as<bool>();
  // Progress when asked, and unasked for a long replay (lines when stderr is not a terminal).
  auto show_progress = [&](const sim::Workload &w) {
    return asked || cli::long_run(double(w.accesses()));
  };
  if (engine == Engine::gpu_model) {
    sim::GpuConfig g = gpu_config(point);
    if (!point.jobs)
      g.jobs = cli::idle_cores();
    cli::check_memory(sim::gpu_state_bytes(g), "the GPU model's state (L1s, L2, resident warps)",
                      "--device", "a device row with smaller caches, or --sample-sms N");
    // The GPU model replays its sampled SMs' share (--sample-sms), at 30 to 300 million accesses
    // a second (matmul 1024: 2.1 G in 8 s, the stencil at 4096: 0.8 G in 8.3 s, two cores shared).
    cli::announce_long_run("cbi simulate",
                           double(g.workload.accesses()) *
                               (g.sample_sms > 0 ? double(g.sample_sms) / g.device.sms : 1.0),
                           shorter_run(g.workload), 3e7, 3e8);
    // --progress: the threads of the CTAs done so far, with the elapsed time and an ETA.
    const sim::Progress shown = show_progress(g.workload) ? cli::thread_counter() : sim::Progress();
    cli::Table t = gpu_table(g, sim::simulate_gpu(g, both(shown, interrupt)));
    note_if_linear(t, g.order, g.workload);
    return t;
  }
  const sim::SimConfig c = *sim_config(point);
  cli::announce_long_run("cbi simulate", double(c.workload.accesses()), shorter_run(c.workload));
  const bool progress = show_progress(c.workload);
  const sim::Progress shown = progress ? cli::thread_counter() : sim::Progress();
  cli::Table t = simulation_table(c, sim::simulate(c, both(shown, interrupt)));
  note_if_linear(t, c.order, c.workload);
  return t;
}

void add_mrc_options(po::options_description &desc) {
  add_workload_options(desc);
  add_order_options(desc);
  desc.add_options()("line-bytes", po::value<std::string>(),
                     "cache line size in bytes, a multiple of the element size (not only powers "
                     "of two); default 4 elements")(
      "sizes", cli::list_value(),
      "capacities in lines to report, a comma list or repeated (each once, ascending); default "
      "every power of two up to the distinct lines touched")(
      "verify", po::bool_switch(), "also simulate each size separately and report both counts")(
      "progress", po::bool_switch(),
      "print progress to stderr (on by default for long runs, over 2^30 accesses: a line per "
      "tenth when not a terminal)");
  add_trace_option(desc);
}

cli::Table mrc_result(const po::variables_map &vm, const sim::Progress &interrupt,
                      const OwnWorkload &own) {
  sim::SimConfig c = *sim_config(point_from(
      vm, {Engine::sequential, "mrc", true, sim::Granularity::exact, trace_check(vm, interrupt)},
      own));
  std::vector<int64_t> sizes;
  for (const std::string &item : cli::list_from(vm, "sizes"))
    try {
      sizes.push_back(parse_positive(item, "--sizes", 1LL << 31));
    } catch (const UsageError &e) { // --sizes 32KiB: capacities are lines, not bytes
      throw UsageError("--sizes",
                       std::string(e.what()) + " (capacities in lines, e.g. 64,256,1024)");
    }
  // A curve runs by size, ascending: --sizes 8,2,4 is 2,4,8. A size given twice is refused, as a
  // value given twice is in every list (it was merged without a word).
  std::vector<std::string> canonical;
  for (const int64_t size : sizes)
    canonical.push_back(std::to_string(size));
  refuse_repeats(cli::list_from(vm, "sizes"), canonical, "--sizes");
  std::sort(sizes.begin(), sizes.end());
  // sim's one pass keeps a slot per line of the addresses' span, or, where the span holds far more
  // lines than the accesses touch (a trace of buffers far apart), one per line touched.
  const bool fixed = c.workload.user != nullptr, sparse = sim::mrc_sparse(c);
  cli::check_memory(
      sim::mrc_state_bytes(c),
      "the curve of " + c.workload.describe() + " in " + std::to_string(c.levels[0].line_bytes) +
          " B lines" +
          (sparse ? " (a slot per line it touches, " +
                        std::to_string(sim::mrc_lines_per_access(c)) + " per access at most)"
           : fixed ? " (a slot per line of the " + std::to_string(c.workload.footprint_bytes()) +
                         " bytes its addresses span)"
                   : ""),
      fixed ? "--line-bytes" : "--size",
      fixed ? "a larger --line-bytes, or cbi simulate (which keeps only the "
              "cache's lines)"
            : "a smaller --size or a larger --line-bytes");
  // Progress as simulate shows it: when asked, and unasked for a long pass.
  // One pass keeps every distinct line's reuse distance: 10 to 100 million accesses a second.
  cli::announce_long_run("cbi mrc", double(c.workload.accesses()), shorter_run(c.workload), 1e7,
                         1e8);
  const bool progress = (vm.count("progress") && vm["progress"].as<bool>()) ||
                        cli::long_run(double(c.workload.accesses()));
  const sim::MissRatioCurve curve =
      sim::miss_ratio_curve(c, both(progress ? cli::thread_counter() : sim::Progress(), interrupt));
  if (sizes.empty()) {
    for (int64_t s = 1; s < 2 * std::max<int64_t>(1, curve.distinct_units()); s *= 2)
      sizes.push_back(s);
  }
  const bool verify = vm["verify"].as<bool>();
  cli::Table t;
  t.title = "cbi mrc: " + c.workload.describe() + ", order " + remap::to_string(c.order) + ", " +
            std::to_string(curve.unit_bytes) + " B lines, fully associative LRU";
  // Thread granularity: misses over each thread's distinct lines, not over accesses (as ncu).
  const bool thread = c.granularity == sim::Granularity::thread;
  t.columns = {"capacity_lines", "capacity_bytes", "misses",
               thread ? "thread_line_miss_pct" : "miss_pct"};
  if (verify)
    t.columns.insert(t.columns.end(), {"simulated_misses", "agrees"});
  for (int64_t lines : sizes) {
    const int64_t misses = curve.misses(lines);
    std::vector<cli::Cell> row{lines, lines * curve.unit_bytes, misses,
                               curve.accesses ? 100.0 * double(misses) / double(curve.accesses)
                                              : 0.0};
    if (verify) {
      sim::SimConfig one = c;
      one.levels = {sim::CacheConfig{curve.unit_bytes, lines, 0, sim::Policy::lru}};
      const int64_t simulated = sim::simulate(one, interrupt).levels[0].misses;
      row.push_back(simulated);
      row.push_back(simulated == misses);
    }
    t.add_row(row);
  }
  t.config = workload_fields(c.workload);
  t.table_omits = workload_fields_not_applying(c.workload);
  t.config.push_back({"order", remap::to_string(c.order)});
  t.config.push_back(
      {"granularity", std::string(c.granularity == sim::Granularity::exact ? "exact" : "thread")});
  t.config.push_back({"line_bytes", int64_t{curve.unit_bytes}});
  t.meta = {{thread ? "thread_lines" : "accesses", int64_t{curve.accesses}},
            {"distinct_lines", int64_t{curve.distinct_units()}}};
  if (c.workload.user) // a trace: what was replayed, skipped and not modelled
    t.notes = c.workload.user->notes();
  return t;
}

} // namespace cbi::config
