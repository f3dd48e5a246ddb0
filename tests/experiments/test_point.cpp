// The typed experiment point and axes: spellings round-trip, axes that do not apply to a kernel
// are absent (not placeholder strings), point keys are stable, and the point's simulator and
// kernel configurations carry its values.
#include "grids.hpp"
#include "sweep.hpp"

#include <gtest/gtest.h>

namespace {

using namespace cbi;
using namespace cbi::sweep;

TEST(Point, AxesThatDoNotApplyAreAbsent) {
  Grid g = default_grid();
  g.set("kernel", {"matmul", "cublas", "stencil-2d"});
  g.set("order", {"tile:16x4"});
  g.set("depth", {"64"});
  const std::vector<Point> points = expand(g);
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[0].kernel, kernels::KernelKind::matmul);
  EXPECT_FALSE(points[0].stencil);
  EXPECT_EQ(points[0].depth, std::optional<int64_t>(64));
  ASSERT_TRUE(points[0].order);
  EXPECT_EQ(remap::to_string(*points[0].order), "tile:16x4");
  EXPECT_FALSE(points[1].order) << "cublas takes no order";
  EXPECT_FALSE(points[2].depth) << "stencil-2d has no depth";
  EXPECT_FALSE(points[2].order);
  ASSERT_TRUE(points[2].stencil);
  EXPECT_EQ(points[2].stencil->w, 9);
}

TEST(Point, KeyIsCanonicalAndStable) {
  Grid g = default_grid();
  g.set("size", {"64x32", "128x128"});
  g.set("order", {"naive", "column:32"});
  const std::vector<Point> points = expand(g);
  ASSERT_EQ(points.size(), 4u);
  EXPECT_EQ(points[0].key(), "kernel=stencil size=64x32 stencil=9x9 depth=- type=float block=256 "
                             "order=linear cache=l1-64k");
  EXPECT_EQ(points[3].key(), "kernel=stencil size=128 stencil=9x9 depth=- type=float block=256 "
                             "order=column:32 cache=l1-64k");
  // FNV-1a 64 of the key, as the CSVs of earlier sweeps carry it (--resume depends on it).
  EXPECT_EQ(points[0].id().size(), 16u);
  EXPECT_NE(points[0].id(), points[1].id());
}

TEST(Point, EqualPointsAfterDroppingAxesAreKeptOnce) {
  Grid g = default_grid();
  g.set("kernel", {"cublas"});
  g.set("order", {"linear", "column:32", "column:64"}); // cublas takes no order
  g.set("stencil", {"3x3", "9x9"});                     // nor a stencil
  EXPECT_EQ(expand(g).size(), 1u);
}

TEST(Point, BadValuesNameTheAxisOption) {
  Grid g = default_grid();
  for (const auto &[axis, value] :
       std::vector<std::pair<std::string, std::string>>{{"stencil", "4x4"},
                                                        {"block", "16"},
                                                        {"order", "spiral:3"},
                                                        {"type", "int"},
                                                        {"kernel", "fft"},
                                                        {"size", "0"}}) {
    try {
      g.set(axis, {value});
      ADD_FAILURE() << axis << "=" << value << " was accepted";
    } catch (const UsageError &e) {
      EXPECT_EQ(e.option(), "--" + axis);
    }
  }
  EXPECT_THROW(g.set("colour", {"red"}), UsageError);
}

TEST(Point, ConfigurationsCarryThePointsValues) {
  Grid g = default_grid();
  g.set("kernel", {"matmul"});
  g.set("size", {"128x64"});
  g.set("type", {"double"});
  g.set("block", {"512"});
  g.set("order", {"column:8"});
  g.set("cache", {"table3"});
  const Point p = expand(g).at(0);
  const std::optional<sim::SimConfig> s = sim_config(p);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->workload.kind, sim::WorkloadKind::matmul);
  EXPECT_EQ(s->workload.width, 128);
  EXPECT_EQ(s->workload.height, 64);
  EXPECT_EQ(s->workload.depth, 128) << "depth 0 means I_w";
  EXPECT_EQ(s->workload.elem_bytes, 8);
  ASSERT_EQ(s->levels.size(), 1u);
  EXPECT_EQ(s->levels[0].capacity_lines, 32) << "Table 3.2's cache for matmul";
  EXPECT_EQ(remap::to_string(s->order), "column:8");
  const kernels::BenchConfig b = bench_config(p);
  EXPECT_EQ(b.kernel, kernels::KernelKind::matmul);
  EXPECT_EQ(b.block_threads, 512);
  EXPECT_EQ(b.type, kernels::ElemType::float64);
  EXPECT_EQ(remap::to_string(b.order), "column:8");

  g.set("kernel", {"sgemm-tiled"});
  EXPECT_FALSE(sim_config(expand(g).at(0))) << "the simulator does not model sgemm-tiled";
}

TEST(Point, EveryThesisGridPointIsARunnableKernelConfiguration) {
  // What the GPU backend does before it touches the device: bench_config + kernels::validate.
  for (const auto &[name, what] : grid_list())
    for (const char *suffix : {"", "-half", "-double"}) {
      if (name == "fig5.1b" && std::string(suffix) == "-half")
        continue; // runnable too, kept short
      for (const Point &p : expand(thesis_grid(name + suffix))) {
        const kernels::BenchConfig c = bench_config(p);
        EXPECT_NO_THROW(kernels::validate(c)) << name << suffix << " " << p.key();
        EXPECT_EQ(c.width, p.size.w);
        EXPECT_EQ(c.block_threads, p.block_threads);
      }
    }
  // The last axis varies fastest: point 1 is the second order (column:4) at the first block.
  const Point p = expand(thesis_grid("fig5.1a")).at(1);
  EXPECT_EQ(bench_config(p).describe(), "stencil 9x9 on 4096x4096 float, order column:4, block 32");
}

} // namespace
