// Model versus simulation where the model's assumptions hold (fully associative LRU, aligned
// windows), and the model's notes where they do not (set conflicts).
#include "cbi/sim/model.hpp"

#include <gtest/gtest.h>

using namespace cbi::sim;

namespace {

SimConfig stencil_1024(int64_t ways) {
  SimConfig c;
  c.workload.width = c.workload.height = 1024;
  c.workload.stencil_w = c.workload.stencil_h = 9;
  c.levels = {CacheConfig{128, 256, ways, Policy::lru}}; // 32 KiB
  return c;
}

bool has_note(const LevelModel &m, const std::string &needle) {
  for (const std::string &n : m.notes)
    if (n.find(needle) != std::string::npos)
      return true;
  return false;
}

} // namespace

TEST(Model, IssueExampleFullyAssociativeRespectsRowReuseBound) {
  const SimConfig c = stencil_1024(0);
  const ModelReport m = analyze_model(c);
  ASSERT_EQ(m.levels.size(), 1u);
  EXPECT_EQ(m.levels[0].fetch_kind, FetchKind::upper_bound);
  EXPECT_DOUBLE_EQ(m.levels[0].fetches, 33.0 * 1024 * 9); // eq. 3.2 fails: 297 > 256 lines
  const SimResult r = simulate(c);
  EXPECT_EQ(r.levels[0].misses, 293104);
  EXPECT_LE(double(r.levels[0].fetches), m.levels[0].fetches);
  EXPECT_FALSE(has_note(m.levels[0], "set conflicts"));
}

TEST(Model, IssueExampleEightWayShowsSetConflicts) {
  const SimConfig c = stencil_1024(8);
  const ModelReport m = analyze_model(c);
  EXPECT_EQ(max_lines_per_set(c, 0), 9);
  EXPECT_TRUE(has_note(m.levels[0], "set conflicts"));
  EXPECT_TRUE(has_note(m.levels[0], "4096-byte row pitch"));
  EXPECT_EQ(simulate(c).levels[0].misses, 11371328);
}

TEST(Model, NaiveWithEnoughCacheMeetsEq32Estimate) {
  // eq. 3.2 holds: every line is fetched about once; the model's ceil((I_w+S_w)/L) per row is an
  // overestimate by at most the S_w/L extra line per row, and never below the compulsory misses.
  for (int64_t n : {64, 128, 200}) {
    SimConfig c;
    c.workload.width = c.workload.height = n;
    c.workload.stencil_w = c.workload.stencil_h = 5;
    c.levels = {CacheConfig{64, 4096, 0, Policy::lru}};
    const ModelReport m = analyze_model(c);
    ASSERT_EQ(m.levels[0].fetch_kind, FetchKind::estimate);
    const double F = m.levels[0].fetches;
    const int64_t fetched = simulate(c).levels[0].fetches;
    EXPECT_LE(double(fetched), F);
    EXPECT_GE(fetched, (n * n * 4 + 63) / 64); // compulsory: every line of the input once
  }
}

namespace {
double quantity(const LevelModel &m, const std::string &symbol) {
  for (const ModelQuantity &q : m.quantities)
    if (q.symbol == symbol)
      return q.value;
  ADD_FAILURE() << "no quantity " << symbol;
  return 0;
}
} // namespace

TEST(Model, ColumnFetchesRespectEq48WhenTheColumnFits) {
  // Where the column's window rows fit in ceil((c+S_w)/L) lines (c = 8, L = 16, S_w = 9), eq. 4.8
  // bounds the simulation as printed.
  SimConfig c;
  c.workload.width = c.workload.height = 512;
  c.workload.stencil_w = c.workload.stencil_h = 9;
  c.levels = {CacheConfig{64, 256, 0, Policy::lru}}; // 16 KiB fully associative
  c.order = cbi::remap::parse_order("column:8");
  ModelReport m = analyze_model(c);
  ASSERT_EQ(m.levels[0].fetch_kind, FetchKind::upper_bound);
  EXPECT_LE(double(simulate(c).levels[0].fetches), m.levels[0].fetches);
  EXPECT_FALSE(has_note(m.levels[0], "straddles"));
  // Wider columns start line-aligned, so each window row straddles one line more than eq. 4.8
  // counts: the model says so, and its straddle-corrected bound holds.
  for (int64_t width : {16, 32, 64, 128}) {
    c.order = cbi::remap::parse_order("column:" + std::to_string(width));
    m = analyze_model(c);
    const int64_t fetched = simulate(c).levels[0].fetches;
    EXPECT_TRUE(has_note(m.levels[0], "straddles")) << width;
    EXPECT_GT(double(fetched), m.levels[0].fetches) << width;
    EXPECT_LE(double(fetched), quantity(m.levels[0], "F'")) << "column:" << width;
  }
}

TEST(Model, TileFetchesRespectEq35) {
  for (int64_t t : {16, 32, 64}) {
    SimConfig c;
    c.workload.width = c.workload.height = 256;
    c.workload.stencil_w = c.workload.stencil_h = 7;
    c.order = cbi::remap::parse_order("tile:" + std::to_string(t));
    c.levels = {CacheConfig{64, 512, 0, Policy::lru}};
    const ModelReport m = analyze_model(c);
    EXPECT_LE(double(simulate(c).levels[0].fetches), m.levels[0].fetches) << "tile:" << t;
  }
}

TEST(Model, MatmulEq310WhenAllOfBFits) {
  SimConfig c;
  c.workload.kind = kind_of<MatmulWorkload>();
  c.workload.width = c.workload.height = c.workload.depth = 64;
  c.levels = {CacheConfig{128, 1024, 0, Policy::lru}}; // 128 KiB > A row + all of B
  const ModelReport m = analyze_model(c);
  ASSERT_EQ(m.levels[0].fetch_kind, FetchKind::estimate);
  EXPECT_NE(m.levels[0].fetch_equation.find("3.10"), std::string::npos);
  // eq. 3.10 counts A once and B once: exactly the compulsory misses for aligned sizes.
  EXPECT_DOUBLE_EQ(double(simulate(c).levels[0].fetches), m.levels[0].fetches);
}

TEST(Model, MatmulColumnEstimateWhenTheBlockFits) {
  SimConfig c;
  c.workload.kind = kind_of<MatmulWorkload>();
  c.workload.width = c.workload.height = c.workload.depth = 256;
  c.order = cbi::remap::parse_order("column:32");
  c.levels = {CacheConfig{128, 512, 0, Policy::lru}}; // 64 KiB
  const ModelReport m = analyze_model(c);
  ASSERT_EQ(m.levels[0].fetch_kind, FetchKind::estimate);
  EXPECT_DOUBLE_EQ(double(simulate(c).levels[0].fetches), m.levels[0].fetches);
  EXPECT_EQ(m.suggested_column_width, 64); // §4.4: c = M_size / (u D) = 65536 / (4 * 256)
}

TEST(Model, SuggestedStencilColumnWidthFollowsSection43) {
  SimConfig c;
  c.workload.stencil_w = c.workload.stencil_h = 9;
  c.levels = {CacheConfig{128, 256, 0, Policy::lru}};
  // c = (M_size - u (S_h S_w + t)) / (S_h u) = (32768 - 4 (81 + 32)) / 36 = 897.7
  EXPECT_EQ(analyze_model(c, 32).suggested_column_width, 897);
}
