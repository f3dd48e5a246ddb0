// cbi tune: ranks thread orders by the GPU model's predicted time on one device, workload and block
// (issue 10 §3, issue 18 §3): distinct candidates, a staged search, progress on stderr, and tie
// groups from the model's validated time error, each row with the bound that sets its time.
#include "cbi/cli/command.hpp"
#include "cbi/cli/progress.hpp"
#include "cbi/config/options.hpp"
#include "cbi/config/point_options.hpp"
#include "cbi/parse.hpp"
#include "cbi/sim/gpu_model.hpp"
#include "cbi/sim/tune.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>
#include <thread>
#include <unistd.h>

namespace cbi::cli {

namespace {

// The thesis's column widths (Fig 5.1) plus tiles and zigzags; those that map as another for the
// size (column:1024 at width 1024 is linear) are dropped (sim::distinct_orders).
const char *kDefaultOrders =
    "linear,column:4,column:8,column:16,column:30,column:31,column:32,column:33,column:34,"
    "column:48,column:64,column:96,column:128,column:256,column:512,column:1024,column:2048,"
    "tile:16,tile:32x8,zigzag:32,zigzag:64";

// Stage one's sampled SMs: 12 (docs/results/gpu-model-speed.md measures its error), or the
// largest divisor of the device's SMs below it.
int64_t stage_one_sample(const sim::Device &d) {
  for (int64_t n = std::min<int64_t>(12, d.sms); n > 1; --n)
    if (d.sms % n == 0)
      return n;
  return 0;
}

// The ranked order of a config: its thread order, or for the tiled kernels its block order.
std::string ranked_order(const sim::GpuConfig &c) {
  return remap::to_string(
      sim::workload_traits(c.workload.kind).has_block_order ? c.workload.block_order : c.order);
}

// Runs every config on `jobs` threads, reporting each finished one on `bar`: configs side by side,
// and where there are fewer configs than threads, each replay on several (GpuConfig::jobs; the
// same prediction on any count).
void run_all(std::vector<sim::GpuConfig> &configs, std::vector<sim::GpuResult> &results,
             const std::vector<std::size_t> &which, unsigned jobs, ProgressBar &bar, int64_t &done,
             const char *stage) {
  for (std::size_t c : which)
    configs[c].jobs =
        static_cast<int>(std::max<std::size_t>(1, jobs / std::max<std::size_t>(1, which.size())));
  std::atomic<std::size_t> next{0};
  std::mutex mutex;
  std::vector<std::thread> pool;
  for (unsigned k = 0; k < std::min<std::size_t>(jobs, which.size()); ++k)
    pool.emplace_back([&] {
      for (std::size_t i; (i = next++) < which.size();) {
        const std::size_t c = which[i];
        results[c] = sim::simulate_gpu(configs[c]);
        const std::lock_guard<std::mutex> lock(mutex);
        bar.update(++done, std::string(stage) + " " + ranked_order(configs[c]));
      }
    });
  for (std::thread &t : pool)
    t.join();
}

} // namespace

int cmd_tune(int argc, char **argv) {
  po::options_description desc("Options");
  config::add_workload_options(desc);
  // clang-format off
  desc.add_options()
    ("device", po::value<std::string>(), config::device_help().c_str())
    ("block", po::value<std::string>(), config::block_help().c_str())
    ("orders", list_value(), "orders to rank, a comma list or repeated; default: linear, the "
                             "thesis's column widths 4..2048, tile:16, tile:32x8, zigzag:32, "
                             "zigzag:64, less those that map as another for the size")
    ("search", po::value<std::string>(), "staged (default): every order in sampled mode "
                                         "(--sample-sms, default 12 SMs), then the fastest "
                                         "--finalists on the full device; full: every order on "
                                         "the full device (or all sampled with --sample-sms)")
    ("finalists", po::value<std::string>(), "orders the staged search replays on the full "
                                            "device, default 4")
    ("jobs", po::value<std::string>(), "host threads in all, as for simulate --model gpu "
                                       "(default: all cores): orders replay side by side, one "
                                       "thread each, and a replay takes several where fewer "
                                       "orders than threads are left; the ranking is the same "
                                       "on any count")
    ("sample-sms", po::value<std::string>(), "simulate N SMs (a divisor of the device's), each "
                                             "standing for SMs/N: stage one of the staged "
                                             "search, every order with --search full")
    ("progress", po::bool_switch(), "progress on stderr even when it is not a terminal (on a "
                                    "terminal it is always shown)");
  // clang-format on
  add_output_options(desc);
  po::variables_map vm;
  if (!parse_args(
          argc, argv, desc, vm,
          "usage: cbi tune [--device NAME] [--workload W --size ...] [--block B] "
          "[--orders LIST] [--search staged|full]\n"
          "       cbi tune --kernel sgemm-tiled|stencil-smem --size ... [--block-order "
          "LIST]\n\n"
          "Replays the workload under each thread order with the simulator's GPU model "
          "(docs/gpu-model.md)\nand ranks the orders by predicted time, fastest first. "
          "The default search is staged: every\norder in sampled mode, then the fastest "
          "few on the full device (their rows say \"full\"); the\nothers keep their "
          "sampled prediction. Orders within the model's validated time error of the\n"
          "fastest (docs/results/gpu-model-h100.md: 5.7% for stencils, 11.2% for matmul) "
          "form tie group 1,\nindistinguishable by the model. Each row names the bound "
          "that sets its time and why it is\nslower than the fastest. The tiled kernels keep their "
          "threads'\nlaunch order: tune "
          "ranks the order of their thread blocks over the tiles\n(--block-order LIST; default: "
          "linear, column:2..64, tile:4x4, tile:8x8, tile:1x8 as Triton's GROUP_M=8,\n"
          "zigzag:8, zigzag:16, less those equal to linear on the grid of tiles).",
          "  cbi tune --device h100 --workload matmul --size 1024 --block 256\n"
          "  cbi tune --workload stencil --size 4096 --stencil 9x9 --orders "
          "linear,column:32,zigzag:32 --format json\n"
          "  cbi tune --kernel sgemm-tiled --size 4096 --block-order "
          "linear,column:8,tile:1x8"))
    return 0;
  // One point (workload, device, block, sampled SMs); each ranked order replaces its order, or
  // for the tiled kernels its block order (--block-order is a list here: the candidates).
  po::variables_map one_point = vm;
  one_point.erase("block-order");
  const sim::GpuConfig base =
      config::gpu_config(config::point_from(one_point, {config::Engine::gpu_model, "tune", false}));
  config::refuse_inapplicable(vm, base.workload.kind); // --block-order without tiles
  const bool tiled = sim::workload_traits(base.workload.kind).has_block_order;
  if (tiled && vm.count("orders"))
    throw UsageError("--orders", std::string(sim::to_string(base.workload.kind)) +
                                     "'s threads keep their launch order; allowed: rank its "
                                     "block orders with --block-order LIST");
  const std::string search = vm.count("search") ? vm["search"].as<std::string>() : "staged";
  if (search != "staged" && search != "full")
    throw UsageError("--search", "'" + search + "' is not a search; allowed: staged, full");
  if (vm.count("finalists") && search != "staged")
    throw UsageError("--finalists", "applies to --search staged only");
  const int64_t finalists =
      vm.count("finalists") ? parse_positive(vm["finalists"].as<std::string>(), "--finalists", 1000)
                            : 4;
  const int64_t given_sample =
      vm.count("sample-sms")
          ? parse_positive(vm["sample-sms"].as<std::string>(), "--sample-sms", 1 << 20)
          : 0;
  const char *option = tiled ? "--block-order" : "--orders";
  std::vector<remap::Order> orders;
  for (const std::string &text :
       tiled ? list_from(vm, "block-order", sim::default_block_orders(base.workload))
             : list_from(vm, "orders", split_list(kDefaultOrders)))
    orders.push_back(remap::parse_order(text, option));
  if (orders.empty())
    throw UsageError(option, "no order given; allowed: a comma list such as linear,column:32");
  std::vector<std::pair<remap::Order, remap::Order>> dropped;
  sim::validate(base.workload);
  if (!tiled) // the default block orders leave out those equal to linear on the tiles already
    orders = sim::distinct_orders(orders, base.workload, &dropped);
  // Staged when it saves work: more orders than finalists, and a sample smaller than the device.
  const int64_t stage_sample = given_sample > 0 ? given_sample : stage_one_sample(base.device);
  const bool staged = search == "staged" && stage_sample > 0 &&
                      stage_sample<base.device.sms &&static_cast<int64_t>(orders.size())> finalists;
  const int64_t sample = staged ? stage_sample : given_sample;
  std::vector<sim::GpuConfig> configs;
  for (const remap::Order &o : orders) {
    sim::GpuConfig c = base;
    (tiled ? c.workload.block_order : c.order) = o;
    c.sample_sms = sample;
    try {
      sim::validate(c);
    } catch (const UsageError &e) {
      if (e.option() == "gpu.sample_sms")
        throw UsageError("--sample-sms", e.what());
      if (e.option() == "workload.block_order")
        throw UsageError("--block-order", e.what());
      throw;
    }
    configs.push_back(c);
  }
  const unsigned jobs = static_cast<unsigned>(
      vm.count("jobs") ? parse_positive(vm["jobs"].as<std::string>(), "--jobs", 256)
                       : std::max(1u, std::thread::hardware_concurrency()));
  const std::size_t final_count =
      staged ? std::min<std::size_t>(configs.size(), static_cast<std::size_t>(finalists)) : 0;
  const bool show = isatty(2) || (vm.count("progress") && vm["progress"].as<bool>());
  ProgressBar bar(static_cast<int64_t>(configs.size() + final_count), show, 0, "orders");
  int64_t done = 0;
  std::vector<sim::GpuResult> results(configs.size());
  std::vector<std::size_t> all(configs.size());
  for (std::size_t i = 0; i < all.size(); ++i)
    all[i] = i;
  run_all(configs, results, all, jobs, bar, done, sample > 0 ? "sampled" : "full");
  std::vector<bool> full(configs.size(), !staged && sample == 0);
  if (staged) {
    // Stage two: the fastest in sampled mode, replayed on the full device.
    const std::vector<sim::Ranked> first = sim::rank_orders(configs, results, 0.0);
    std::vector<std::size_t> top;
    for (std::size_t k = 0; k < final_count; ++k) {
      top.push_back(first[k].index);
      configs[first[k].index].sample_sms = 0;
      full[first[k].index] = true;
    }
    run_all(configs, results, top, jobs, bar, done, "full");
  }
  const double ln_error = sim::validated_time_error(base.workload.kind);
  // The rows on the full device (every row unless staged) are ranked with tie groups; a staged
  // search's other rows follow in their sampled order, without a tie group.
  std::vector<std::size_t> head, tail;
  for (std::size_t i = 0; i < configs.size(); ++i)
    (staged && !full[i] ? tail : head).push_back(i);
  auto rank_of = [&](const std::vector<std::size_t> &which, double error) {
    std::vector<sim::GpuConfig> cs;
    std::vector<sim::GpuResult> rs;
    for (std::size_t i : which) {
      cs.push_back(configs[i]);
      rs.push_back(results[i]);
    }
    std::vector<sim::Ranked> r = sim::rank_orders(cs, rs, error);
    for (sim::Ranked &x : r)
      x.index = which[x.index];
    return r;
  };
  const std::vector<sim::Ranked> rank = rank_of(head, ln_error);
  std::vector<sim::Ranked> rows = rank;
  for (const sim::Ranked &x : rank_of(tail, 0.0)) {
    sim::Ranked y = x;
    y.tie_group = 0;
    y.why = "sampled only: not among the fastest " + std::to_string(final_count) + " of stage one";
    rows.push_back(y);
  }
  Table t;
  t.title = "cbi tune: " + base.workload.describe() + ", block " +
            std::to_string(base.block_threads) + " on " + base.device.name;
  // Three of the Nsight-named counts (the L1 hit rate, L2->L1 and DRAM traffic), enough to see why
  // an order wins and narrow enough for a terminal; cbi simulate --model gpu prints all eight.
  // JSON: {"ranking": [{"rank", "order", "predicted_ms", "tie_group", "margin_pct", "bound",
  // "why", "replay", "metrics": {...}}, ...]}.
  const std::vector<std::string> shown = {"l1tex__t_sector_hit_rate.pct",
                                          "lts__t_sectors_srcunit_tex_op_read.sum",
                                          "dram__bytes_read.sum"};
  t.columns = {"rank",         tiled ? "block_order" : "order",
               "predicted_ms", "tie_group",
               "margin_pct",   "bound",
               "why",          "replay"};
  t.columns.insert(t.columns.end(), shown.begin(), shown.end());
  t.json_rows = "ranking";
  t.json_groups = {{"metrics", shown}};
  std::vector<std::string> tied;
  const double best_ms = results[rows[0].index].time.predicted_ms;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const sim::Ranked &x = rows[k];
    const sim::GpuResult &r = results[x.index];
    const std::string order = ranked_order(configs[x.index]);
    if (x.tie_group == 1)
      tied.push_back(order);
    std::vector<Cell> row = {static_cast<int64_t>(k + 1),
                             order,
                             r.time.predicted_ms,
                             x.tie_group > 0 ? Cell(int64_t{x.tie_group}) : Cell(std::string()),
                             100.0 * (r.time.predicted_ms - best_ms) / std::max(best_ms, 1e-300),
                             r.time.bound,
                             x.why,
                             configs[x.index].sample_sms > 0
                                 ? "sampled " + std::to_string(configs[x.index].sample_sms) + " SMs"
                                 : std::string("full")};
    for (auto &[name, value] : config::gpu_metric_fields(r.metrics))
      if (std::find(shown.begin(), shown.end(), name) != shown.end())
        row.push_back(std::move(value));
    t.add_row(std::move(row));
  }
  t.config = config::workload_fields(base.workload);
  t.config.erase(std::remove_if(t.config.begin(), t.config.end(),
                                [](const auto &f) { return f.first == "block_order"; }),
                 t.config.end()); // ranked, not fixed
  t.table_omits = config::workload_fields_not_applying(base.workload);
  t.config.push_back({"device", base.device.name});
  t.config.push_back({"block", int64_t{base.block_threads}});
  t.config.push_back({"search", staged ? std::string("staged") : std::string("full")});
  t.meta = {{"device", base.device.description},
            {"winner", ranked_order(configs[rows[0].index])},
            {"tie_tolerance_pct", 100.0 * (std::exp(ln_error) - 1.0)}};
  std::string tied_list;
  for (const std::string &o : tied)
    tied_list += (tied_list.empty() ? "" : ", ") + o;
  if (tied.size() > 1)
    t.meta.push_back({"indistinguishable_by_the_model", tied_list});
  // The runner-up is the fastest order the model can tell from the winner: the first of tie
  // group 2 (orders of group 1 are ties, not runners-up).
  const auto next =
      std::find_if(rank.begin(), rank.end(), [](const sim::Ranked &x) { return x.tie_group > 1; });
  if (next != rank.end()) {
    t.meta.push_back({"runner_up", ranked_order(configs[next->index])});
    t.meta.push_back({"margin_pct", next->margin_pct});
  }
  t.notes = {"predicted by the GPU model (docs/gpu-model.md); validation against the H100: "
             "docs/results/gpu-model-h100.md"};
  if (tied.size() > 1)
    t.notes.push_back(std::to_string(tied.size()) +
                      " orders are indistinguishable by the model (tie group 1, within its "
                      "validated time error of the fastest): " +
                      tied_list);
  for (const auto &[order, as] : dropped)
    t.notes.push_back(remap::to_string(order) + " maps as " + remap::to_string(as) +
                      " for this size: not simulated");
  emit(vm, t);
  return 0;
}

const cli::Registration kTuneRegistration{
    {"tune", "rank thread orders by the GPU model's predicted time (--device, --block)", cmd_tune,
     13}};

} // namespace cbi::cli
