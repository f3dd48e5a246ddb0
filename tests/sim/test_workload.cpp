// The access generator against literal transcriptions of listings 3 and 4: same addresses, same
// order, same counts; thread granularity gives each thread's distinct lines ascending.
#include "cbi/sim/workload.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

using namespace cbi::sim;

namespace {

// Expands the generator's unit runs back into one unit per access.
std::vector<uint64_t> generated(const Workload &w, int64_t unit_bytes, Granularity g, int64_t x,
                                int64_t y) {
  AccessGenerator gen(w, unit_bytes, g);
  std::vector<uint64_t> units;
  gen.thread(x, y, [&](uint64_t unit, int64_t count, bool) {
    EXPECT_GE(count, 1);
    units.insert(units.end(), static_cast<std::size_t>(count), unit);
  });
  return units;
}

// Listing 3, literally: element addresses in program order.
std::vector<int64_t> listing3(const Workload &w, int64_t x, int64_t y) {
  std::vector<int64_t> addr;
  const int64_t rx = w.stencil_w / 2, ry = w.stencil_h / 2;
  for (int64_t di = -ry; di <= ry; ++di) {
    const int64_t i = std::min(w.height - 1, std::max<int64_t>(0, y + di));
    for (int64_t dj = -rx; dj <= rx; ++dj) {
      const int64_t j = std::min(w.width - 1, std::max<int64_t>(0, x + dj));
      addr.push_back(i * w.width + j);
    }
  }
  return addr;
}

} // namespace

TEST(Workload, StencilClampMatchesListing3) {
  Workload w;
  w.width = 13;
  w.height = 6;
  w.stencil_w = 5;
  w.stencil_h = 3;
  for (int64_t unit_bytes : {4, 16, 32})
    for (int64_t y = 0; y < w.height; ++y)
      for (int64_t x = 0; x < w.width; ++x) {
        std::vector<uint64_t> expect;
        for (int64_t a : listing3(w, x, y))
          expect.push_back(static_cast<uint64_t>(a * w.elem_bytes / unit_bytes));
        EXPECT_EQ(generated(w, unit_bytes, Granularity::exact, x, y), expect)
            << "x=" << x << " y=" << y << " unit=" << unit_bytes;
      }
}

TEST(Workload, StencilNoBoundaryIsShiftedToZero) {
  Workload w;
  w.width = 8;
  w.height = 8;
  w.stencil_w = 3;
  w.stencil_h = 3;
  w.boundary = Boundary::none;
  // Task (0,0) reads rows -1..1, columns -1..1; shifted by I_w + 1 the lowest address is 0.
  const auto units = generated(w, 4, Granularity::exact, 0, 0);
  const std::vector<uint64_t> expect = {0, 1, 2, 8, 9, 10, 16, 17, 18};
  EXPECT_EQ(units, expect);
  EXPECT_EQ(w.output_base_bytes(), ((8 + 2) * 8 + 2) * 4);
}

TEST(Workload, MatmulMatchesListing4) {
  Workload w;
  w.kind = kind_of<MatmulWorkload>();
  w.width = 5;
  w.height = 3;
  w.depth = 4;
  w.elem_bytes = 8;
  const auto units = generated(w, 8, Granularity::exact, 2, 1);
  std::vector<uint64_t> expect;
  for (int64_t i = 0; i < w.depth; ++i) {
    expect.push_back(static_cast<uint64_t>(1 * w.depth + i));                      // A[y*D + i]
    expect.push_back(static_cast<uint64_t>(w.height * w.depth + i * w.width + 2)); // B[i*I_w + x]
  }
  EXPECT_EQ(units, expect);
}

TEST(Workload, ThreadGranularityIsDistinctAscending) {
  Workload w;
  w.width = 16;
  w.height = 16;
  for (int64_t x : {0, 5, 15})
    for (int64_t y : {0, 7, 15}) {
      const auto exact = generated(w, 16, Granularity::exact, x, y);
      const auto thread = generated(w, 16, Granularity::thread, x, y);
      const std::set<uint64_t> distinct(exact.begin(), exact.end());
      EXPECT_EQ(thread, std::vector<uint64_t>(distinct.begin(), distinct.end()));
    }
}

TEST(Workload, WritesComeAfterTheReads) {
  Workload w;
  w.width = 4;
  w.height = 4;
  w.stencil_w = 3;
  w.stencil_h = 3;
  w.writes = true;
  AccessGenerator gen(w, 4, Granularity::exact);
  std::vector<std::pair<uint64_t, bool>> seen;
  gen.thread(1, 2, [&](uint64_t unit, int64_t, bool write) { seen.emplace_back(unit, write); });
  ASSERT_FALSE(seen.empty());
  EXPECT_TRUE(seen.back().second);
  EXPECT_EQ(seen.back().first, static_cast<uint64_t>(16 + 2 * 4 + 1));
  EXPECT_EQ(w.accesses(), 16 * 10);
}

TEST(Workload, ValidationRejectsBadShapes) {
  Workload w;
  w.stencil_w = 4;
  EXPECT_THROW(validate(w), cbi::UsageError);
  w = Workload{};
  w.width = 0;
  EXPECT_THROW(validate(w), cbi::UsageError);
  w = Workload{};
  w.elem_bytes = 3;
  EXPECT_THROW(validate(w), cbi::UsageError);
  w = Workload{};
  w.width = w.height = int64_t{1} << 30;
  w.stencil_w = w.stencil_h = 99;
  EXPECT_THROW(validate(w), cbi::UsageError); // access count would overflow
  w = Workload{};
  EXPECT_NO_THROW(validate(w));
}
