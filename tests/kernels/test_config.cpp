// Bench configurations: names round-trip, invalid configurations name their field, and the work
// counted for GB/s and GFLOP/s follows the documented formulas.
#include "cbi/kernels/config.hpp"

#include "cbi/error.hpp"
#include "cbi/order_text.hpp"

#include <gtest/gtest.h>

#include <functional>

namespace {

using namespace cbi::kernels;

std::string failing_option(const BenchConfig &c) {
  try {
    validate(c);
  } catch (const cbi::UsageError &e) {
    return e.option();
  }
  return "";
}

TEST(Config, KernelAndTypeNamesRoundTrip) {
  for (KernelKind k : {KernelKind::stencil, KernelKind::stencil_2d, KernelKind::stencil_smem,
                       KernelKind::matmul, KernelKind::sgemm_tiled, KernelKind::cublas})
    EXPECT_EQ(parse_kernel(to_string(k)), k);
  for (ElemType t : {ElemType::half, ElemType::float32, ElemType::float64})
    EXPECT_EQ(parse_type(to_string(t)), t);
  EXPECT_THROW(parse_kernel("stencil_tile"), cbi::UsageError);
  EXPECT_THROW(parse_type("bf16"), cbi::UsageError);
  EXPECT_EQ(elem_bytes(ElemType::half), 2);
  EXPECT_EQ(elem_bytes(ElemType::float32), 4);
  EXPECT_EQ(elem_bytes(ElemType::float64), 8);
}

TEST(Config, DefaultsAreValid) {
  BenchConfig c;
  EXPECT_EQ(failing_option(c), "");
  EXPECT_EQ(c.stencil_w, 9);
  EXPECT_GE(c.min_samples, 20);
  EXPECT_TRUE(c.check);
}

TEST(Config, InvalidConfigurationsNameTheirOption) {
  const std::vector<std::pair<std::function<void(BenchConfig &)>, std::string>> cases = {
      {[](BenchConfig &c) { c.stencil_w = 8; }, "kernel.stencil"},
      {[](BenchConfig &c) { c.stencil_h = 0; }, "kernel.stencil"},
      {[](BenchConfig &c) {
         c.kernel = KernelKind::stencil_smem;
         c.stencil_w = 67;
       },
       "kernel.stencil"},
      {[](BenchConfig &c) { c.block_threads = 0; }, "kernel.block"},
      {[](BenchConfig &c) { c.block_threads = 2048; }, "kernel.block"},
      {[](BenchConfig &c) {
         c.kernel = KernelKind::sgemm_tiled;
         c.block_threads = 128;
       },
       "kernel.block"},
      {[](BenchConfig &c) {
         c.kernel = KernelKind::stencil_2d;
         c.block_x = 48;
       },
       "kernel.block"},
      {[](BenchConfig &c) {
         c.kernel = KernelKind::sgemm_tiled;
         c.type = ElemType::half;
       },
       "kernel.type"},
      {[](BenchConfig &c) {
         c.kernel = KernelKind::cublas;
         c.order = cbi::remap::parse_order("column:32");
       },
       "kernel.order"},
      {[](BenchConfig &c) {
         c.width = 65536;
         c.height = 65536;
       },
       "kernel.size"},
      {[](BenchConfig &c) {
         c.kernel = KernelKind::matmul;
         c.depth = int64_t(1) << 20;
       },
       "kernel.depth"},
      {[](BenchConfig &c) {
         c.kernel = KernelKind::stencil;
         c.block_order = cbi::remap::parse_order("column:4");
       },
       "kernel.block_order"},
      {[](BenchConfig &c) {
         // listing 5's I_h * w = 65536 * 65536 overflows 32 bits; fast math clamps w first.
         c.width = 16;
         c.height = 65536;
         c.order = cbi::remap::parse_order("column:65536");
         c.remap_math = cbi::remap::RemapMath::div;
       },
       "kernel.remap_math"},
      {[](BenchConfig &c) { c.min_samples = 0; }, "kernel.min_samples"},
      {[](BenchConfig &c) { c.max_seconds = 0; }, "kernel.max_noise"},
  };
  for (const auto &[mutate, option] : cases) {
    BenchConfig c;
    mutate(c);
    EXPECT_EQ(failing_option(c), option) << c.describe();
  }
  BenchConfig ok;
  ok.kernel = KernelKind::matmul;
  ok.order = cbi::remap::parse_order("zigzag:16");
  ok.type = ElemType::half;
  ok.block_threads = 1024;
  EXPECT_EQ(failing_option(ok), "");
  ok.width = 16;
  ok.height = 65536;
  ok.order = cbi::remap::parse_order("column:65536"); // fast math clamps w to I_w first
  EXPECT_EQ(failing_option(ok), "");
  BenchConfig blocks;
  blocks.kernel = KernelKind::sgemm_tiled;
  blocks.block_order = cbi::remap::parse_order("tile:8x8");
  EXPECT_EQ(failing_option(blocks), "");
}

TEST(Config, WorkCounts) {
  BenchConfig s; // 4096x4096 float, 9x9
  EXPECT_DOUBLE_EQ(min_bytes(s), 2.0 * 4096 * 4096 * 4);
  EXPECT_DOUBLE_EQ(flops(s), 4096.0 * 4096 * 81);
  s.type = ElemType::half;
  s.stencil_w = 3;
  EXPECT_DOUBLE_EQ(min_bytes(s), 2.0 * 4096 * 4096 * 2);
  EXPECT_DOUBLE_EQ(flops(s), 4096.0 * 4096 * 27);

  BenchConfig m;
  m.kernel = KernelKind::matmul;
  m.width = 300;  // I_w
  m.height = 200; // I_h
  m.depth = 50;   // D
  m.type = ElemType::float64;
  EXPECT_DOUBLE_EQ(min_bytes(m), (200.0 * 50 + 50.0 * 300 + 200.0 * 300) * 8);
  EXPECT_DOUBLE_EQ(flops(m), 2.0 * 300 * 200 * 50);
  m.depth = 0; // D defaults to I_w
  EXPECT_EQ(m.effective_depth(), 300);
}

TEST(Config, DescribeNamesTheConfiguration) {
  BenchConfig c;
  c.order = cbi::remap::parse_order("column:32");
  EXPECT_EQ(c.describe(), "stencil 9x9 on 4096x4096 float, order column:32, block 256");
  c.remap_math = cbi::remap::RemapMath::div;
  EXPECT_EQ(c.describe(), "stencil 9x9 on 4096x4096 float, order column:32 (div math), block 256");
  BenchConfig g;
  g.kernel = KernelKind::sgemm_tiled;
  g.block_order = cbi::remap::parse_order("column:8");
  EXPECT_EQ(g.describe(),
            "sgemm-tiled on 4096x4096 (D=4096) float, block order column:8, block 256");
  c.kernel = KernelKind::cublas;
  c.order = {};
  c.type = ElemType::float64;
  EXPECT_EQ(c.describe(), "cublas on 4096x4096 (D=4096) double");
}

} // namespace
