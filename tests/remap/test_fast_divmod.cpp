// Property tests for fast division (remap/fast_divmod.hpp): FastDivmod equals / and % over its
// whole stated range (divisor 1, powers of two and their neighbours, 2^31 - 1, the largest thread
// id of a 2^31-thread grid), and the proof's inequality holds for the divisors it names.
#include "cbi/remap/fast_divmod.hpp"
#include "cbi/remap/order.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using namespace cbi::remap;

namespace {

constexpr int64_t kMax = kFastDivmodMax; // 2^31 - 1: the largest thread id of a 2^31-thread grid

// The sufficient condition of the header's proof: with l = ceil(log2 d), p = 31 + l,
// 0 <= m d - 2^p <= 2^l and m < 2^32. When it holds, fast division is exact for every n < 2^31.
void expect_exact_by_theorem(int64_t d) {
  const FastDivmod f(static_cast<int32_t>(d));
  if (d == 1) {
    EXPECT_EQ(f.multiplier(), 0u);
    return;
  }
  uint32_t l = 0;
  while ((uint64_t(1) << l) < uint64_t(d))
    ++l;
  const unsigned __int128 p2 = (unsigned __int128)1 << (31 + l);
  const unsigned __int128 md = (unsigned __int128)f.multiplier() * (unsigned __int128)d;
  ASSERT_EQ(f.shift(), l - 1) << d;
  ASSERT_GE(md, p2) << "d=" << d;
  ASSERT_LE(md - p2, (unsigned __int128)1 << l) << "d=" << d;
}

void expect_divides(const FastDivmod &f, int64_t n) {
  const int64_t d = f.divisor();
  int32_t q = -1, r = -1;
  f.divmod(static_cast<int32_t>(n), q, r);
  ASSERT_EQ(q, n / d) << n << " / " << d;
  ASSERT_EQ(r, n % d) << n << " % " << d;
}

// Dividends at the edges for divisor d: 0, 1, d - 1, d, d + 1, around a few multiples of d, and
// the top of the range (2^31 - 1 and the multiple of d just below it).
void expect_edges(int64_t d) {
  const FastDivmod f(static_cast<int32_t>(d));
  std::vector<int64_t> n = {0, 1, kMax, kMax - 1, kMax / d * d, kMax / d * d - 1};
  for (int64_t q : {int64_t(1), int64_t(2), int64_t(3), kMax / d / 2, kMax / d})
    for (int64_t delta : {-1, 0, 1})
      n.push_back(q * d + delta);
  for (int64_t v : n)
    if (v >= 0 && v <= kMax)
      expect_divides(f, v);
}

} // namespace

TEST(FastDivmod, HeaderExample) {
  const FastDivmod f(7);
  EXPECT_EQ(f.shift(), 2u);
  EXPECT_EQ(f.multiplier(), 2454267027u);
  EXPECT_EQ(f.div(48), 6);
}

TEST(FastDivmod, TheoremHoldsForSmallDivisorsAndAroundPowersOfTwo) {
  for (int64_t d = 1; d <= (1 << 22); ++d)
    expect_exact_by_theorem(d);
  for (int k = 22; k <= 31; ++k)
    for (int64_t delta = -4096; delta <= 4096; ++delta) {
      const int64_t d = (int64_t(1) << k) + delta;
      if (d >= 1 && d <= kMax)
        expect_exact_by_theorem(d);
    }
}

TEST(FastDivmod, EdgeDivisorsAndDividends) {
  // Divisor 1, every power of two, its neighbours, and 2^31 - 1.
  std::vector<int64_t> divisors = {1, 3, 5, 7, 9, 641, 4037, 46341, kMax, kMax - 1};
  for (int k = 1; k <= 30; ++k)
    for (int64_t delta : {-1, 0, 1})
      divisors.push_back((int64_t(1) << k) + delta);
  for (int64_t d : divisors)
    expect_edges(d);
}

TEST(FastDivmod, RandomDivisorsAndDividends) {
  std::mt19937_64 rng(31);
  for (int trial = 0; trial < 200000; ++trial) {
    // Divisors spread over all magnitudes: a random bit length, then a random value of it.
    const int bits = 1 + int(rng() % 31);
    const int64_t d = std::max<int64_t>(1, int64_t(rng() & ((uint64_t(1) << bits) - 1)));
    const FastDivmod f(static_cast<int32_t>(d));
    expect_divides(f, int64_t(rng() % uint64_t(kMax + 1)));
    expect_divides(f, int64_t(rng() % uint64_t(std::min<int64_t>(kMax, 4 * d) + 1)));
  }
}

TEST(FastDivmod, EveryDividendForSomeDivisors) {
  // Exhaustive over all 2^31 dividends is too slow for CI; every dividend below 2^22 and every
  // 97th one above it, for divisors of each kind.
  for (int64_t d : {int64_t(1), int64_t(2), int64_t(3), int64_t(7), int64_t(4096), int64_t(4097),
                    int64_t(36864), kMax}) {
    const FastDivmod f(static_cast<int32_t>(d));
    for (int64_t n = 0; n < (1 << 22); ++n)
      expect_divides(f, n);
    for (int64_t n = kMax; n >= (1 << 22); n -= 97 * 1021)
      expect_divides(f, n);
  }
}

TEST(FastDivmod, RangeCheck) {
  EXPECT_TRUE(fast_divmod_exact(1, kMax));
  EXPECT_TRUE(fast_divmod_exact(kMax, kMax));
  EXPECT_FALSE(fast_divmod_exact(0, 10));
  EXPECT_FALSE(fast_divmod_exact(kMax + 1, 10));
  EXPECT_FALSE(fast_divmod_exact(3, kMax + 1));
  EXPECT_TRUE(fast_math_exact(Shape<int64_t>{65536, 32767}));
  EXPECT_TRUE(fast_math_exact(Shape<int64_t>{kMax, 1}));
  EXPECT_FALSE(fast_math_exact(Shape<int64_t>{65536, 32768})); // 2^31 tasks
  EXPECT_FALSE(fast_math_exact(Shape<int64_t>{0, 5}));
}
