// Property tests for the thread orders: every order is a bijection on [0, I_w*I_h) and its inverse
// round-trips, over thousands of random shapes including primes, widths that do not divide I_w,
// W = 1 and W >= I_w; each order's host-prepared Params (fast division) equal its exact map on
// all of them and on the largest grids fast math allows. Plus the headers' worked examples.
#include "cbi/order_text.hpp"
#include "cbi/remap/fold.hpp"
#include "cbi/remap/order.hpp"

#include "remap_bijection.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using namespace cbi::remap;

namespace {

using cbi::test::expect_bijection;

// Params(order, s).map(i) == order.map(i, s) for every i, and inverse round-trips.
void expect_params_match(const Order &o, int w, int h) {
  const Shape<int> s{w, h};
  visit(o, [&](auto order) {
    const typename decltype(order)::Params p(order, s);
    for (int i = 0; i < w * h; ++i) {
      const Task<int> exact = order.map(i, s), fast = p.map(i);
      ASSERT_EQ(fast.x, exact.x) << to_string(o) << " " << w << "x" << h << " i=" << i;
      ASSERT_EQ(fast.y, exact.y) << to_string(o) << " " << w << "x" << h << " i=" << i;
      ASSERT_EQ(p.inverse(fast), i) << to_string(o);
    }
  });
}

} // namespace

TEST(Orders, HeaderExamples) {
  const Shape<int64_t> s{16, 16};
  EXPECT_EQ(Linear{}.map<int64_t>(17, s).x, 1);
  EXPECT_EQ(Linear{}.map<int64_t>(17, s).y, 1);
  auto t = Tile{4, 4}.map<int64_t>(5, s);
  EXPECT_EQ(t.x, 1);
  EXPECT_EQ(t.y, 1);
  t = Tile{4, 4}.map<int64_t>(16, s);
  EXPECT_EQ(t.x, 4);
  EXPECT_EQ(t.y, 0);
  t = Column{4}.map<int64_t>(5, s);
  EXPECT_EQ(t.x, 1);
  EXPECT_EQ(t.y, 1);
  t = Column{4}.map<int64_t>(64, s);
  EXPECT_EQ(t.x, 4);
  EXPECT_EQ(t.y, 0);
  t = Zigzag{4}.map<int64_t>(5, s); // odd row runs right to left: x' = w' - 1 - x
  EXPECT_EQ(t.x, 2);
  EXPECT_EQ(t.y, 1);
}

TEST(Orders, ColumnMatchesListing5) {
  // Listing 5 transcribed literally, with int arithmetic as on the GPU.
  auto listing5 = [](int tid, int width, int height, int col_w) {
    int col_size = height * col_w;
    int col_id = tid / col_size;
    int col_tid = tid % col_size;
    int col_off = col_id * col_w;
    int col_tw = std::min(width - col_id * col_w, col_w);
    int x = (col_tid % col_tw) + col_off;
    int y = col_tid / col_tw;
    return std::pair<int, int>{x, y};
  };
  for (int w : {7, 16, 33, 100})
    for (int h : {1, 5, 16})
      for (int c : {1, 3, 4, 8, 32, 200}) {
        const Shape<int> s{w, h};
        for (int i = 0; i < w * h; ++i) {
          const auto t = Column{c}.map(i, s);
          const auto [x, y] = listing5(i, w, h, c);
          ASSERT_EQ(t.x, x);
          ASSERT_EQ(t.y, y);
        }
      }
}

TEST(Orders, ColumnWiderThanInputIsLinear) {
  for (int64_t w : {1, 5, 17})
    for (int64_t c : {w, w + 1, 4 * w}) {
      const Shape<int64_t> s{w, 9};
      for (int64_t i = 0; i < w * 9; ++i) {
        const Task<int64_t> t = Column{c}.map(i, s);
        EXPECT_EQ(t.x, i % w);
        EXPECT_EQ(t.y, i / w);
      }
    }
}

TEST(Orders, LastColumnIsNarrower) {
  // 10 wide, columns of 4: widths 4, 4, 2 (eq. 4.2). The last column starts at 4*I_h*2.
  const Shape<int64_t> s{10, 3};
  const auto t = Column{4}.map<int64_t>(4 * 3 * 2, s);
  EXPECT_EQ(t.x, 8);
  EXPECT_EQ(t.y, 0);
  const auto u = Column{4}.map<int64_t>(4 * 3 * 2 + 3, s);
  EXPECT_EQ(u.x, 9);
  EXPECT_EQ(u.y, 1);
}

TEST(Orders, EdgeShapesAreBijections) {
  const std::vector<std::pair<int64_t, int64_t>> shapes = {{1, 1},    {1, 7},   {7, 1},  {4037, 3},
                                                           {3, 4037}, {31, 33}, {64, 64}};
  for (auto [w, h] : shapes)
    for (const char *spec : {"linear", "column:1", "column:4", "column:32", "column:5000",
                             "zigzag:1", "zigzag:3", "zigzag:32", "zigzag:5000", "tile:1", "tile:4",
                             "tile:3x5", "tile:5000x2", "tile:1x4037"}) {
      expect_bijection(parse_order(spec), w, h);
      expect_params_match(parse_order(spec), int(w), int(h));
    }
}

// Every registered order in turn (a new one is covered without an edit here), with random
// parameters that its own valid() allows.
TEST(Orders, RandomShapesAreBijections) {
  std::mt19937_64 rng(20221);
  std::uniform_int_distribution<int64_t> side(1, 200), param(1, 260);
  for (int trial = 0; trial < 3000; ++trial) {
    const int64_t w = side(rng), h = side(rng) % 60 + 1;
    Order o{static_cast<OrderKind>(trial % static_cast<int>(Orders::size)), 0, 0};
    do {
      o.param_w = param(rng);
      o.param_h = param(rng) % 40 + 1;
    } while (!valid(o));
    expect_bijection(o, w, h);
    expect_params_match(o, int(w), int(h));
  }
}

TEST(Orders, PrimeSizeLargeRoundTrip) {
  // 4037 x 4037 (thesis Fig 5.2) sampled: inverse(map(i)) == i and map(inverse(t)) == t.
  const Shape<int64_t> s{4037, 4037};
  std::mt19937_64 rng(7);
  for (const char *spec : {"column:32", "column:33", "zigzag:31", "tile:16x8", "tile:30"}) {
    const Order o = parse_order(spec);
    for (int k = 0; k < 20000; ++k) {
      const int64_t i = static_cast<int64_t>(rng() % (4037ull * 4037ull));
      const Task<int64_t> t = o.map(i, s);
      ASSERT_EQ(o.inverse(t, s), i) << spec;
    }
  }
}

TEST(Orders, Int32AndInt64Agree) {
  const Order o = parse_order("zigzag:33");
  for (int i = 0; i < 100 * 37; ++i) {
    const auto a = o.map<int>(i, Shape<int>{100, 37});
    const auto b = o.map<int64_t>(i, Shape<int64_t>{100, 37});
    ASSERT_EQ(a.x, b.x);
    ASSERT_EQ(a.y, b.y);
  }
}

TEST(Orders, ParseAndPrintRoundTrip) {
  for (const char *spec : {"linear", "tile:8", "tile:16x4", "column:32", "zigzag:7"})
    EXPECT_EQ(to_string(parse_order(spec)), spec);
  for (const char *bad : {"", "columns:4", "column:", "column:0", "column:-3", "column:x",
                          "tile:0x4", "tile:4x", "zigzag:1.5", "tile:3x3x3"})
    EXPECT_THROW(parse_order(bad), cbi::UsageError) << bad;
}

// A malformed parameter names the whole order the user typed and its spelling, never the bare
// fragment that failed to parse ("'' is not a positive integer" for tile:3x).
TEST(Orders, BadParameterNamesTheWholeOrder) {
  for (const char *bad :
       {"tile:3x", "tile:x4", "tile:4x4x4", "column:abc", "column:", "column:4:5", "zigzag:-2"}) {
    try {
      parse_order(bad);
      ADD_FAILURE() << bad << " parsed";
    } catch (const cbi::UsageError &e) {
      const std::string what = e.what();
      EXPECT_EQ(e.option(), "--order");
      EXPECT_NE(what.find(std::string("'") + bad + "'"), std::string::npos) << what;
      EXPECT_NE(what.find("allowed: "), std::string::npos) << what;
      EXPECT_EQ(what.find("''"), std::string::npos) << what;
    }
  }
}

TEST(Fold, NDimensionalFoldingRoundTrips) {
  const int64_t dims[] = {8, 4, 3};
  const Shape<int64_t> s = fold(dims, 3);
  EXPECT_EQ(s.width, 8);
  EXPECT_EQ(s.height, 12);
  int64_t coord[3];
  unfold(Task<int64_t>{5, 7}, dims, 3, coord);
  EXPECT_EQ(coord[0], 5);
  EXPECT_EQ(coord[1], 3);
  EXPECT_EQ(coord[2], 1);
  // Every folded task unfolds to a distinct N-d coordinate and refolds to itself.
  const Order o = parse_order("column:3");
  std::vector<char> seen(8 * 4 * 3, 0);
  for (int64_t i = 0; i < 96; ++i) {
    const Task<int64_t> t = o.map(i, s);
    unfold(t, dims, 3, coord);
    const int64_t flat = (coord[2] * 4 + coord[1]) * 8 + coord[0];
    ASSERT_EQ(seen[flat], 0);
    seen[flat] = 1;
    const Task<int64_t> back = refold(coord, dims, 3);
    EXPECT_EQ(back.x, t.x);
    EXPECT_EQ(back.y, t.y);
  }
}

TEST(OrderParams, LargestGridSampled) {
  // The largest grids fast math allows: 65537 x 32767 = 2^31 - 32769 tasks, and 2^31 - 1 tasks
  // in one row or one column; sampled thread ids including the last ones.
  std::mt19937_64 rng(5);
  for (auto [w, h] :
       {std::pair<int, int>{65537, 32767}, {int(kFastDivmodMax), 1}, {1, int(kFastDivmodMax)}})
    for (const char *spec : {"linear", "column:32", "zigzag:33", "tile:16x8", "tile:30"}) {
      const Order o = parse_order(spec);
      const Shape<int> s{w, h};
      const int64_t tasks = int64_t(w) * h;
      visit(o, [&](auto order) {
        const typename decltype(order)::Params p(order, s);
        for (int k = 0; k < 20000; ++k) {
          const int i = k < 2 ? int(tasks - 1 - k) : int(rng() % uint64_t(tasks));
          // The reference in 64 bits: listing 5's int arithmetic itself overflows here (I_h w
          // for column:32 on a 1-wide grid), the clamped Params do not.
          const Task<int64_t> exact = order.map(int64_t(i), Shape<int64_t>{w, h});
          const Task<int> fast = p.map(i);
          ASSERT_EQ(fast.x, exact.x) << spec << " i=" << i;
          ASSERT_EQ(fast.y, exact.y) << spec << " i=" << i;
        }
      });
    }
}

TEST(OrderRegistry, TextIsGeneratedFromTheList) {
  EXPECT_STREQ(order_syntax(),
               "linear, tile:T, tile:TWxTH, column:W, zigzag:W, hilbert:S (positive integers; "
               "hilbert:S: S a power of two)");
  EXPECT_STREQ(kind_name(parse_order("zigzag:4")), "zigzag");
  EXPECT_EQ(to_string(parse_order("naive")), "linear");
  EXPECT_EQ(parse_order("tile:4x2").kind, OrderKind::tile);
  EXPECT_THROW(parse_order("linear:3"), cbi::UsageError);
  EXPECT_THROW(parse_order("column"), cbi::UsageError);
}
