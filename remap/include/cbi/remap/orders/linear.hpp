// The naive order (listings 3 and 4): x = i mod I_w, y = i div I_w.
#pragma once

#include "cbi/remap/fast_divmod.hpp"
#include "cbi/remap/order_traits.hpp"
#include "cbi/remap/shape.hpp"

namespace cbi::remap {

// Example: linear on 16x16 maps 17 -> (1,1).
struct Linear {
  static constexpr const char *name = "linear";
  static constexpr const char *alias = "naive";
  static constexpr ParamForm form = ParamForm::none;
  static constexpr const char *syntax = "linear";

  CBI_HD static constexpr Linear make(long long, long long) { return {}; }
  CBI_HD constexpr long long param_w() const { return 0; }
  CBI_HD constexpr long long param_h() const { return 0; }
  static constexpr const char *rule = "";
  static constexpr const char *groups = "task rows";
  CBI_HD static constexpr bool valid(long long, long long) { return true; }

  template <class Int> CBI_HD Task<Int> map(Int i, Shape<Int> s) const {
    return {static_cast<Int>(i % s.width), static_cast<Int>(i / s.width)};
  }
  template <class Int> CBI_HD Int inverse(Task<Int> t, Shape<Int> s) const {
    return t.y * s.width + t.x;
  }

  // Traits (order_traits.hpp).
  CBI_HD constexpr ModelShape model_shape() const { return {}; }
  template <class Int> CBI_HD Int group(Task<Int> t, Shape<Int>) const { return t.y; }
  CBI_HD constexpr bool exact_math_fits(long long, long long) const { return true; }
  // i mod I_w and i div I_w, about 20 instructions each without a hardware divider.
  CBI_HD constexpr double remap_instructions() const { return 20.0 * 2; }
  // The other orders' fast maps are counted beyond this one's (order_traits.hpp).
  CBI_HD constexpr double fast_remap_instructions() const { return 0.0; }

  struct Params;
};

// Host-prepared: the division by I_w as a multiply-high and a shift. Exact where
// fast_math_exact(s) holds (order_traits.hpp).
struct Linear::Params {
  FastDivmod width;
  Params() = default;
  CBI_HD Params(Linear, Shape<int> s) : width(s.width) {}
  CBI_HD Task<int> map(int i) const {
    Task<int> t;
    width.divmod(i, t.y, t.x);
    return t;
  }
  CBI_HD int inverse(Task<int> t) const { return t.y * width.divisor() + t.x; }
};

} // namespace cbi::remap
