// The sweep's gpu backend: each point becomes a kernels::BenchConfig measured by one long-lived
// Harness (device set-up, cuBLAS handle, L2 flush buffer and profiler are paid once per sweep).
// Built against the kernels library when it exists (CBI_HAVE_KERNELS); otherwise it reports that
// the build has no GPU side, which the CLI turns into exit code 3.
#include "runner.hpp"

#ifdef CBI_HAVE_KERNELS
#include "cbi/kernels/bench.hpp"
#endif

namespace cbi::sweep {

#ifdef CBI_HAVE_KERNELS

namespace {

class KernelsBackend final : public GpuBackend {
public:
  explicit KernelsBackend(const GpuSettings &s) : m_settings(s) {}

  std::string device() const override {
    const kernels::DeviceInfo &d = m_harness.device();
    return d.name + " (sm_" + std::to_string(d.cc_major) + std::to_string(d.cc_minor) + ", " +
           std::to_string(d.sms) + " SMs)";
  }

  GpuMeasurement measure(const Point &p, bool metrics) override {
    kernels::BenchConfig c = bench_config(p);
    c.check = m_settings.check;
    c.metrics = metrics;
    c.cold = m_settings.cold;
    c.min_samples = m_settings.min_samples;
    c.max_seconds = m_settings.max_seconds;
    c.max_noise = m_settings.max_noise;
    kernels::validate(c);
    const kernels::BenchResult r = m_harness.measure(c);
    GpuMeasurement m;
    m.time_ms = r.median_ms;
    m.noise = r.noise;
    m.gbs = r.gbs;
    m.samples = static_cast<int64_t>(r.samples_ms.size());
    m.check_ran = r.check.ran;
    m.check_passed = r.check.passed;
    m.rel_error = r.check.rel_error;
    m.metrics = r.metrics.available;
    m.l1_hit_pct = r.metrics.l1_hit_pct;
    m.l2_hit_pct = r.metrics.l2_hit_pct;
    m.l2_to_l1_bytes = 32.0 * r.metrics.l2_to_l1_sectors; // 32 B sectors
    m.dram_read_bytes = r.metrics.dram_read_bytes;
    m.l1_hit_sectors = r.metrics.l1_global_load_hits;
    m.l1_miss_sectors = r.metrics.l1_global_load_misses;
    m.l2_to_l1_sectors = r.metrics.l2_to_l1_sectors;
    return m;
  }

private:
  GpuSettings m_settings;
  kernels::Harness m_harness;
};

} // namespace

bool gpu_backend_built() { return true; }

std::unique_ptr<GpuBackend> make_gpu_backend(const GpuSettings &s) {
  std::string why;
  if (!kernels::device_available(&why))
    throw GpuUnavailable("no usable CUDA device: " + why);
  try {
    return std::make_unique<KernelsBackend>(s);
  } catch (const kernels::NoDeviceError &e) {
    throw GpuUnavailable(std::string("no usable CUDA device: ") + e.what());
  }
}

#else

bool gpu_backend_built() { return false; }

std::unique_ptr<GpuBackend> make_gpu_backend(const GpuSettings &) {
  throw GpuUnavailable("this build has no CUDA kernels (the kernels library was not built), so "
                       "there is no gpu backend; use --backend sim");
}

#endif

} // namespace cbi::sweep
