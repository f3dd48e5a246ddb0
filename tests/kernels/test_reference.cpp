// The CPU references against direct transcriptions of listings 3 and 4, the error measure, and the
// host half conversions against IEEE binary16.
#include "cbi/kernels/reference.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <random>

namespace {

using namespace cbi::kernels;

std::vector<double> random_vector(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<double> v(n);
  for (double &x : v)
    x = d(rng);
  return v;
}

// Listing 3 as written: for every task, clamp i and j and average the window.
std::vector<double> listing3(const std::vector<double> &in, int w, int h, int sw, int sh) {
  std::vector<double> out(in.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double sum = 0;
      for (int dy = -sh / 2; dy <= sh / 2; ++dy)
        for (int dx = -sw / 2; dx <= sw / 2; ++dx) {
          const int i = std::min(h - 1, std::max(0, y + dy));
          const int j = std::min(w - 1, std::max(0, x + dx));
          sum += in[size_t(i * w + j)];
        }
      out[size_t(y * w + x)] = sum / (sw * sh);
    }
  return out;
}

TEST(Reference, StencilMatchesListing3WithClamping) {
  for (auto [w, h, sw, sh] : std::vector<std::array<int, 4>>{
           {7, 5, 3, 5}, {1, 1, 9, 9}, {16, 16, 7, 7}, {33, 2, 1, 3}, {5, 40, 11, 1}}) {
    const std::vector<double> in = random_vector(size_t(w * h), unsigned(w * 131 + h));
    const std::vector<double> want = listing3(in, w, h, sw, sh);
    for (int threads : {1, 3}) {
      const std::vector<double> got = stencil_reference(in, w, h, sw, sh, threads);
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_NEAR(got[i], want[i], 1e-14)
            << w << "x" << h << " " << sw << "x" << sh << " at " << i;
    }
  }
}

TEST(Reference, StencilOfConstantIsConstant) {
  const std::vector<double> in(12 * 9, 0.75);
  for (double v : stencil_reference(in, 12, 9, 5, 7))
    EXPECT_DOUBLE_EQ(v, 0.75);
}

TEST(Reference, MatmulRowsMatchListing4) {
  const int w = 13, h = 9, d = 17;
  const std::vector<double> a = random_vector(size_t(h * d), 1),
                            b = random_vector(size_t(d * w), 2);
  const std::vector<int64_t> rows = {0, 4, 8, 4};
  const std::vector<double> got = matmul_reference_rows(a, b, w, d, rows);
  ASSERT_EQ(got.size(), rows.size() * w);
  for (size_t r = 0; r < rows.size(); ++r)
    for (int x = 0; x < w; ++x) {
      double want = 0;
      for (int i = 0; i < d; ++i)
        want += a[size_t(rows[r] * d + i)] * b[size_t(x + i * w)];
      EXPECT_NEAR(got[r * w + size_t(x)], want, 1e-13);
    }
}

TEST(Reference, RelativeError) {
  const std::vector<double> ref = {3, 4};
  EXPECT_DOUBLE_EQ(relative_error(ref, ref), 0);
  EXPECT_NEAR(relative_error({3, 4.5}, ref), 0.1, 1e-15); // |(0, .5)| / |(3, 4)| = 0.1
  EXPECT_TRUE(std::isinf(relative_error({3, std::nan("")}, ref)));
  EXPECT_TRUE(std::isinf(relative_error({3}, ref)));
  EXPECT_TRUE(std::isinf(relative_error({1, 0}, {0, 0})));
}

TEST(Reference, ErrorBoundsOrderedByPrecision) {
  for (KernelKind k : {KernelKind::stencil, KernelKind::matmul}) {
    EXPECT_GT(error_bound(ElemType::half, k), error_bound(ElemType::float32, k));
    EXPECT_GT(error_bound(ElemType::float32, k), error_bound(ElemType::float64, k));
  }
  // A result stored in half is only good to 2^-11 relative; the bound must allow that.
  EXPECT_GE(error_bound(ElemType::half, KernelKind::stencil), std::ldexp(1.0, -11));
}

TEST(Half, EveryFiniteHalfRoundTrips) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const float f = half_bits_to_float(uint16_t(bits));
    if (std::isnan(f)) {
      EXPECT_EQ(bits & 0x7c00u, 0x7c00u);
      continue;
    }
    EXPECT_EQ(float_to_half_bits(f), bits) << std::hex << bits;
  }
}

TEST(Half, KnownValuesAndRounding) {
  EXPECT_EQ(float_to_half_bits(1.0f), 0x3c00);
  EXPECT_EQ(float_to_half_bits(-2.0f), 0xc000);
  EXPECT_EQ(float_to_half_bits(65504.0f), 0x7bff);
  EXPECT_EQ(float_to_half_bits(65520.0f), 0x7c00); // rounds up past the largest half
  EXPECT_EQ(float_to_half_bits(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(float_to_half_bits(std::ldexp(1.0f, -26)), 0x0000);
  // Ties go to even: 1 + 2^-11 lies halfway between 1 and 1 + 2^-10.
  EXPECT_EQ(float_to_half_bits(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  EXPECT_EQ(float_to_half_bits(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  EXPECT_DOUBLE_EQ(round_to(ElemType::half, 0.1), 0.0999755859375);
  EXPECT_DOUBLE_EQ(round_to(ElemType::float32, 0.1), double(0.1f));
  EXPECT_DOUBLE_EQ(round_to(ElemType::float64, 0.1), 0.1);
}

} // namespace
