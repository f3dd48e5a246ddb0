// The property every thread order has (tests/remap/): map is a bijection onto the task grid and
// inverse(map(i)) == i for every i.
#pragma once

#include "cbi/order_text.hpp"
#include "cbi/remap/order.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace cbi::test {

inline void expect_bijection(const remap::Order &o, int64_t w, int64_t h) {
  const remap::Shape<int64_t> s{w, h};
  std::vector<char> seen(static_cast<std::size_t>(w * h), 0);
  for (int64_t i = 0; i < w * h; ++i) {
    const remap::Task<int64_t> t = o.map(i, s);
    ASSERT_TRUE(t.x >= 0 && t.x < w && t.y >= 0 && t.y < h)
        << remap::to_string(o) << " " << w << "x" << h << " i=" << i << " -> (" << t.x << "," << t.y
        << ")";
    char &mark = seen[static_cast<std::size_t>(t.y * w + t.x)];
    ASSERT_EQ(mark, 0) << remap::to_string(o) << " " << w << "x" << h << " visits (" << t.x << ","
                       << t.y << ") twice";
    mark = 1;
    ASSERT_EQ(o.inverse(t, s), i) << remap::to_string(o) << " " << w << "x" << h;
  }
}

} // namespace cbi::test
