// remap stays header-only and free of host-only code: this file includes every remap header and is
// built against cbi::remap alone, without cli/'s include directory, so a remap header that reached
// for cbi/error.hpp or cbi/order_text.hpp (host-only, UsageError) would not compile.
#include "cbi/remap/dispatch.hpp"
#include "cbi/remap/fast_divmod.hpp"
#include "cbi/remap/fold.hpp"
#include "cbi/remap/hd.hpp"
#include "cbi/remap/order.hpp"
#include "cbi/remap/order_traits.hpp"
#include "cbi/remap/orders.hpp"
#include "cbi/remap/shape.hpp"

#include <gtest/gtest.h>

namespace {

using namespace cbi::remap;

TEST(RemapAlone, OrdersMapWithoutTheTextSide) {
  // column:4 on 16x16 maps 5 -> (1,1) and 64 -> (4,0) (orders/column.hpp's example).
  const Order column = Order::of(Column::make(4, 0));
  const Shape<int64_t> s{16, 16};
  EXPECT_EQ(column.map<int64_t>(5, s).x, 1);
  EXPECT_EQ(column.map<int64_t>(5, s).y, 1);
  EXPECT_EQ(column.map<int64_t>(64, s).x, 4);
  EXPECT_EQ(column.map<int64_t>(64, s).y, 0);
  EXPECT_EQ(column.inverse<int64_t>(column.map<int64_t>(77, s), s), 77);
}

} // namespace
