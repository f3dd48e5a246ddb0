// The Harness: device description, measured copy bandwidth, correctness check against the CPU
// reference, nvbench-style event timing, resource report and CUPTI counters for one BenchConfig.
#include "cbi/kernels/bench.hpp"
#include "cbi/kernels/reference.hpp"

#include "cbi/error.hpp"
#include "launch.hpp"
#include "profiler.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <mutex>
#include <numeric>
#include <random>

namespace cbi::kernels {

namespace {

void check_cuda(cudaError_t e, const char *what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// FP32 and FP64 lanes per SM by compute capability (CUDA C++ Programming Guide, "Arithmetic
// Instructions" throughput table); 0 where unknown.
std::pair<int, int> fp_lanes_per_sm(int major, int minor) {
  if (major == 9)
    return {128, 64};
  if (major == 8)
    return minor == 0 ? std::pair{64, 32} : std::pair{128, 2};
  if (major == 7)
    return minor == 0 ? std::pair{64, 32} : std::pair{64, 2};
  if (major >= 10)
    return {128, 64};
  return {0, 0};
}

// A device buffer that frees itself.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes) : m_bytes(bytes) {
    if (bytes)
      check_cuda(cudaMalloc(&m_ptr, bytes), "cudaMalloc");
  }
  ~DeviceBuffer() {
    if (m_ptr)
      cudaFree(m_ptr);
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  DeviceBuffer(DeviceBuffer &&o) noexcept : m_ptr(o.m_ptr), m_bytes(o.m_bytes) {
    o.m_ptr = nullptr;
    o.m_bytes = 0;
  }
  DeviceBuffer &operator=(DeviceBuffer &&o) noexcept {
    std::swap(m_ptr, o.m_ptr);
    std::swap(m_bytes, o.m_bytes);
    return *this;
  }
  void *get() const { return m_ptr; }
  size_t bytes() const { return m_bytes; }

private:
  void *m_ptr = nullptr;
  size_t m_bytes = 0;
};

// Uniform [-1, 1) values rounded to the element type, as the reference sees them.
std::vector<double> random_values(size_t n, ElemType t, std::mt19937_64 &rng) {
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<double> v(n);
  for (double &x : v)
    x = round_to(t, dist(rng));
  return v;
}

std::vector<uint8_t> to_storage(const std::vector<double> &v, ElemType t) {
  std::vector<uint8_t> bytes(v.size() * size_t(elem_bytes(t)));
  for (size_t i = 0; i < v.size(); ++i) {
    if (t == ElemType::half) {
      const uint16_t h = float_to_half_bits(float(v[i]));
      std::memcpy(&bytes[2 * i], &h, 2);
    } else if (t == ElemType::float32) {
      const float f = float(v[i]);
      std::memcpy(&bytes[4 * i], &f, 4);
    } else {
      std::memcpy(&bytes[8 * i], &v[i], 8);
    }
  }
  return bytes;
}

double from_storage(const uint8_t *p, ElemType t) {
  if (t == ElemType::half) {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return half_bits_to_float(h);
  }
  if (t == ElemType::float32) {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  double d;
  std::memcpy(&d, p, 8);
  return d;
}

void upload(const DeviceBuffer &dst, const std::vector<double> &values, ElemType t) {
  const std::vector<uint8_t> bytes = to_storage(values, t);
  check_cuda(cudaMemcpy(dst.get(), bytes.data(), bytes.size(), cudaMemcpyHostToDevice),
             "copying inputs to the device");
}

double median_of(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// stdev / mean (population stdev), nvbench's noise.
double noise_of(const std::vector<double> &v, double *mean_out) {
  const double mean =
      std::accumulate(v.begin(), v.end(), 0.0) / double(std::max<size_t>(1, v.size()));
  double var = 0;
  for (double x : v)
    var += (x - mean) * (x - mean);
  var /= double(std::max<size_t>(1, v.size()));
  if (mean_out)
    *mean_out = mean;
  return mean > 0 ? std::sqrt(var) / mean : 0;
}

} // namespace

bool device_available(std::string *why) {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    if (why)
      *why = cudaGetErrorString(e);
    cudaGetLastError(); // clear the sticky-free error so later probes start clean
    return false;
  }
  if (n == 0) {
    if (why)
      *why = "the driver reports no CUDA device";
    return false;
  }
  return true;
}

const std::vector<std::string> &metric_names() {
  static const std::vector<std::string> names = {
      "l1tex__t_sector_hit_rate.pct",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
      "lts__t_sector_hit_rate.pct",
      "lts__t_sectors_srcunit_tex_op_read.sum",
      "dram__bytes_read.sum",
  };
  return names;
}

struct Harness::Impl {
  int device = 0;
  DeviceInfo info;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  DeviceBuffer flush; // twice the L2, overwritten before cold samples and profiler passes
  int *host_flag = nullptr;
  int *device_flag = nullptr;
  std::unique_ptr<detail::CounterProfiler> profiler;

  void flush_l2() {
    static std::atomic<int> value{0};
    check_cuda(cudaMemsetAsync(flush.get(), (value++) & 0xff, flush.bytes(), stream),
               "flushing L2");
  }

  detail::CounterProfiler &counters() {
    if (!profiler)
      profiler = std::make_unique<detail::CounterProfiler>(device);
    return *profiler;
  }

  void describe_device();
  double measure_copy_gbs();
  CheckResult run_check(const BenchConfig &c, const detail::LaunchContext &ctx,
                        const std::vector<double> &a, const std::vector<double> &b);
  void time(const BenchConfig &c, const detail::LaunchContext &ctx, BenchResult &r);
};

void Harness::Impl::describe_device() {
  cudaDeviceProp p{};
  check_cuda(cudaGetDeviceProperties(&p, device), "cudaGetDeviceProperties");
  info.index = device;
  info.name = p.name;
  info.cc_major = p.major;
  info.cc_minor = p.minor;
  info.sms = p.multiProcessorCount;
  info.l2_bytes = p.l2CacheSize;
  info.global_memory_bytes = int64_t(p.totalGlobalMem);
  info.shared_per_block_optin_bytes = int64_t(p.sharedMemPerBlockOptin);
  info.memory_bus_bits = p.memoryBusWidth;
  int clock_khz = 0, mem_khz = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device);
  cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, device);
  info.sm_clock_mhz = clock_khz / 1e3;
  info.memory_clock_mhz = mem_khz / 1e3;
  // Double data rate: two transfers per memory clock across the bus.
  info.memory_gbs_theoretical = 2.0 * mem_khz * 1e3 * (p.memoryBusWidth / 8.0) / 1e9;
  const auto [fp32, fp64] = fp_lanes_per_sm(p.major, p.minor);
  info.fp32_gflops_peak = 2.0 * info.sms * fp32 * info.sm_clock_mhz / 1e3;
  info.fp64_gflops_peak = 2.0 * info.sms * fp64 * info.sm_clock_mhz / 1e3;
  cudaDriverGetVersion(&info.driver_version);
  cudaRuntimeGetVersion(&info.runtime_version);
}

// The DRAM ceiling of the roofline: a device-to-device copy far larger than L2, counting the bytes
// read and the bytes written, median of 10 after 2 warm-ups.
double Harness::Impl::measure_copy_gbs() {
  const size_t bytes = size_t(std::min<int64_t>(int64_t(1) << 30, info.global_memory_bytes / 8));
  DeviceBuffer src(bytes), dst(bytes);
  check_cuda(cudaMemsetAsync(src.get(), 1, bytes, stream), "cudaMemset");
  std::vector<double> ms;
  for (int i = 0; i < 12; ++i) {
    check_cuda(cudaEventRecord(start, stream), "cudaEventRecord");
    check_cuda(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, stream),
               "device-to-device copy");
    check_cuda(cudaEventRecord(stop, stream), "cudaEventRecord");
    check_cuda(cudaEventSynchronize(stop), "device-to-device copy");
    float t = 0;
    check_cuda(cudaEventElapsedTime(&t, start, stop), "cudaEventElapsedTime");
    if (i >= 2)
      ms.push_back(t);
  }
  return 2.0 * double(bytes) / (median_of(ms) * 1e-3) / 1e9;
}

Harness::Harness(int device) : m_impl(std::make_unique<Impl>()) {
  std::string why;
  if (!device_available(&why))
    throw NoDeviceError("no CUDA device: " + why);
  Impl &s = *m_impl;
  s.device = device;
  check_cuda(cudaSetDevice(device), "cudaSetDevice");
  s.describe_device();
  check_cuda(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking), "cudaStreamCreate");
  check_cuda(cudaEventCreate(&s.start), "cudaEventCreate");
  check_cuda(cudaEventCreate(&s.stop), "cudaEventCreate");
  s.flush = DeviceBuffer(size_t(std::max<int64_t>(s.info.l2_bytes, 1 << 20)) * 2);
  check_cuda(
      cudaHostAlloc(reinterpret_cast<void **>(&s.host_flag), sizeof(int), cudaHostAllocMapped),
      "cudaHostAlloc");
  check_cuda(cudaHostGetDevicePointer(reinterpret_cast<void **>(&s.device_flag), s.host_flag, 0),
             "cudaHostGetDevicePointer");
  s.info.copy_gbs = s.measure_copy_gbs();
}

Harness::~Harness() {
  Impl &s = *m_impl;
  s.profiler.reset();
  detail::release_cublas();
  if (s.host_flag)
    cudaFreeHost(s.host_flag);
  if (s.start)
    cudaEventDestroy(s.start);
  if (s.stop)
    cudaEventDestroy(s.stop);
  if (s.stream)
    cudaStreamDestroy(s.stream);
}

const DeviceInfo &Harness::device() const { return m_impl->info; }

std::string Harness::counters_unavailable_reason() { return m_impl->counters().unavailable(); }

// One launch into a NaN-poisoned output, compared with the double-precision reference: the whole
// output for the stencil, up to 64 rows (first, last and random ones) for matmul, and every
// output element scanned for leftover poison.
CheckResult Harness::Impl::run_check(const BenchConfig &c, const detail::LaunchContext &ctx,
                                     const std::vector<double> &a, const std::vector<double> &b) {
  CheckResult r;
  r.ran = true;
  r.bound = error_bound(c.type, c.kernel);
  const size_t n_out = size_t(c.width * c.height), eb = size_t(elem_bytes(c.type));
  check_cuda(cudaMemsetAsync(ctx.out, 0xff, n_out * eb, stream), "poisoning the output");
  detail::launch(c, ctx, true);
  check_cuda(cudaGetLastError(), "launching the kernel");
  check_cuda(cudaStreamSynchronize(stream), "running the kernel");
  std::vector<uint8_t> raw(n_out * eb);
  check_cuda(cudaMemcpy(raw.data(), ctx.out, raw.size(), cudaMemcpyDeviceToHost),
             "copying the output back");
  for (size_t i = 0; i < n_out; ++i)
    if (!std::isfinite(from_storage(&raw[i * eb], c.type)))
      ++r.unwritten;

  std::vector<double> out, ref;
  if (is_stencil(c.kernel)) {
    ref = stencil_reference(a, c.width, c.height, c.stencil_w, c.stencil_h);
    out.resize(n_out);
    for (size_t i = 0; i < n_out; ++i)
      out[i] = from_storage(&raw[i * eb], c.type);
    r.note = "all outputs";
  } else {
    std::vector<int64_t> rows;
    if (c.height <= 64) {
      rows.resize(size_t(c.height));
      std::iota(rows.begin(), rows.end(), int64_t{0});
      r.note = "all outputs";
    } else {
      std::mt19937_64 rng(c.seed ^ 0x5eedull);
      std::uniform_int_distribution<int64_t> pick(1, c.height - 2);
      rows = {0, c.height - 1};
      while (rows.size() < 64)
        rows.push_back(pick(rng));
      r.note = "64 sampled rows; every output checked for NaN";
    }
    ref = matmul_reference_rows(a, b, c.width, c.effective_depth(), rows);
    out.reserve(ref.size());
    for (int64_t y : rows)
      for (int64_t x = 0; x < c.width; ++x)
        out.push_back(from_storage(&raw[size_t(y * c.width + x) * eb], c.type));
  }
  r.checked = int64_t(out.size());
  r.rel_error = relative_error(out, ref);
  r.passed = r.unwritten == 0 && r.rel_error <= r.bound;
  return r;
}

// nvbench's measurement: the blocking kernel holds the stream while the host enqueues the (cold:
// L2 flush,) start event, kernel and stop event, so launch latency is not timed; samples are taken
// until the noise target is met (after min_samples) or the time budget is spent.
void Harness::Impl::time(const BenchConfig &c, const detail::LaunchContext &ctx, BenchResult &r) {
  for (int i = 0; i < 3; ++i)
    detail::launch(c, ctx, true);
  check_cuda(cudaGetLastError(), "launching the kernel");
  check_cuda(cudaStreamSynchronize(stream), "warm-up");
  double total_ms = 0;
  while (int(r.samples_ms.size()) < c.max_samples) {
    *reinterpret_cast<volatile int *>(host_flag) = 0;
    detail::enqueue_wait_for_flag(device_flag, stream);
    if (c.cold)
      flush_l2();
    check_cuda(cudaEventRecord(start, stream), "cudaEventRecord");
    detail::launch(c, ctx, true);
    check_cuda(cudaEventRecord(stop, stream), "cudaEventRecord");
    std::atomic_thread_fence(std::memory_order_seq_cst);
    *reinterpret_cast<volatile int *>(host_flag) = 1;
    check_cuda(cudaEventSynchronize(stop), "a timed launch");
    float ms = 0;
    check_cuda(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    r.samples_ms.push_back(ms);
    total_ms += ms;
    if (int(r.samples_ms.size()) >= c.min_samples) {
      r.noise = noise_of(r.samples_ms, &r.mean_ms);
      r.noise_target_met = r.noise <= c.max_noise;
      if (r.noise_target_met || total_ms * 1e-3 >= c.max_seconds)
        break;
    }
  }
  r.noise = noise_of(r.samples_ms, &r.mean_ms);
  r.noise_target_met = r.noise <= c.max_noise;
  r.median_ms = median_of(r.samples_ms);
}

BenchResult Harness::measure(const BenchConfig &config) {
  validate(config);
  Impl &s = *m_impl;
  check_cuda(cudaSetDevice(s.device), "cudaSetDevice");
  BenchResult r;
  r.config = config;
  r.device = s.info;
  r.bytes = min_bytes(config);
  r.flops = flops(config);

  const BenchConfig &c = config;
  const bool stencil = is_stencil(c.kernel);
  const int64_t d = c.effective_depth();
  const size_t a_elems = size_t(stencil ? c.width * c.height : c.height * d);
  const size_t b_elems = stencil ? 0 : size_t(d * c.width);
  const size_t eb = size_t(elem_bytes(c.type));
  std::mt19937_64 rng(c.seed);
  const std::vector<double> a = random_values(a_elems, c.type, rng);
  const std::vector<double> b = random_values(b_elems, c.type, rng);
  DeviceBuffer a_dev(a_elems * eb), b_dev(b_elems * eb), out_dev(size_t(c.width * c.height) * eb);
  upload(a_dev, a, c.type);
  if (b_elems)
    upload(b_dev, b, c.type);
  // A pageable cudaMemcpy may return before its DMA lands, and the harness stream does not
  // synchronise with the legacy stream: wait here.
  check_cuda(cudaDeviceSynchronize(), "copying inputs to the device");

  detail::LaunchContext ctx;
  ctx.stream = s.stream;
  ctx.a = a_dev.get();
  ctx.b = b_dev.get();
  ctx.out = out_dev.get();

  const detail::LaunchInfo li = detail::launch(c, ctx, false);
  r.resources.name = li.name;
  r.resources.grid_blocks = int64_t(li.grid.x) * li.grid.y * li.grid.z;
  r.resources.block_threads = int(li.block.x * li.block.y * li.block.z);
  r.resources.dynamic_shared_bytes = int64_t(li.dynamic_shared_bytes);
  if (li.func) {
    cudaFuncAttributes attr{};
    check_cuda(cudaFuncGetAttributes(&attr, li.func), "cudaFuncGetAttributes");
    r.resources.known = true;
    r.resources.registers = attr.numRegs;
    r.resources.static_shared_bytes = int64_t(attr.sharedSizeBytes);
    r.resources.local_bytes = int64_t(attr.localSizeBytes);
    r.resources.max_threads_per_block = attr.maxThreadsPerBlock;
  }

  if (c.check)
    r.check = s.run_check(c, ctx, a, b);
  if (c.time)
    s.time(c, ctx, r);
  if (c.metrics)
    r.metrics = s.counters().collect([&] { s.flush_l2(); },
                                     [&] {
                                       detail::launch(c, ctx, true);
                                       check_cuda(cudaGetLastError(), "launching the kernel");
                                     });

  if (r.median_ms > 0) {
    r.gbs = r.bytes / (r.median_ms * 1e-3) / 1e9;
    r.gflops = r.flops / (r.median_ms * 1e-3) / 1e9;
  }
  // Roofline: the lower of the FP peak (double for double, else FP32: half accumulates in float)
  // and arithmetic intensity times the measured copy bandwidth.
  const double peak =
      c.type == ElemType::float64 ? s.info.fp64_gflops_peak : s.info.fp32_gflops_peak;
  const double memory_roof = (r.bytes > 0 ? r.flops / r.bytes : 0) * s.info.copy_gbs;
  r.bound = memory_roof < peak ? "memory" : "compute";
  r.roofline_gflops = std::min(peak, memory_roof);
  r.roofline_fraction = r.roofline_gflops > 0 ? r.gflops / r.roofline_gflops : 0;
  return r;
}

BenchResult measure(const BenchConfig &config) {
  static std::mutex mutex;
  static std::unique_ptr<Harness> harness;
  std::lock_guard<std::mutex> lock(mutex);
  if (!harness)
    harness = std::make_unique<Harness>(0);
  return harness->measure(config);
}

std::vector<int64_t> device_task_index(const remap::Order &order, int64_t width, int64_t height,
                                       int block_threads, remap::RemapMath math) {
  std::string why;
  if (!device_available(&why))
    throw NoDeviceError("no CUDA device: " + why);
  if (width * height > int64_t(INT32_MAX) || block_threads < 1 || block_threads > 1024)
    throw UsageError("--size", "device_task_index needs W*H < 2^31 and 1..1024 threads per block");
  const size_t n = size_t(width * height);
  DeviceBuffer out(n * sizeof(int));
  check_cuda(cudaMemset(out.get(), 0xff, n * sizeof(int)), "cudaMemset");
  detail::launch_task_probe(order, math, int(width), int(height), block_threads,
                            static_cast<int *>(out.get()), nullptr);
  check_cuda(cudaGetLastError(), "launching the task probe");
  std::vector<int> host(n);
  check_cuda(cudaMemcpy(host.data(), out.get(), n * sizeof(int), cudaMemcpyDeviceToHost),
             "copying the task indices back");
  return std::vector<int64_t>(host.begin(), host.end());
}

} // namespace cbi::kernels
