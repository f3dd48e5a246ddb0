// cbi bench: run the CUDA kernels (listing 3 stencil, listing 4 matmul, tiled baselines, cuBLAS)
// under any thread order, check them against the CPU reference, time them nvbench-style and read
// their cache hit rates from the hardware counters. Comma lists in --kernel/--order/--type run
// every combination in one process (one Harness: the copy bandwidth is measured once).
#include "cbi/cli/command.hpp"
#include "cbi/cli/options.hpp"

#include "cbi/kernels/bench.hpp"

#include "bench_report.hpp"
#include "cbi/config/point_options.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>

namespace cbi::cli {

namespace {

std::string fmt(double v, int precision = 4) {
  std::ostringstream os;
  os.precision(precision);
  os << v;
  return os.str();
}

// bench's own options: what runs (crossed lists) and how it is measured.
void add_bench_options(po::options_description &desc) {
  static const std::string kernel_help = std::string("kernel, a comma list or repeated: ") +
                                         kernels::kernel_syntax() + " (default stencil)";
  static const std::string order_help = std::string("thread order for stencil/matmul, or a comma "
                                                    "list: ") +
                                        remap::order_syntax() + "; default linear";
  static const std::string block_order_help =
      std::string("order of the thread blocks over the tiles of stencil-smem/sgemm-tiled (block k "
                  "computes tile map(k)), or a comma list: ") +
      remap::order_syntax() + "; default linear";
  static const std::string remap_math_help =
      std::string("how --order divides, or a comma list: ") + remap::remap_math_syntax() +
      " (div: listing 5's integer divisions; fast: precomputed multiply-and-shift; default fast)";
  // clang-format off
  desc.add_options()
    ("kernel", list_value(), kernel_help.c_str())
    ("order", list_value(), order_help.c_str())
    ("block-order", list_value(), block_order_help.c_str())
    ("remap-math", list_value(), remap_math_help.c_str())
    ("block", po::value<std::string>(), "threads per block, 1..1024 (default 256; under 32 one warp "
                                        "runs with idle lanes); for stencil-2d WxH (default 32x8)")
    ("size", po::value<std::string>(), "output I_w x I_h as WxH or N (default 4096x4096)")
    ("stencil", po::value<std::string>(), "stencil window SxS, odd (default 9x9)")
    ("depth", po::value<std::string>(), "matmul inner dimension D (default, or 0: I_w)")
    ("type", list_value(), "half | float | double, or a comma list (default float)")
    ("metrics", po::bool_switch(), "read L1/L2/DRAM counters with the CUPTI range profiler")
    ("cold", po::bool_switch(), "flush L2 before every timed sample")
    ("no-check", po::bool_switch(), "skip the CPU-reference check (on by default)")
    ("no-time", po::bool_switch(), "check (and profile) only; take no timed samples (so --cold, --min-samples, --max-noise and --max-seconds do not apply)")
    ("min-samples", po::value<std::string>(), "timed samples at least (default 20)")
    ("max-noise", po::value<std::string>(), "stop once stdev/mean <= this (default 0.005)")
    ("max-seconds", po::value<std::string>(), "... or once this much kernel time was sampled "
                                              "(default 1)")
    ("seed", po::value<std::string>(), "seed of the random inputs (default 1)");
  // clang-format on
}

// The device, as bench's first line of stderr, and the note when its counters are unavailable.
void report_device(kernels::Harness &harness, bool metrics, std::vector<std::string> &notes) {
  const kernels::DeviceInfo &d = harness.device();
  std::cerr << "device: " << d.name << ", " << d.sms << " SMs at " << fmt(d.sm_clock_mhz)
            << " MHz, L2 " << d.l2_bytes / 1024 << " KiB, memory " << fmt(d.memory_gbs_theoretical)
            << " GB/s theoretical, copy " << fmt(d.copy_gbs) << " GB/s measured, FP32 "
            << fmt(d.fp32_gflops_peak / 1e3) << " TFLOP/s, FP64 " << fmt(d.fp64_gflops_peak / 1e3)
            << " TFLOP/s peak\n";
  if (metrics) {
    const std::string no_counters = harness.counters_unavailable_reason();
    if (!no_counters.empty()) {
      std::cerr << "cbi bench: hardware counters unavailable: " << no_counters << "\n";
      notes.push_back("hardware counters unavailable: " + no_counters);
    }
  }
}

// Measures every configuration in turn; a failed check or missing counters become notes.
std::vector<kernels::BenchResult> measure_all(kernels::Harness &harness,
                                              const std::vector<kernels::BenchConfig> &configs,
                                              std::vector<std::string> &notes, int &failed) {
  std::vector<kernels::BenchResult> results;
  failed = 0;
  for (size_t i = 0; i < configs.size(); ++i) {
    if (configs.size() > 1)
      std::cerr << "[" << i + 1 << "/" << configs.size() << "] " << configs[i].describe() << "\n";
    results.push_back(harness.measure(configs[i]));
    const kernels::BenchResult &r = results.back();
    if (r.check.ran && !r.check.passed) {
      ++failed;
      notes.push_back("CHECK FAILED: " + configs[i].describe() + ": relative error " +
                      fmt(r.check.rel_error) + " > bound " + fmt(r.check.bound) + ", " +
                      std::to_string(r.check.unwritten) + " outputs unwritten");
    }
    if (r.config.metrics && !r.metrics.available && !r.metrics.why.empty() &&
        harness.counters_unavailable_reason().empty())
      notes.push_back("counters of " + configs[i].describe() + " unavailable: " + r.metrics.why);
  }
  return results;
}

} // namespace

int cmd_bench(int argc, char **argv) {
  po::options_description desc("Options");
  add_bench_options(desc);
  add_output_options(desc);
  po::variables_map vm;
  if (!parse_args(argc, argv, desc, vm,
                  "usage: cbi bench [options]\n\n"
                  "Runs a CUDA kernel on the GPU: checks it against a double-precision CPU "
                  "reference on random\ninputs (poisoned output, relative-error bound per type), "
                  "then times it with CUDA events (median\nof >= 20 samples, stops at the noise "
                  "target) and relates it to the measured device-to-device\ncopy bandwidth and the "
                  "FP peak (roofline). --metrics adds hardware hit rates (CUPTI).\nNeeds a CUDA "
                  "device: exits 3 without one.",
                  "  cbi bench --kernel stencil --order column:32 --size 4096 --stencil 9x9\n"
                  "  cbi bench --kernel stencil --order linear,column:32 --type half,float,double "
                  "--metrics\n"
                  "  cbi bench --kernel matmul --order column:32 --size 2048 --block 128 --format "
                  "json\n"
                  "  cbi bench --kernel sgemm-tiled,cublas --size 4096 --format csv --output "
                  "gemm.csv\n"
                  "  cbi bench --kernel stencil-smem --size 4096 --cold\n"
                  "  cbi bench --kernel sgemm-tiled --size 8192 --block-order linear,column:8,"
                  "tile:8x8\n"
                  "  cbi bench --kernel stencil --order column:32 --remap-math div,fast"))
    return 0;

  // Every option is validated before the device is touched, so bad input exits 2 on any machine.
  const kernels::BenchConfig measurement = config::measurement_from(vm);
  const Printer &format = format_from(vm);
  config::BenchPoints planned = config::bench_points(vm);
  std::vector<kernels::BenchConfig> configs;
  for (const config::Point &p : planned.points) {
    configs.push_back(config::with_measurement(config::bench_config(p), measurement));
    kernels::validate(configs.back()); // every value, before the device is looked for
  }
  std::vector<std::string> &notes = planned.notes;

  std::string why;
  if (!kernels::device_available(&why))
    throw NoDeviceError("no CUDA device or driver was found (" + why +
                        "); cbi bench needs an NVIDIA GPU; cbi simulate and cbi sweep run without "
                        "one");
  kernels::Harness harness(0);
  const kernels::DeviceInfo &d = harness.device();
  report_device(harness, measurement.metrics, notes);

  int failed = 0;
  const std::vector<kernels::BenchResult> results = measure_all(harness, configs, notes, failed);

  const std::string command = command_line(argc, argv);
  std::ostringstream os;
  if (std::string(format.name()) == "json") {
    print_bench_json(os, d, results, command, notes);
  } else {
    Table t = bench_table(d, results, measurement.metrics);
    t.meta.push_back({"command", command});
    t.meta.push_back({"date", utc_timestamp()});
    t.notes = notes;
    t.wide = wide_from(vm);
    format.print(os, t);
  }
  write_file_atomic(get(vm, "output", "-"), os.str(), "--output");
  if (failed)
    std::cerr << "cbi bench: " << failed << " configuration(s) failed the correctness check\n";
  return failed ? 1 : 0;
}

const cli::Registration kRegistration{
    {"bench", "run the CUDA kernels: check, time and read hardware hit rates (needs a GPU)",
     cmd_bench, 60}};

} // namespace cbi::cli
