// Division by a run-time constant as a multiply-high and a shift, after CUTLASS's FastDivmod
// (include/cutlass/fast_math.h): the host computes the constants once per launch ("Params"), the
// device divides with one IMAD.HI and one SHF instead of the ~20-instruction integer division.
//
// Exact range: divisor d in [1, 2^31 - 1] and dividend n in [0, 2^31 - 1], i.e. every thread id
// of a grid of up to 2^31 threads. Proof (Granlund and Montgomery 1994, theorem 4.2, with N = 31):
// with l = ceil(log2 d) and m = ceil(2^(31+l) / d), m d - 2^(31+l) lies in [0, d) and so in
// [0, 2^l]; then floor(n / d) = floor(m n / 2^(31+l)) for every 0 <= n < 2^31, and m < 2^32.
// tests/remap/test_fast_divmod.cpp checks that inequality for divisors up to 2^22 and around every
// power of two, and the quotients themselves at the edges of the range.
#pragma once

#include "cbi/remap/hd.hpp"

#include <cstdint>

namespace cbi::remap {

inline constexpr int64_t kFastDivmodMax = 0x7fffffff; // largest divisor and dividend, 2^31 - 1

// True when FastDivmod is exact for this divisor and every dividend up to max_dividend.
CBI_HD constexpr bool fast_divmod_exact(int64_t divisor, int64_t max_dividend) {
  return divisor >= 1 && divisor <= kFastDivmodMax && max_dividend <= kFastDivmodMax;
}

class FastDivmod {
public:
  // Divisor 1 (the identity; its multiplier would need 33 bits, so it is special-cased).
  constexpr FastDivmod() = default;
  // Precondition: 1 <= divisor <= 2^31 - 1 (fast_divmod_exact); callers check it on the host.
  // Example: FastDivmod(7) has shift 2 (l = 3) and multiplier ceil(2^34 / 7) = 2454267027.
  CBI_HD constexpr explicit FastDivmod(int32_t divisor) : m_divisor(divisor) {
    if (divisor == 1)
      return;
    uint32_t ceil_log2 = 0;
    while ((uint64_t(1) << ceil_log2) < uint64_t(divisor))
      ++ceil_log2;
    const uint64_t two_p = uint64_t(1) << (31 + ceil_log2);
    m_multiplier = uint32_t((two_p + uint64_t(divisor) - 1) / uint64_t(divisor));
    m_shift = ceil_log2 - 1; // the high word already divides by 2^32: 31 + l - 32
  }

  // `a` where `pick_a`, else `b`, selected field by field so that the choice stays in registers
  // (a reference to one of two kernel-parameter structs would send them to local memory).
  CBI_HD static FastDivmod select(bool pick_a, const FastDivmod &a, const FastDivmod &b) {
    FastDivmod f;
    f.m_divisor = pick_a ? a.m_divisor : b.m_divisor;
    f.m_multiplier = pick_a ? a.m_multiplier : b.m_multiplier;
    f.m_shift = pick_a ? a.m_shift : b.m_shift;
    return f;
  }

  CBI_HD constexpr int32_t divisor() const { return m_divisor; }
  CBI_HD constexpr uint32_t multiplier() const { return m_multiplier; }
  CBI_HD constexpr uint32_t shift() const { return m_shift; }

  // floor(n / divisor) for 0 <= n <= 2^31 - 1.
  CBI_HD int32_t div(int32_t n) const {
#if defined(__CUDA_ARCH__)
    return m_divisor == 1 ? n : int32_t(__umulhi(uint32_t(n), m_multiplier) >> m_shift);
#else
    return m_divisor == 1 ? n : int32_t(((uint64_t(uint32_t(n)) * m_multiplier) >> 32) >> m_shift);
#endif
  }
  // Quotient and remainder of n / divisor (the remainder costs one multiply-subtract).
  CBI_HD void divmod(int32_t n, int32_t &quotient, int32_t &remainder) const {
    quotient = div(n);
    remainder = n - quotient * m_divisor;
  }

private:
  int32_t m_divisor = 1;
  uint32_t m_multiplier = 0;
  uint32_t m_shift = 0;
};

} // namespace cbi::remap
