// cbi devices: the device rows the GPU model replays against (sim/src/device.cpp; sources in
// docs/devices.md).
#include "cbi/cli/command.hpp"
#include "cbi/cli/options.hpp"
#include "cbi/sim/device.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace cbi::cli {

namespace {

Table devices_table() {
  Table t;
  t.title = "cbi devices: rows of the GPU model";
  t.columns = {"name",
               "sms",
               "threads_per_sm",
               "warps_per_sm",
               "ctas_per_sm",
               "l1_bytes",
               "l1_ways",
               "l1_replacement",
               "l1_data_bytes_per_cycle",
               "l1_request_cycles",
               "l1_mixed_request_wavefronts",
               "l1_lines_per_cycle",
               "l1_miss_lines_per_cycle",
               "scheduler",
               "l2_bytes",
               "l2_partitions",
               "l2_coalesce_cycles",
               "l2_coalesce_max_reads",
               "launcher_ctas_per_us",
               "sm_clock_mhz",
               "l1_hit_cycles",
               "l2_hit_cycles",
               "dram_cycles",
               "dram_gbs",
               "stream_issue_norm",
               "stream_dram_share",
               "description"};
  for (const sim::Device &d : sim::devices())
    t.add_row(
        {d.name,
         int64_t{d.sms},
         int64_t{d.max_threads_per_sm},
         int64_t{d.max_warps_per_sm},
         int64_t{d.max_ctas_per_sm},
         d.l1_bytes,
         d.l1_ways,
         std::string(d.l1_random_replacement ? "random" : "lru"),
         int64_t{d.l1_data_bytes_per_cycle},
         d.l1_request_cycles,
         int64_t{d.l1_mixed_request_wavefronts},
         int64_t{d.l1_lines_per_cycle},
         int64_t{d.l1_miss_lines_per_cycle},
         std::string(d.scheduler == sim::WarpScheduler::round_robin           ? "ready_longest"
                     : d.scheduler == sim::WarpScheduler::oldest_issues_first ? "oldest_issues"
                                                                              : "oldest_cta"),
         d.l2_bytes,
         int64_t{d.l2_partitions},
         int64_t{d.l2_coalesce_cycles},
         int64_t{d.l2_coalesce_max_reads},
         d.launcher_ctas_per_us,
         d.sm_clock_mhz,
         int64_t{d.l1_hit_cycles},
         int64_t{d.l2_hit_cycles},
         int64_t{d.dram_cycles},
         d.dram_gbs,
         d.stream_issue_norm,
         d.stream_dram_share,
         d.description});
  // A 0 there is no rate of 0 but a stage the row leaves out: said, as a reader takes it for a
  // value (0 CTAs a microsecond).
  t.notes = {"every field's source: docs/devices.md; tiny is a test device (sequential replay)",
             "0 in l1_data_bytes_per_cycle, l1_request_cycles, l1_mixed_request_wavefronts, "
             "l1_lines_per_cycle, l1_miss_lines_per_cycle, "
             "l2_coalesce_cycles, l2_coalesce_max_reads, launcher_ctas_per_us or "
             "stream_issue_norm: the device's "
             "model has no such stage or limit (not probed on it); l1_ways 0: fully "
             "associative"};
  return t;
}

} // namespace

// cbi devices NAME: one row, as cbi presets NAME shows one preset (it was "unexpected argument").
int cmd_devices(int argc, char **argv) {
  po::options_description desc("Options");
  desc.add_options()(
      "name", po::value<std::string>(),
      ("the one device to show, also given alone (cbi devices NAME): " + sim::device_names())
          .c_str());
  add_output_options(desc);
  po::variables_map vm;
  if (!parse_args(argc, argv, desc, vm,
                  "usage: cbi devices [NAME] [--format table|json|csv|markdown]\n\n"
                  "Lists the devices of the simulator's GPU model (cbi simulate --model gpu, "
                  "cbi tune):\noccupancy, caches, latencies and bandwidths; with NAME, that one. "
                  "Sources: docs/devices.md.",
                  "  cbi devices\n  cbi devices h200\n  cbi devices --format json", {}, {}, "name",
                  "NAME"))
    return 0;
  Table t = devices_table();
  if (has(vm, "name")) { // an unknown name is named as it was given: NAME, or --name NAME
    const std::string name = sim::find_device(get(vm, "name", ""), name_option(argc, argv)).name;
    t.title = "cbi devices: " + name;
    t.rows.erase(std::remove_if(t.rows.begin(), t.rows.end(),
                                [&](const std::vector<Cell> &row) {
                                  return format_cell(row.front()) != name;
                                }),
                 t.rows.end());
  }
  emit(vm, t);
  return 0;
}

const cli::Registration kDevicesRegistration{
    {"devices", "list the GPU model's device rows (SMs, occupancy, caches, latencies)", cmd_devices,
     12}};

} // namespace cbi::cli
