// cbi bench: run the CUDA kernels (listing 3 stencil, listing 4 matmul, tiled baselines, cuBLAS)
// under any thread order, check them against the CPU reference, time them nvbench-style and read
// their cache hit rates from the hardware counters. Comma lists in --kernel/--order/--type run
// every combination in one process (one Harness: the copy bandwidth is measured once).
#include "cbi/cli/options.hpp"
#include "cbi/cli/command.hpp"

#include "cbi/kernels/bench.hpp"

#include "point_options.hpp"

#include <nlohmann/json.hpp>

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

// The device block, typed (numbers stay numbers in JSON).
Fields device_meta(const kernels::DeviceInfo &d) {
  return {
      {"device", d.name + " (cc " + std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor) +
                     ")"},
      {"sms", int64_t{d.sms}},
      {"sm_clock_mhz", double(d.sm_clock_mhz)},
      {"memory_clock_mhz", double(d.memory_clock_mhz)},
      {"l2_bytes", int64_t{d.l2_bytes}},
      {"memory_gbs_theoretical", double(d.memory_gbs_theoretical)},
      {"copy_gbs_measured", double(d.copy_gbs)},
      {"fp32_gflops_peak", double(d.fp32_gflops_peak)},
      {"fp64_gflops_peak", double(d.fp64_gflops_peak)},
      {"driver_version", int64_t{d.driver_version}},
      {"runtime_version", int64_t{d.runtime_version}},
  };
}

// NaN and infinities become null.
nlohmann::ordered_json json_number(double v) {
  return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
}

// Every sample and the full device block, which the flat table cannot hold.
void print_bench_json(std::ostream &os, const kernels::DeviceInfo &d,
                      const std::vector<kernels::BenchResult> &results, const std::string &command,
                      const std::vector<std::string> &notes) {
  nlohmann::ordered_json j;
  j["command"] = command;
  j["date"] = utc_timestamp();
  j["context"] = nlohmann::ordered_json::object();
  for (const auto &[k, v] : run_context())
    j["context"][k] = std::visit([](const auto &x) { return nlohmann::ordered_json(x); }, v);
  j["device"] = nlohmann::ordered_json::object();
  for (const auto &[k, v] : device_meta(d))
    j["device"][k] = std::visit([](const auto &x) { return nlohmann::ordered_json(x); }, v);
  j["results"] = nlohmann::ordered_json::array();
  for (const kernels::BenchResult &r : results) {
    const kernels::BenchConfig &c = r.config;
    nlohmann::ordered_json e;
    e["config"] = c.describe();
    e["kernel"] = kernels::to_string(c.kernel);
    e["order"] = remap::to_string(c.order);
    e["remap_math"] = remap::to_string(c.remap_math);
    e["block_order"] = remap::to_string(c.block_order);
    e["type"] = kernels::to_string(c.type);
    e["width"] = c.width;
    e["height"] = c.height;
    e["stencil_w"] = c.stencil_w;
    e["stencil_h"] = c.stencil_h;
    e["depth"] = c.effective_depth();
    e["block_threads"] = c.block_threads;
    e["cold"] = c.cold;
    e["check"] = {{"ran", r.check.ran},
                  {"passed", r.check.passed},
                  {"rel_error", json_number(r.check.rel_error)},
                  {"bound", json_number(r.check.bound)},
                  {"checked", r.check.checked},
                  {"unwritten", r.check.unwritten},
                  {"note", r.check.note}};
    e["resources"] = {{"name", r.resources.name},
                      {"registers", r.resources.registers},
                      {"static_shared_bytes", r.resources.static_shared_bytes},
                      {"dynamic_shared_bytes", r.resources.dynamic_shared_bytes},
                      {"local_bytes", r.resources.local_bytes},
                      {"grid_blocks", r.resources.grid_blocks},
                      {"block_threads", r.resources.block_threads}};
    e["median_ms"] = json_number(r.median_ms);
    e["mean_ms"] = json_number(r.mean_ms);
    e["noise"] = json_number(r.noise);
    e["noise_target_met"] = r.noise_target_met;
    e["bytes"] = json_number(r.bytes);
    e["flops"] = json_number(r.flops);
    e["gbs"] = json_number(r.gbs);
    e["gflops"] = json_number(r.gflops);
    e["roofline_gflops"] = json_number(r.roofline_gflops);
    e["roofline_fraction"] = json_number(r.roofline_fraction);
    e["bound"] = r.bound;
    nlohmann::ordered_json m = {{"available", r.metrics.available}};
    if (r.metrics.available) {
      const double values[] = {r.metrics.l1_hit_pct,          r.metrics.l1_global_load_hits,
                               r.metrics.l1_global_load_misses, r.metrics.l2_hit_pct,
                               r.metrics.l2_to_l1_sectors,     r.metrics.dram_read_bytes};
      for (size_t k = 0; k < kernels::metric_names().size(); ++k)
        m[kernels::metric_names()[k]] = json_number(values[k]);
      m["passes"] = r.metrics.passes;
    } else if (!r.metrics.why.empty()) {
      m["why"] = r.metrics.why;
    }
    e["metrics"] = std::move(m);
    e["samples_ms"] = nlohmann::ordered_json::array();
    for (double s : r.samples_ms)
      e["samples_ms"].push_back(json_number(s));
    j["results"].push_back(std::move(e));
  }
  if (!notes.empty())
    j["notes"] = notes;
  os << j.dump(2) << "\n";
}

Table bench_table(const kernels::DeviceInfo &d, const std::vector<kernels::BenchResult> &results,
                  bool metrics) {
  Table t;
  t.title = "cbi bench on " + d.name;
  t.columns = {"kernel", "order", "remap_math", "block_order", "type", "size", "shape", "block", "check", "rel_error",
               "median_ms", "noise", "samples", "gbs", "gflops", "roofline_frac", "bound", "regs",
               "smem_bytes", "local_bytes"};
  if (metrics)
    t.columns.insert(t.columns.end(), {"l1_hit_pct", "l1_ld_hit_sectors", "l1_ld_miss_sectors",
                                       "l2_hit_pct", "l2_to_l1_sectors", "dram_read_bytes"});
  for (const kernels::BenchResult &r : results) {
    const kernels::BenchConfig &c = r.config;
    const std::string shape =
        kernels::is_stencil(c.kernel)
            ? std::to_string(c.stencil_w) + "x" + std::to_string(c.stencil_h)
            : "D=" + std::to_string(c.effective_depth());
    const std::string block =
        c.kernel == kernels::KernelKind::cublas ? "-"
        : c.kernel == kernels::KernelKind::stencil_2d
            ? std::to_string(c.block_x) + "x" + std::to_string(c.block_threads / c.block_x)
            : std::to_string(r.resources.block_threads);
    std::vector<Cell> row{std::string(kernels::to_string(c.kernel)),
                          remap::to_string(c.order),
                          std::string(kernels::is_remapped(c.kernel)
                                          ? remap::to_string(c.remap_math)
                                          : "-"),
                          kernels::is_block_ordered(c.kernel) ? remap::to_string(c.block_order)
                                                              : std::string("-"),
                          std::string(kernels::to_string(c.type)),
                          std::to_string(c.width) + "x" + std::to_string(c.height),
                          shape,
                          block,
                          std::string(!r.check.ran ? "off" : r.check.passed ? "pass" : "FAIL"),
                          r.check.rel_error,
                          r.median_ms,
                          r.noise,
                          int64_t(r.samples_ms.size()),
                          r.gbs,
                          r.gflops,
                          r.roofline_fraction,
                          r.bound,
                          int64_t(r.resources.registers),
                          r.resources.static_shared_bytes + r.resources.dynamic_shared_bytes,
                          r.resources.local_bytes};
    if (metrics) {
      if (r.metrics.available)
        row.insert(row.end(), {r.metrics.l1_hit_pct, r.metrics.l1_global_load_hits,
                               r.metrics.l1_global_load_misses, r.metrics.l2_hit_pct,
                               r.metrics.l2_to_l1_sectors, r.metrics.dram_read_bytes});
      else
        row.insert(row.end(), 6, Cell(std::string("n/a")));
    }
    t.add_row(row);
  }
  t.meta = device_meta(d);
  return t;
}

} // namespace

int cmd_bench(int argc, char **argv) {
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
  po::options_description desc("Options");
  desc.add_options()
    ("kernel", list_value(), kernel_help.c_str())
    ("order", list_value(), order_help.c_str())
    ("block-order", list_value(), block_order_help.c_str())
    ("remap-math", list_value(), remap_math_help.c_str())
    ("block", po::value<std::string>(), "threads per block, 32..1024 (default 256); for "
                                        "stencil-2d WxH (default 32x8)")
    ("size", po::value<std::string>(), "output I_w x I_h as WxH or N (default 4096x4096)")
    ("stencil", po::value<std::string>(), "stencil window SxS, odd (default 9x9)")
    ("depth", po::value<std::string>(), "matmul inner dimension D (default I_w)")
    ("type", list_value(), "half | float | double, or a comma list (default float)")
    ("metrics", po::bool_switch(), "read L1/L2/DRAM counters with the CUPTI range profiler")
    ("cold", po::bool_switch(), "flush L2 before every timed sample")
    ("no-check", po::bool_switch(), "skip the CPU-reference check (on by default)")
    ("no-time", po::bool_switch(), "check (and profile) only; take no timed samples")
    ("min-samples", po::value<std::string>(), "timed samples at least (default 20)")
    ("max-noise", po::value<std::string>(), "stop once stdev/mean <= this (default 0.005)")
    ("max-seconds", po::value<std::string>(), "... or once this much kernel time was sampled "
                                              "(default 1)")
    ("seed", po::value<std::string>(), "seed of the random inputs (default 1)");
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
  const kernels::BenchConfig measurement = sweep::measurement_from(vm);
  const Printer &format = format_from(vm);
  sweep::BenchPoints planned = sweep::bench_points(vm);
  std::vector<kernels::BenchConfig> configs;
  for (const sweep::Point &p : planned.points)
    configs.push_back(sweep::with_measurement(sweep::bench_config(p), measurement));
  std::vector<std::string> &notes = planned.notes;

  std::string why;
  if (!kernels::device_available(&why))
    throw NoDeviceError("no CUDA device or driver was found (" + why +
                        "); cbi bench needs an NVIDIA GPU; cbi simulate and cbi sweep run without "
                        "one");
  kernels::Harness harness(0);
  const kernels::DeviceInfo &d = harness.device();
  std::cerr << "device: " << d.name << ", " << d.sms << " SMs at " << fmt(d.sm_clock_mhz)
            << " MHz, L2 " << d.l2_bytes / 1024 << " KiB, memory " << fmt(d.memory_gbs_theoretical)
            << " GB/s theoretical, copy " << fmt(d.copy_gbs) << " GB/s measured, FP32 "
            << fmt(d.fp32_gflops_peak / 1e3) << " TFLOP/s, FP64 " << fmt(d.fp64_gflops_peak / 1e3)
            << " TFLOP/s peak\n";
  if (measurement.metrics) {
    const std::string no_counters = harness.counters_unavailable_reason();
    if (!no_counters.empty()) {
      std::cerr << "cbi bench: hardware counters unavailable: " << no_counters << "\n";
      notes.push_back("hardware counters unavailable: " + no_counters);
    }
  }

  std::vector<kernels::BenchResult> results;
  int failed = 0;
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

  const std::string command = command_line(argc, argv);
  std::ostringstream os;
  if (std::string(format.name()) == "json") {
    print_bench_json(os, d, results, command, notes);
  } else {
    Table t = bench_table(d, results, measurement.metrics);
    t.meta.push_back({"command", command});
    t.meta.push_back({"date", utc_timestamp()});
    t.notes = notes;
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
