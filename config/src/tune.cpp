// cbi tune from parsed options to its result table (tune.hpp).
#include "cbi/config/tune.hpp"

#include "cbi/cli/command.hpp"
#include "cbi/cli/progress.hpp"
#include "cbi/config/options.hpp"
#include "cbi/config/point_options.hpp"
#include "cbi/parse.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <thread>
#include <unistd.h>

namespace cbi::config {

void add_tune_options(po::options_description &desc) {
  add_workload_options(desc);
  // clang-format off
  desc.add_options()
    ("device", po::value<std::string>(), device_help().c_str())
    ("block", po::value<std::string>(), block_help().c_str())
    ("order", cli::list_value(), "orders to rank, a comma list or repeated (as in sweep, bench "
                                 "and diagram); default: linear, the thesis's column widths "
                                 "4..2048, tile:16, tile:32x8, zigzag:32, zigzag:64, less those "
                                 "that map as another for the size")
    ("orders", cli::list_value(), "the same as --order (its former spelling here); not both")
    ("search", po::value<std::string>(), "staged: stage one replays every order on "
                                         "--sample-sms sampled SMs, stage two its fastest "
                                         "--finalists and linear (the baseline, which stage one "
                                         "can over-predict) on the full device (or --final-sms); full: "
                                         "every order on the full device (or all sampled with "
                                         "--sample-sms). Default: full where it is estimated to "
                                         "take at most 20 s on the threads it gets (--jobs, else "
                                         "the host's cores) or the orders replay at most 2^32 "
                                         "accesses in all, else staged")
    ("finalists", po::value<std::string>(), "orders stage two replays, default 4; while all of "
                                            "them tie with the fastest, as many again (the tie "
                                            "group goes on)")
    ("final-sms", po::value<std::string>(), "stage two's replays on N sampled SMs (a divisor of "
                                            "the device's, more than stage one's), each standing "
                                            "for SMs/N; 0 (default): the full device. Faster, not "
                                            "validated: on 26 measured H100 groups stage two on "
                                            "33 SMs picked another order than on the full device "
                                            "in 9, measured 2.3% slower at worst and faster in 7 "
                                            "(docs/results/gpu-model-speed.md)")
    ("jobs", po::value<std::string>(), (std::string("host threads in all, as for simulate "
                                       "--model gpu: orders replay side by side, one thread "
                                       "each, and a replay takes several where fewer orders than "
                                       "threads are left; the ranking is the same on any "
                                       "count; ") + cli::kIdleCoresHelp + cli::kJobsCapHelp).c_str())
    ("sample-sms", po::value<std::string>(), "simulate N SMs (a divisor of the device's), each "
                                             "standing for SMs/N: stage one of the staged "
                                             "search (default 12), every order with --search full; 0: the "
                                             "full device, every order replayed in full (the "
                                             "full search), as for simulate --model gpu; N > 0 "
                                             "not for the tiled kernels (ranked on the full "
                                             "device)")
    ("progress", po::bool_switch(), "progress on stderr even when it is not a terminal (on a "
                                    "terminal it is always shown, and off one unasked for long "
                                    "searches, over 2^30 accesses in all: a line per tenth, one a "
                                    "minute at least)");
  // clang-format on
}

namespace {

// The option that names tune's candidate orders: --order, as in sweep, bench and diagram, or its
// former spelling --orders (still taken); both at once are refused, not merged.
std::string orders_option(const po::variables_map &vm) {
  if (vm.count("order") && vm.count("orders"))
    throw UsageError("--orders", "is --order's other spelling, and --order is given too; "
                                 "allowed: one of them (--order LIST)");
  return vm.count("orders") ? "orders" : "order";
}

} // namespace

sim::TuneConfig tune_config(const po::variables_map &vm) {
  // One point (workload, device, block, sampled SMs); each ranked order replaces its order, or
  // for the tiled kernels its block order (--block-order is a list here: the candidates). --jobs
  // is the search's, read below (once: its line on stderr where it exceeds the cores, once).
  po::variables_map one_point = vm;
  const std::string order_option = orders_option(vm);
  one_point.erase("order"); // the candidates, read below
  one_point.erase("orders");
  one_point.erase("block-order");
  one_point.erase("jobs");
  sim::TuneConfig c;
  c.base = gpu_config(point_from(one_point, {Engine::gpu_model, "tune", false}));
  refuse_inapplicable(vm, c.base.workload.kind); // --block-order without tiles
  const bool tiled = sim::workload_traits(c.base.workload.kind).has_block_order;
  if (tiled && vm.count(order_option))
    throw UsageError("--" + order_option,
                     std::string(sim::to_string(c.base.workload.kind)) +
                         "'s threads keep their launch order; allowed: rank its "
                         "block orders with --block-order LIST");
  const std::string search = cli::get(vm, "search", "staged");
  if (search != "staged" && search != "full")
    throw UsageError("--search", "'" + search + "' is not a search; allowed: staged, full");
  for (const char *option : {"finalists", "final-sms"})
    if (vm.count(option) && search != "staged")
      throw UsageError(
          std::string("--") + option,
          "applies to --search staged only; allowed: leave it out, or --search staged");
  // The tiled kernels are ranked on the full device only (sim/src/tune.cpp says why): asking for
  // the staged search there is refused, not ignored.
  if (tiled && (vm.count("search") || vm.count("finalists") || vm.count("final-sms")) &&
      search == "staged")
    throw UsageError(vm.count("search")      ? "--search"
                     : vm.count("finalists") ? "--finalists"
                                             : "--final-sms",
                     std::string(sim::workload_traits(c.base.workload.kind).name) +
                         "'s block orders are ranked on the full device (a sampled SM's CTAs miss "
                         "the L2 data of their neighbours' tiles: "
                         "docs/results/tight/model-vs-tiled.md); allowed: --search full, or leave "
                         "it out");
  c.staged = search == "staged";
  if (vm.count("finalists"))
    c.finalists = parse_positive(vm["finalists"].as<std::string>(), "--finalists", 1000);
  if (vm.count("final-sms"))
    c.final_sms =
        parse_count(vm["final-sms"].as<std::string>(), "--final-sms", 1 << 20, "the full device");
  if (vm.count("sample-sms")) {
    // 0 is the full device, as for simulate --model gpu: every order replayed in full, which is
    // the full search; a staged search asked for besides has no sampled stage to run.
    c.sample_sms =
        parse_count(vm["sample-sms"].as<std::string>(), "--sample-sms", 1 << 20, "all SMs");
    if (c.sample_sms == 0 &&
        (vm.count("search") || vm.count("finalists") || vm.count("final-sms")) && c.staged)
      throw UsageError("--sample-sms", "0 is the full device, and the staged search samples "
                                       "its first stage; allowed: N > 0 with --search staged, "
                                       "or 0 with --search full (or no --search)");
    if (c.sample_sms == 0)
      c.staged = false;
  }
  const std::string option = tiled ? "--block-order" : "--" + order_option;
  // An order given twice is refused, as in every command (it was ranked once, with a note).
  c.orders = remap::parse_orders(
      tiled ? cli::list_from(vm, "block-order", sim::default_block_orders(c.base.workload))
            : cli::list_from(vm, order_option, sim::default_tune_orders()),
      option);
  if (c.orders.empty())
    throw UsageError(option, "no order given; allowed: a comma list such as linear,column:32");
  c.jobs = vm.count("jobs") ? cli::parse_jobs(vm["jobs"].as<std::string>()) : cli::idle_cores();
  // Unasked, a search cheap enough runs in full: the sampled stage is there for speed only, and
  // on short kernels it can rank far from the full device (a 0.05 ms double stencil: linear 43%
  // slow sampled, tied on the full device, and left out of stage two: docs/results/tight/y-set.md).
  // Cheap enough: its estimated wall time on the threads it gets, --jobs or else every core of the
  // host (not the idle ones, so that one command on one host always runs the same search), or its
  // accesses (config::kFullSearchAccesses).
  const int threads = vm.count("jobs")
                          ? c.jobs
                          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (!tiled && c.staged && !vm.count("search") && !vm.count("finalists") &&
      !vm.count("final-sms") && !vm.count("sample-sms") &&
      (sim::full_search_seconds(c, threads) <= kFullSearchSeconds ||
       double(c.base.workload.accesses()) * double(c.orders.size()) <= kFullSearchAccesses))
    c.staged = false;
  return c;
}

bool long_tune(const sim::TuneConfig &c) {
  return cli::long_run(double(c.base.workload.accesses()) * double(c.orders.size()));
}

void TuneWork::report(int64_t done, int64_t total) {
  // The first report (done 0) counts the candidates, and a staged search's finalists beside them.
  if (m_stage_one < 0)
    m_stage_one = m_finalists > 0 && total > m_finalists ? total - m_finalists : total;
  // Stage one's orders all finish before stage two's start.
  for (; m_last < done; ++m_last)
    m_done += m_share[m_last < m_stage_one ? 0 : 1];
  const int64_t one = std::min(m_stage_one, total);
  m_total = double(one) * m_share[0] + double(total - one) * m_share[1];
}

cli::Table tune_result(const po::variables_map &vm, const sim::Progress &interrupt) {
  const sim::TuneConfig c = tune_config(vm);
  // Off a terminal (a log, a batch job) a long search showed nothing for minutes.
  const bool show =
      isatty(2) || (vm.count("progress") && vm["progress"].as<bool>()) || long_tune(c);
  // Staged as sim::tune stages it (but for the candidates' count, which its first report gives).
  const int64_t sms = c.base.device.sms, staged = sim::staged_sample(c);
  const int64_t first = staged > 0 ? staged : c.sample_sms; // stage one's, or every order's sample
  TuneWork work(first > 0 ? double(first) / double(sms) : 1.0,
                c.final_sms > 0 ? double(c.final_sms) / double(sms) : 1.0,
                staged > 0 ? c.finalists : 0);
  std::unique_ptr<cli::ProgressBar> bar;
  const sim::TuneProgress progress = [&](int64_t done, int64_t total, const std::string &stage,
                                         const std::string &order) {
    work.report(done, total);
    if (!bar) // the total is known once the candidates are: done 0
      bar = std::make_unique<cli::ProgressBar>(total, show, work.total(), "orders");
    bar->set_total(total, work.total()); // a tie group's growth adds orders to stage two
    bar->update(done, stage + " " + order, work.done());
  };
  return tune_table(c, sim::tune(c, progress, interrupt));
}

cli::Table tune_table(const sim::TuneConfig &c, const sim::TuneResult &t) {
  cli::Table table;
  const sim::GpuConfig &base = c.base;
  // The tiled kernels' description names their block order, which tune ranks rather than fixes.
  std::string what = base.workload.describe();
  if (t.tiled) {
    const std::size_t at = what.rfind(", blocks ");
    if (at != std::string::npos)
      what = what.substr(0, at);
  }
  table.title = "cbi tune: " + what + ", block " + std::to_string(base.block_threads) + " on " +
                base.device.name + (t.tiled ? ", block orders ranked" : "");
  // Three of the Nsight-named counts (the L1 hit rate, L2->L1 and DRAM traffic), enough to see why
  // an order wins and narrow enough for a terminal; cbi simulate --model gpu prints all eight.
  // JSON: {"ranking": [{"rank", "order", "predicted_ms", "tie_group", "margin_pct", "bound",
  // "why", "replay", "metrics": {...}}, ...]}.
  const std::vector<std::string> shown = {"l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct",
                                          "lts__t_sectors_srcunit_tex_op_read.sum",
                                          "dram__bytes_read.sum"};
  table.columns = {"rank",         t.tiled ? "block_order" : "order",
                   "predicted_ms", "tie_group",
                   "margin_pct",   "bound",
                   "why",          "replay"};
  table.columns.insert(table.columns.end(), shown.begin(), shown.end());
  table.json_rows = "ranking";
  table.json_groups = {{"metrics", shown}};
  cli::Names tied;
  const double best_ms = t.results[t.rows[0].index].time.predicted_ms;
  for (std::size_t k = 0; k < t.rows.size(); ++k) {
    const sim::Ranked &x = t.rows[k];
    const sim::GpuResult &r = t.results[x.index];
    const int64_t sampled = t.configs[x.index].sample_sms;
    if (x.tie_group == 1)
      tied.push_back(t.order_of(x.index));
    std::vector<cli::Cell> row = {
        static_cast<int64_t>(k + 1),
        t.order_of(x.index),
        r.time.predicted_ms,
        x.tie_group > 0 ? cli::Cell(int64_t{x.tie_group}) : cli::Cell(std::string()),
        100.0 * (r.time.predicted_ms - best_ms) / std::max(best_ms, 1e-300),
        r.time.bound,
        x.why,
        sampled > 0 ? "sampled " + std::to_string(sampled) + " SMs" : std::string("full")};
    for (auto &[name, value] : gpu_metric_fields(r.metrics))
      if (std::find(shown.begin(), shown.end(), name) != shown.end())
        row.push_back(std::move(value));
    table.add_row(std::move(row));
  }
  table.config = gpu_workload_fields(base.workload);
  table.config.erase(std::remove_if(table.config.begin(), table.config.end(),
                                    [](const auto &f) { return f.first == "block_order"; }),
                     table.config.end()); // ranked, not fixed
  table.table_omits = workload_fields_not_applying(base.workload);
  table.config.push_back({"device", base.device.name});
  table.config.push_back({"block", int64_t{base.block_threads}});
  table.config.push_back({"search", t.staged ? std::string("staged") : std::string("full")});
  // Where each row's prediction came from: stage two's sample (its rows' replay cell) besides the
  // replay column's "sampled N SMs" of stage one.
  if (t.staged)
    table.config.push_back({"stage_two", t.final_sms > 0
                                             ? "sampled " + std::to_string(t.final_sms) + " SMs"
                                             : std::string("full")});
  table.meta = {{"device_description", base.device.description},
                {"winner", t.order_of(t.rows[0].index)},
                {"tie_tolerance_pct", 100.0 * (std::exp(t.ln_error) - 1.0)},
                {"jobs", int64_t{c.jobs}}};
  if (t.staged) // linear replayed in stage two though stage one left it out (sim::tune)
    table.meta.push_back({"baseline_replayed", t.baseline_replayed});
  // A list of order names in JSON (["linear", "column:8"]), joined by commas in the other formats.
  if (tied.size() > 1)
    table.meta.push_back({"indistinguishable_by_the_model", tied});
  // The runner-up is the fastest order the model can tell from the winner: the first of tie
  // group 2 (orders of group 1 are ties, not runners-up; sampled-only rows have no group).
  const auto next = std::find_if(t.rows.begin(), t.rows.end(),
                                 [](const sim::Ranked &x) { return x.tie_group > 1; });
  if (next != t.rows.end()) {
    table.meta.push_back({"runner_up", t.order_of(next->index)});
    table.meta.push_back({"margin_pct", next->margin_pct});
  }
  table.notes = {"predicted by the GPU model (docs/gpu-model.md); its validation on the H100 and "
                 "H200: docs/results/tight/README.md"};
  if (t.baseline_replayed)
    table.notes.push_back("linear, not among stage one's fastest, was replayed in stage two as "
                          "the baseline (stage one over-predicts it where neighbouring CTAs share "
                          "rows in L2)");
  if (tied.size() > 1)
    table.notes.push_back(std::to_string(tied.size()) +
                          " orders are indistinguishable by the model (tie group 1, within its "
                          "validated time error of the fastest): " +
                          cli::format_cell_short(tied));
  for (const std::string &o : t.repeated)
    table.notes.push_back(o + " was given more than once: ranked once");
  for (const auto &[order, as] : t.dropped)
    table.notes.push_back(remap::to_string(order) + " maps as " + remap::to_string(as) +
                          " for this size: not simulated");
  return table;
}

} // namespace cbi::config
