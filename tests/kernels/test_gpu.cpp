// The kernels on a real device: every kernel x order x type passes the CPU-reference check at odd
// sizes that exercise the edges, the device evaluates the same remap as the host, and timing and
// counters return sane values. Each test skips with the reason where no CUDA device exists.
#include "cbi/kernels/bench.hpp"
#include "cbi/order_text.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <memory>
#include <set>

namespace {

using namespace cbi::kernels;
using cbi::remap::parse_order;

#define SKIP_WITHOUT_DEVICE()                                                                      \
  do {                                                                                             \
    std::string why;                                                                               \
    if (!device_available(&why))                                                                   \
      GTEST_SKIP() << "no CUDA device: " << why;                                                   \
  } while (0)

Harness &harness() {
  static std::unique_ptr<Harness> h = std::make_unique<Harness>(0);
  return *h;
}

const char *const kOrders[] = {"linear", "column:32", "zigzag:8", "tile:8x4", "column:5"};
const ElemType kTypes[] = {ElemType::half, ElemType::float32, ElemType::float64};

BenchConfig check_only(KernelKind k, ElemType t, const char *order = "linear") {
  BenchConfig c;
  c.kernel = k;
  c.type = t;
  c.order = parse_order(order);
  c.time = false;
  return c;
}

void expect_pass(const BenchResult &r) {
  EXPECT_TRUE(r.check.ran);
  EXPECT_TRUE(r.check.passed) << r.config.describe() << ": rel error " << r.check.rel_error
                              << " (bound " << r.check.bound << "), unwritten "
                              << r.check.unwritten;
  EXPECT_EQ(r.check.unwritten, 0) << r.config.describe();
  EXPECT_GT(r.check.checked, 0);
}

TEST(Gpu, DeviceInfoIsSane) {
  SKIP_WITHOUT_DEVICE();
  const DeviceInfo &d = harness().device();
  EXPECT_FALSE(d.name.empty());
  EXPECT_GT(d.sms, 0);
  EXPECT_GT(d.l2_bytes, 0);
  EXPECT_GT(d.copy_gbs, 0);
  EXPECT_GT(d.fp32_gflops_peak, d.fp64_gflops_peak);
  // A copy cannot beat the memory interface by much; allow L2 effects and clock reporting slack.
  EXPECT_LT(d.copy_gbs, 1.5 * d.memory_gbs_theoretical);
}

TEST(Gpu, DeviceRemapIsTheHostRemap) {
  SKIP_WITHOUT_DEVICE();
  const int64_t w = 37, h = 23;
  for (const char *name : kOrders) {
    const cbi::remap::Order o = parse_order(name);
    for (auto math : {cbi::remap::RemapMath::div, cbi::remap::RemapMath::fast}) {
      const std::vector<int64_t> got = device_task_index(o, w, h, 64, math);
      ASSERT_EQ(got.size(), size_t(w * h));
      for (int64_t i = 0; i < w * h; ++i) {
        const auto t = o.map<int64_t>(i, {w, h});
        ASSERT_EQ(got[size_t(i)], t.y * w + t.x)
            << name << " " << cbi::remap::to_string(math) << " at " << i;
      }
      std::set<int64_t> seen(got.begin(), got.end());
      EXPECT_EQ(seen.size(), size_t(w * h)) << name << " is not a bijection on the device";
    }
  }
}

TEST(Gpu, StencilsPassEveryOrderAndType) {
  SKIP_WITHOUT_DEVICE();
  for (ElemType t : kTypes) {
    for (const char *o : kOrders)
      for (auto math : {cbi::remap::RemapMath::div, cbi::remap::RemapMath::fast})
        // 5x3: the run-time window; 9x9 and 3x3: compile-time windows.
        for (int s : {0, 9, 3}) {
          BenchConfig c = check_only(KernelKind::stencil, t, o);
          c.remap_math = math;
          c.width = 67;
          c.height = 45;
          c.stencil_w = s ? s : 5;
          c.stencil_h = s ? s : 3;
          c.block_threads = 96;
          expect_pass(harness().measure(c));
        }
    for (KernelKind k : {KernelKind::stencil_2d, KernelKind::stencil_smem})
      for (int s : {0, 11}) {
        BenchConfig c = check_only(k, t);
        c.width = 130; // not a multiple of the 64x32 smem tile
        c.height = 70;
        c.stencil_w = s ? s : 9;
        c.stencil_h = s ? s : 7;
        if (k == KernelKind::stencil_2d) {
          c.block_x = 16;
          c.block_threads = 128;
        }
        expect_pass(harness().measure(c));
      }
    // Block orders over the smem stencil's 4 x 5 tiles (partial ones on both edges).
    for (const char *bo : {"column:3", "zigzag:2", "tile:3x2"}) {
      BenchConfig c = check_only(KernelKind::stencil_smem, t);
      c.block_order = parse_order(bo);
      c.width = 200;
      c.height = 150;
      expect_pass(harness().measure(c));
    }
  }
}

TEST(Gpu, MatmulsPassEveryOrderAndType) {
  SKIP_WITHOUT_DEVICE();
  for (ElemType t : kTypes) {
    for (const char *o : kOrders) {
      BenchConfig c = check_only(KernelKind::matmul, t, o);
      c.width = 70;
      c.height = 90; // > 64 rows: the sampled-row path
      c.depth = 37;
      c.block_threads = 128;
      expect_pass(harness().measure(c));
    }
    BenchConfig c = check_only(KernelKind::cublas, t);
    c.width = 70;
    c.height = 33;
    c.depth = 45;
    expect_pass(harness().measure(c));
  }
  for (auto [w, h, d] :
       std::vector<std::array<int, 3>>{{256, 256, 256}, {130, 67, 29}, {1, 1, 1}, {520, 390, 64}}) {
    for (const char *bo : {"linear", "column:2", "tile:2x2", "zigzag:3"}) {
      BenchConfig c = check_only(KernelKind::sgemm_tiled, ElemType::float32);
      c.block_order = parse_order(bo);
      c.width = w;
      c.height = h;
      c.depth = d;
      expect_pass(harness().measure(c));
    }
  }
}

TEST(Gpu, TimingTakesAtLeastMinSamples) {
  SKIP_WITHOUT_DEVICE();
  BenchConfig c;
  c.width = c.height = 512;
  c.check = false;
  c.min_samples = 20;
  c.max_noise = 0; // never met: the time budget or max_samples stops it
  c.max_seconds = 0.01;
  c.max_samples = 200;
  for (bool cold : {false, true}) {
    c.cold = cold;
    const BenchResult r = harness().measure(c);
    EXPECT_GE(r.samples_ms.size(), 20u);
    EXPECT_LE(r.samples_ms.size(), 200u);
    EXPECT_GT(r.median_ms, 0);
    EXPECT_GE(*std::max_element(r.samples_ms.begin(), r.samples_ms.end()), r.median_ms);
    EXPECT_GT(r.gbs, 0);
    EXPECT_NEAR(r.gbs, r.bytes / (r.median_ms * 1e-3) / 1e9, 1e-9 * r.gbs);
    EXPECT_GT(r.roofline_fraction, 0);
    EXPECT_EQ(r.bound, "memory"); // a 9x9 float stencil is far below the FP32 ridge point
    EXPECT_TRUE(r.resources.known);
    EXPECT_GT(r.resources.registers, 0);
  }
}

TEST(Gpu, CountersAreReadOrExplained) {
  SKIP_WITHOUT_DEVICE();
  BenchConfig c;
  c.width = c.height = 1024;
  c.check = false;
  c.time = false;
  c.metrics = true;
  const BenchResult r = harness().measure(c);
  if (!r.metrics.available) {
    EXPECT_FALSE(r.metrics.why.empty());
    GTEST_SKIP() << "counters unavailable: " << r.metrics.why;
  }
  EXPECT_GE(r.metrics.l1_hit_pct, 0);
  EXPECT_LE(r.metrics.l1_hit_pct, 100);
  EXPECT_GE(r.metrics.l2_hit_pct, 0);
  EXPECT_LE(r.metrics.l2_hit_pct, 100);
  // 81 loads a task over 1024^2 tasks, 8 floats a sector: at least W*H*81/8 sector lookups.
  EXPECT_GE(r.metrics.l1_global_load_hits + r.metrics.l1_global_load_misses,
            1024.0 * 1024 * 81 / 8);
  // The input (4 MiB) comes from DRAM at least once after the L2 flush, give or take a little.
  EXPECT_GT(r.metrics.dram_read_bytes, 0.9 * 1024 * 1024 * 4);
  EXPECT_GT(r.metrics.l2_to_l1_sectors, 0);
}

} // namespace

namespace {

// The other side: without a device every entry point says so with NoDeviceError (exit 3 in the
// CLI), never a crash or a generic error. Runs on machines without a GPU, such as CI.
TEST(NoGpu, EntryPointsThrowNoDeviceError) {
  std::string why;
  if (device_available(&why))
    GTEST_SKIP() << "a CUDA device is present; this checks the no-device path";
  EXPECT_FALSE(why.empty());
  EXPECT_THROW(Harness h(0), NoDeviceError);
  BenchConfig c;
  c.width = c.height = 64;
  EXPECT_THROW(measure(c), NoDeviceError);
  EXPECT_THROW(device_task_index(parse_order("column:8"), 16, 16, 64), NoDeviceError);
}

} // namespace
