// The one-pass miss-ratio curve must equal a separate fully associative LRU simulation at every
// size.
#include "cbi/sim/mrc.hpp"
#include "cbi/sim/user_workload.hpp"
#include "cbi/sim/workloads/user.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

using namespace cbi::sim;

namespace {

void expect_curve_matches(SimConfig c, std::initializer_list<int64_t> sizes) {
  const MissRatioCurve curve = miss_ratio_curve(c);
  for (int64_t lines : sizes) {
    SimConfig one = c;
    one.levels = {CacheConfig{c.levels[0].line_bytes, lines, 0, Policy::lru}};
    const SimResult r = simulate(one);
    EXPECT_EQ(curve.misses(lines), r.levels[0].misses)
        << c.workload.describe() << " " << cbi::remap::to_string(c.order) << " lines=" << lines;
    EXPECT_EQ(curve.accesses, r.levels[0].accesses);
  }
}

} // namespace

TEST(Mrc, StencilOrdersAgreeWithSimulation) {
  SimConfig c;
  c.workload.width = 96;
  c.workload.height = 40;
  c.workload.stencil_w = c.workload.stencil_h = 5;
  c.levels = {CacheConfig{16, 1, 0, Policy::lru}};
  for (const char *order : {"linear", "column:8", "zigzag:7", "tile:16x4"}) {
    c.order = cbi::remap::parse_order(order);
    expect_curve_matches(c, {1, 2, 3, 7, 24, 50, 100, 127, 200, 1000, 5000});
  }
}

TEST(Mrc, BoundaryNoneThreadGranularityAndWrites) {
  SimConfig c;
  c.workload.width = 33;
  c.workload.height = 17;
  c.workload.boundary = Boundary::none;
  c.workload.writes = true;
  c.granularity = Granularity::thread;
  c.levels = {CacheConfig{32, 1, 0, Policy::lru}};
  c.order = cbi::remap::parse_order("column:4");
  expect_curve_matches(c, {1, 4, 24, 33, 80, 400});
}

TEST(Mrc, MatmulAgreesWithSimulation) {
  SimConfig c;
  c.workload.kind = kind_of<MatmulWorkload>();
  c.workload.width = 48;
  c.workload.height = 20;
  c.workload.depth = 36;
  c.levels = {CacheConfig{64, 1, 0, Policy::lru}};
  for (const char *order : {"linear", "column:16"}) {
    c.order = cbi::remap::parse_order(order);
    expect_curve_matches(c, {1, 2, 16, 40, 64, 100, 300, 2000});
  }
}

TEST(Mrc, CompactionKeepsDistancesExact) {
  // Many more accesses than 4x the distinct lines forces several renumberings of the time axis.
  SimConfig c;
  c.workload.width = 300;
  c.workload.height = 300;
  c.workload.stencil_w = c.workload.stencil_h = 9;
  c.levels = {CacheConfig{4, 1, 0, Policy::lru}};
  expect_curve_matches(c, {5, 9, 300, 2700, 2710, 3000});
}

TEST(Mrc, CurveIsMonotoneAndEndsAtColdMisses) {
  SimConfig c;
  c.workload.width = 64;
  c.workload.height = 64;
  c.levels = {CacheConfig{16, 1, 0, Policy::lru}};
  const MissRatioCurve curve = miss_ratio_curve(c);
  EXPECT_EQ(curve.distinct_units(), 64 * 64 * 4 / 16);
  for (int64_t lines = 1; lines < 2000; ++lines)
    ASSERT_LE(curve.misses(lines + 1), curve.misses(lines));
  EXPECT_EQ(curve.misses(1 << 20), curve.cold_misses);
}

TEST(Mrc, RejectsSectoredAndMultiLevel) {
  SimConfig c;
  c.levels = {CacheConfig{128, 8, 0, Policy::lru, 32}};
  EXPECT_THROW(miss_ratio_curve(c), cbi::UsageError);
  c.levels = {CacheConfig{16, 8}, CacheConfig{16, 64}};
  EXPECT_THROW(miss_ratio_curve(c), cbi::UsageError);
}

namespace {

// Four tasks, one 128-byte lane each, 2^40 bytes apart and 8 bytes past a line's start: each
// access straddles 9 lines of 16 bytes, and the span is sparse.
struct WideLanes : UserWorkload {
  std::string describe() const override { return "wide lanes"; }
  std::vector<int64_t> task_dims() const override { return {4}; }
  int64_t instructions() const override { return 1; }
  InstructionKind addresses(const cbi::remap::Task<int64_t> *tasks, int lanes, int64_t,
                            uint64_t *byte_addr) const override {
    for (int l = 0; l < lanes; ++l)
      byte_addr[l] = (uint64_t(tasks[l].x) << 40) + 8;
    return {false, 128};
  }
  int64_t footprint_bytes() const override { return (int64_t{3} << 40) + 8 + 128; }
};

} // namespace

// mrc_state_bytes assumed two lines an access: 128-byte lanes in 16-byte lines touch 9, and the
// memory check before the pass (88 B a line touched, sparse) was 3.6 times low.
TEST(Mrc, TheMemoryBoundCountsEveryLineAWideAccessTouches) {
  SimConfig c;
  c.workload = make_workload(std::make_shared<WideLanes>());
  c.levels = {CacheConfig{16, 1, 0, Policy::lru}};
  ASSERT_TRUE(mrc_sparse(c));
  EXPECT_EQ(mrc_lines_per_access(c), 9);
  const MissRatioCurve curve = miss_ratio_curve(c);
  EXPECT_EQ(curve.distinct_units(), 36);
  EXPECT_GE(mrc_state_bytes(c), 88.0 * double(curve.distinct_units()));
  // A built-in workload's 4-byte elements: 2 lines at most, as before.
  SimConfig stencil;
  stencil.levels = {CacheConfig{16, 1, 0, Policy::lru}};
  EXPECT_EQ(mrc_lines_per_access(stencil), 2);
}
