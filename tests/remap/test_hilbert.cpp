// The hilbert order (remap/include/cbi/remap/orders/hilbert.hpp), added as one header and its
// registry entry: the curve itself, its tiles on grids that are not powers of two, its parsing,
// and the traits every registered order declares.
#include "cbi/order_text.hpp"
#include "cbi/remap/order.hpp"

#include "remap_bijection.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

using namespace cbi::remap;

namespace {

using cbi::test::expect_bijection;

TEST(Hilbert, TheCurveOfSideFour) {
  // The standard order of the 4x4 Hilbert curve: it starts at (0,0) and ends at (3,0).
  const int expected[16][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 2}, {0, 3}, {1, 3}, {1, 2},
                               {2, 2}, {2, 3}, {3, 3}, {3, 2}, {3, 1}, {2, 1}, {2, 0}, {3, 0}};
  const Order o = parse_order("hilbert:4");
  for (int i = 0; i < 16; ++i) {
    const Task<int> t = o.map(i, Shape<int>{4, 4});
    EXPECT_EQ(t.x, expected[i][0]) << i;
    EXPECT_EQ(t.y, expected[i][1]) << i;
  }
}

TEST(Hilbert, ConsecutiveThreadsAreNeighboursOnAPowerOfTwoGrid) {
  for (int64_t n : {2, 8, 64, 256}) {
    const Order o = Order::of(Hilbert{n});
    const Shape<int64_t> s{n, n};
    for (int64_t i = 1; i < n * n; ++i) {
      const Task<int64_t> a = o.map(i - 1, s), b = o.map(i, s);
      ASSERT_EQ(std::llabs(a.x - b.x) + std::llabs(a.y - b.y), 1) << n << " i=" << i;
    }
  }
}

TEST(Hilbert, AnyGridIsABijectionAndParamsMatch) {
  // Tiles cut by the edges (37 is not a multiple of 8) run row-major, as tile:S.
  for (auto [w, h] : std::vector<std::pair<int64_t, int64_t>>{
           {1, 1}, {37, 23}, {64, 64}, {100, 3}, {3, 100}, {16, 48}, {5, 5}})
    for (const char *spec : {"hilbert:1", "hilbert:2", "hilbert:8", "hilbert:64", "hilbert:128"}) {
      const Order o = parse_order(spec);
      expect_bijection(o, w, h);
      visit(o, [&](auto order) {
        const Shape<int> s{int(w), int(h)};
        const typename decltype(order)::Params p(order, s);
        for (int i = 0; i < w * h; ++i) {
          const Task<int> exact = order.map(i, s), fast = p.map(i);
          ASSERT_EQ(fast.x, exact.x) << spec;
          ASSERT_EQ(fast.y, exact.y) << spec;
        }
      });
    }
  // An edge tile is row-major inside: on 6x6 with hilbert:4 the tile at x 4..5 runs (4,0), (5,0).
  const Order o = parse_order("hilbert:4");
  const Task<int> a = o.map(16, Shape<int>{6, 6}), b = o.map(17, Shape<int>{6, 6});
  EXPECT_EQ(a.x, 4);
  EXPECT_EQ(a.y, 0);
  EXPECT_EQ(b.x, 5);
  EXPECT_EQ(b.y, 0);
}

TEST(Hilbert, ParsesOnlyPowersOfTwo) {
  EXPECT_EQ(to_string(parse_order("hilbert:16")), "hilbert:16");
  EXPECT_EQ(parse_order("hilbert:16").kind, OrderKind::hilbert);
  for (const char *bad : {"hilbert:3", "hilbert:12", "hilbert:0", "hilbert", "hilbert:4x4"})
    EXPECT_THROW(parse_order(bad), cbi::UsageError) << bad;
  try {
    parse_order("hilbert:12", "--order");
    ADD_FAILURE();
  } catch (const cbi::UsageError &e) {
    EXPECT_EQ(e.option(), "--order");
    EXPECT_NE(std::string(e.what()).find("power of two"), std::string::npos) << e.what();
  }
}

// The traits that replaced the switches on the kind (dispatch.hpp checks that every registered
// order declares them; these check what they say).
TEST(OrderTraits, EachOrderDescribesItself) {
  EXPECT_STREQ(group_name(parse_order("linear")), "task rows");
  EXPECT_STREQ(group_name(parse_order("zigzag:4")), "columns");
  EXPECT_STREQ(group_name(parse_order("tile:4x2")), "tiles");
  EXPECT_STREQ(group_name(parse_order("hilbert:8")), "tiles");
  EXPECT_EQ(model_shape(parse_order("column:32")).column_w, 32);
  EXPECT_EQ(model_shape(parse_order("tile:8x4")).tile_h, 4);
  EXPECT_EQ(model_shape(parse_order("hilbert:16")).tile_w, 16);
  EXPECT_EQ(model_shape(parse_order("linear")).column_w + model_shape(parse_order("linear")).tile_w,
            0);
  // The GPU model's cost as before the traits: 20 instructions a division (2, 6, 5).
  EXPECT_EQ(remap_instructions(parse_order("linear")), 40.0);
  EXPECT_EQ(remap_instructions(parse_order("tile:4")), 120.0);
  EXPECT_EQ(remap_instructions(parse_order("column:8")), 100.0);
  EXPECT_GT(remap_instructions(parse_order("hilbert:64")),
            remap_instructions(parse_order("tile:64")));
  // Listing 5's 32-bit bound: I_h * w for columns, I_w * TH and TW * TH for tiles.
  EXPECT_TRUE(exact_math_fits(parse_order("column:1024"), 4096, 4096));
  EXPECT_FALSE(exact_math_fits(parse_order("column:1048576"), 4096, 4096));
  EXPECT_FALSE(exact_math_fits(parse_order("tile:65536"), 65536, 65536));
  EXPECT_FALSE(exact_math_fits(parse_order("hilbert:65536"), 65536, 65536));
  EXPECT_TRUE(exact_math_fits(parse_order("linear"), 46340, 46340));
  // Groups: a task's group is its row, column or tile, numbered row-major.
  const Shape<int64_t> s{10, 10};
  EXPECT_EQ(group_of(parse_order("linear"), Task<int64_t>{3, 7}, s), 7);
  EXPECT_EQ(group_of(parse_order("column:4"), Task<int64_t>{9, 7}, s), 2);
  EXPECT_EQ(group_of(parse_order("tile:4"), Task<int64_t>{9, 7}, s), 1 * 3 + 2);
  EXPECT_EQ(group_of(parse_order("hilbert:4"), Task<int64_t>{9, 7}, s), 1 * 3 + 2);
}

} // namespace
