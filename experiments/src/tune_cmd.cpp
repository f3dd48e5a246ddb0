// cbi tune: ranks thread orders by the GPU model's predicted time on one device, workload and block
// (issue 10 §3), and names the winner with its margin over the runner-up.
#include "cbi/cli/command.hpp"
#include "cbi/config/options.hpp"
#include "cbi/parse.hpp"
#include "cbi/sim/gpu_model.hpp"

#include <algorithm>
#include <atomic>
#include <thread>

namespace cbi::cli {

namespace {

// The thesis's column widths (Fig 5.1) plus tiles and zigzags.
const char *kDefaultOrders =
    "linear,column:4,column:8,column:16,column:30,column:31,column:32,column:33,column:34,"
    "column:48,column:64,column:96,column:128,column:256,column:512,column:1024,column:2048,"
    "tile:16,tile:32x8,zigzag:32,zigzag:64";

} // namespace

int cmd_tune(int argc, char **argv) {
  po::options_description desc("Options");
  config::add_workload_options(desc);
  desc.add_options()
    ("device", po::value<std::string>(), "device row (cbi devices), default h100")
    ("block", po::value<std::string>(), "threads per block, default 256")
    ("orders", list_value(), "orders to rank, a comma list or repeated; default: linear, the "
                             "thesis's column widths 4..2048, tile:16, tile:32x8, zigzag:32, "
                             "zigzag:64")
    ("jobs", po::value<std::string>(), "simulations at once (default: all cores)")
    ("sample-sms", po::value<std::string>(), "simulate N SMs (a divisor of the device's), each "
                                             "standing for SMs/N; default all");
  add_output_options(desc);
  po::variables_map vm;
  if (!parse_args(argc, argv, desc, vm,
                  "usage: cbi tune [--device NAME] [--workload W --size ...] [--block B] "
                  "[--orders LIST]\n\n"
                  "Replays the workload under each thread order with the simulator's GPU model "
                  "(docs/gpu-model.md)\nand ranks the orders by predicted time, fastest first.",
                  "  cbi tune --device h100 --workload matmul --size 1024 --block 256\n"
                  "  cbi tune --workload stencil --size 4096 --stencil 9x9 --orders "
                  "linear,column:32,zigzag:32 --format json"))
    return 0;
  sim::GpuConfig base;
  base.workload = config::sim_config_from(vm).workload;
  base.device = sim::find_device(vm.count("device") ? vm["device"].as<std::string>() : "h100");
  base.block_threads =
      vm.count("block") ? parse_positive(vm["block"].as<std::string>(), "--block", 1 << 20) : 256;
  if (vm.count("sample-sms"))
    base.sample_sms = parse_positive(vm["sample-sms"].as<std::string>(), "--sample-sms", 1 << 20);
  std::vector<sim::GpuConfig> configs;
  for (const std::string &text : list_from(vm, "orders", split_list(kDefaultOrders))) {
    sim::GpuConfig c = base;
    c.order = remap::parse_order(text, "--orders");
    sim::validate(c);
    configs.push_back(c);
  }
  if (configs.empty())
    throw UsageError("--orders", "no order given; allowed: a comma list such as linear,column:32");
  const unsigned jobs = static_cast<unsigned>(
      vm.count("jobs") ? parse_positive(vm["jobs"].as<std::string>(), "--jobs", 256)
                       : std::max(1u, std::thread::hardware_concurrency()));
  std::vector<sim::GpuResult> results(configs.size());
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> pool;
  for (unsigned k = 0; k < std::min<std::size_t>(jobs, configs.size()); ++k)
    pool.emplace_back([&] {
      for (std::size_t i; (i = next++) < configs.size();)
        results[i] = sim::simulate_gpu(configs[i]);
    });
  for (std::thread &t : pool)
    t.join();
  std::vector<std::size_t> rank(configs.size());
  for (std::size_t i = 0; i < rank.size(); ++i)
    rank[i] = i;
  std::stable_sort(rank.begin(), rank.end(), [&](std::size_t a, std::size_t b) {
    return results[a].time.predicted_ms < results[b].time.predicted_ms;
  });
  Table t;
  t.title = "cbi tune: " + base.workload.describe() + ", block " +
            std::to_string(base.block_threads) + " on " + base.device.name;
  // Three of the Nsight-named counts (the L1 hit rate, L2->L1 and DRAM traffic), enough to see why
  // an order wins and narrow enough for a terminal; cbi simulate --model gpu prints all eight.
  // JSON: {"ranking": [{"rank", "order", "predicted_ms", "bound", "metrics": {...}}, ...]}.
  const std::vector<std::string> shown = {"l1tex__t_sector_hit_rate.pct",
                                          "lts__t_sectors_srcunit_tex_op_read.sum",
                                          "dram__bytes_read.sum"};
  t.columns = {"rank", "order", "predicted_ms", "bound"};
  t.columns.insert(t.columns.end(), shown.begin(), shown.end());
  t.json_rows = "ranking";
  t.json_groups = {{"metrics", shown}};
  for (std::size_t k = 0; k < rank.size(); ++k) {
    const sim::GpuResult &r = results[rank[k]];
    std::vector<Cell> row = {static_cast<int64_t>(k + 1), remap::to_string(configs[rank[k]].order),
                             r.time.predicted_ms, r.time.bound};
    for (auto &[name, value] : config::gpu_metric_fields(r.metrics))
      if (std::find(shown.begin(), shown.end(), name) != shown.end())
        row.push_back(std::move(value));
    t.add_row(std::move(row));
  }
  t.config = config::workload_fields(base.workload);
  t.config.push_back({"device", base.device.name});
  t.config.push_back({"block", int64_t{base.block_threads}});
  const sim::GpuResult &best = results[rank[0]];
  t.meta = {{"device", base.device.description},
            {"winner", remap::to_string(configs[rank[0]].order)}};
  if (rank.size() > 1) {
    const double second = results[rank[1]].time.predicted_ms;
    t.meta.push_back({"runner_up", remap::to_string(configs[rank[1]].order)});
    t.meta.push_back({"margin_pct", 100.0 * (second - best.time.predicted_ms) /
                                        std::max(second, 1e-12)});
  }
  t.notes = {"predicted by the GPU model (docs/gpu-model.md); validation against the H100: "
             "docs/results/gpu-model-h100.md"};
  emit(vm, t);
  return 0;
}

const cli::Registration kTuneRegistration{
    {"tune", "rank thread orders by the GPU model's predicted time (--device, --block)", cmd_tune,
     13}};

} // namespace cbi::cli
