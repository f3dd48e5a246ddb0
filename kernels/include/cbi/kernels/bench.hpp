// The measurement side, nvbench style: describe the device, check a kernel against the CPU
// reference, time it with CUDA events until the noise target is met, relate it to the measured
// copy bandwidth and the FP peak, and read its cache counters with CUPTI. Free of CUDA types.
//
// A Harness owns everything that is costly to set up and reusable across configurations (the
// context, the cuBLAS handle, the measured copy bandwidth, the L2 flush buffer, the profiler), so
// a sweep constructs one and calls measure() many times.
#pragma once

#include "cbi/error.hpp"
#include "cbi/kernels/config.hpp"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace cbi::kernels {

// Thrown when no CUDA device can be used; the CLI turns it (a cbi::NoDeviceError) into exit code 3.
class NoDeviceError : public cbi::NoDeviceError {
public:
  using cbi::NoDeviceError::NoDeviceError;
};

// True when a CUDA device is usable; otherwise `why` says why (no driver, no device, ...).
bool device_available(std::string *why = nullptr);

struct DeviceInfo {
  int index = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sms = 0;
  double sm_clock_mhz = 0; // peak SM clock the driver reports
  double memory_clock_mhz = 0;
  int memory_bus_bits = 0;
  int64_t l2_bytes = 0;
  int64_t global_memory_bytes = 0;
  int64_t shared_per_block_optin_bytes = 0;
  double memory_gbs_theoretical = 0; // 2 * memory clock * bus width (datasheet-style)
  double fp32_gflops_peak = 0;       // SMs * FP32 lanes per SM * clock * 2 (FMA)
  double fp64_gflops_peak = 0;
  double copy_gbs = 0; // measured: device-to-device copy, bytes read + written
  int driver_version = 0, runtime_version = 0;
};

// cudaFuncGetAttributes of the kernel that was timed (seed 001's resource report).
struct KernelResources {
  bool known = false; // false for cuBLAS (its kernels are chosen inside the library)
  std::string name;   // e.g. "stencil_remap<float, Column>"
  int registers = 0;  // per thread
  int64_t static_shared_bytes = 0;
  int64_t dynamic_shared_bytes = 0;
  int64_t local_bytes = 0; // per-thread local memory: spills and stack arrays
  int max_threads_per_block = 0;
  int64_t grid_blocks = 0;
  int block_threads = 0;
};

struct CheckResult {
  bool ran = false;
  bool passed = false;
  double rel_error = 0;  // ||out - ref||_2 / ||ref||_2 over the checked elements
  double bound = 0;      // per type: half 2e-3, float 1e-5 (stencil) or 1e-4 (matmul), double 1e-12
  int64_t checked = 0;   // elements compared with the reference
  int64_t unwritten = 0; // elements still holding the poison (NaN) anywhere in the output
  std::string note;      // "all outputs" or "64 sampled rows; every output checked for NaN"
};

// Hardware counters of one launch, read in-process with the CUPTI range profiler after an L2
// flush (as ncu's default cache control does). Names follow Nsight Compute's metrics.
struct Metrics {
  bool available = false;
  std::string why;                  // when not available: one line saying why
  double l1_hit_pct = 0;            // l1tex__t_sector_hit_rate.pct
  double l1_global_load_hits = 0;   // l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
  double l1_global_load_misses = 0; // l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum
  double l2_hit_pct = 0;            // lts__t_sector_hit_rate.pct
  double l2_to_l1_sectors = 0;      // lts__t_sectors_srcunit_tex_op_read.sum (32 B sectors)
  double dram_read_bytes = 0;       // dram__bytes_read.sum
  int passes = 0;                   // replay passes the profiler needed
};

// The metric names above, in that order.
const std::vector<std::string> &metric_names();

struct BenchResult {
  BenchConfig config;
  DeviceInfo device;
  KernelResources resources;
  CheckResult check;
  Metrics metrics;
  std::vector<double> samples_ms; // every timed sample, in order
  double median_ms = 0;
  double mean_ms = 0;
  double noise = 0; // stdev / mean of the samples
  bool noise_target_met = false;
  double bytes = 0; // min_bytes(config)
  double flops = 0;
  double gbs = 0; // bytes / median
  double gflops = 0;
  double roofline_gflops = 0;   // min(FP peak, flops/bytes * measured copy bandwidth)
  double roofline_fraction = 0; // gflops / roofline_gflops
  std::string bound;            // "memory" or "compute": which roof applies
};

class Harness {
public:
  // Selects the device, creates the context and cuBLAS handle and measures the copy bandwidth.
  // Throws NoDeviceError when there is no usable device.
  explicit Harness(int device = 0);
  ~Harness();
  Harness(const Harness &) = delete;
  Harness &operator=(const Harness &) = delete;

  const DeviceInfo &device() const;
  // Checks (if config.check), times (if config.time) and profiles (if config.metrics) one
  // configuration. Throws UsageError for invalid configurations and std::runtime_error for CUDA
  // failures; a failed check is reported in the result, not thrown.
  BenchResult measure(const BenchConfig &config);
  // Why counters cannot be read, or "" when they can (probes CUPTI once).
  std::string counters_unavailable_reason();

private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

// measure() on a process-wide Harness created on first use.
BenchResult measure(const BenchConfig &config);

// For tests: the task index y*I_w + x that thread i of a 1D launch with `block_threads` per block
// computes under `order`, evaluated on the device by the same remap code the kernels call (the
// exact map for div, the order's Params for fast).
std::vector<int64_t> device_task_index(const remap::Order &order, int64_t width, int64_t height,
                                       int block_threads,
                                       remap::RemapMath math = remap::RemapMath::fast);

} // namespace cbi::kernels
